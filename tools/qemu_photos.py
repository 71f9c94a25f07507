"""Screendumps of every page of QR codes that the kernel shows at the end of a run.

Used by tools/qemu_boot.py (boot(photos=DIR): tools/qemu-run --photos, the tests/qemu `qr/` cases).
Once the kernel has halted, it shows in turn the summary and each page of QR codes
(kernel/end_screen.c), and says on the serial port when a page is on the screen and when it
goes: "qr: page 3 of 8 on the screen", then "qr: page 3 of 8 off the screen" before the screen
changes again. On the first line this takes a screendump through QMP; once QEMU has written it,
the second line must not be in yet, or the screen may have changed meanwhile and the page is taken
again on the next round. Nothing sleeps: every wait is on QEMU's output.
"""

import os
import re
import time

ON_RE = re.compile(rb"qr: page (\d+) of (\d+) on the screen\r?\n")
MADE_RE = re.compile(rb"qr: (\d+) codes? on (\d+) pages? of \d+ records?[^\r\n]*")
NONE_RE = re.compile(rb"no QR codes of the records: ([^\r\n]*)\r?\n")
NOTE_RE = re.compile(rb"qr: not in the codes: ([^\r\n]*)\r?\n")


def page_name(number, total):
    """The file of one page: page-03-of-08.png."""
    return "page-%02d-of-%02d.png" % (number, total)


class Photos:
    """What capture() got: the files in page order, the pages and codes, and why some are
    missing."""

    def __init__(self):
        self.files = []
        self.total = None   # pages
        self.codes = None   # codes on them
        self.made = ""      # the kernel's line about the codes it made
        self.note = ""      # what the codes leave out, in the kernel's words
        self.retaken = 0    # screendumps thrown away because the page changed meanwhile
        self.error = None

    def missing(self):
        taken = {os.path.basename(f) for f in self.files}
        return [n for n in range(1, (self.total or 0) + 1)
                if page_name(n, self.total) not in taken]


def capture(read_more, data, screendump, directory, deadline):
    """The pages into directory. read_more(seconds) reads what QEMU printed meanwhile into data
    (a bytearray) and returns False once QEMU has gone; screendump(path) asks QEMU for one.
    Returns Photos."""
    photos = Photos()
    os.makedirs(directory, exist_ok=True)
    taken = {}
    cursor = 0
    while True:
        made = MADE_RE.search(data)
        if made and photos.codes is None:
            photos.codes, photos.total = int(made.group(1)), int(made.group(2))
            photos.made = made.group(0).decode("ascii", "replace").strip()
        none = NONE_RE.search(data)
        if none:
            photos.error = "the kernel made no QR codes: " + none.group(1).decode(
                "ascii", "replace")
            break
        on = ON_RE.search(data, cursor)
        if on:
            cursor = on.end()
            number, total = int(on.group(1)), int(on.group(2))
            photos.total = total
            if number not in taken:
                path = _take(read_more, data, screendump, directory, number, total, cursor)
                if path:
                    taken[number] = path
                else:
                    photos.retaken += 1
            if photos.total and len(taken) == photos.total:
                break
            continue
        if time.monotonic() > deadline:
            photos.error = "timed out waiting for the pages of QR codes"
            break
        if not read_more(min(1.0, max(0.0, deadline - time.monotonic()))):
            photos.error = "QEMU left before every page was on the screen"
            break
    note = NOTE_RE.search(data)
    photos.note = note.group(1).decode("ascii", "replace") if note else ""
    photos.files = [taken[n] for n in sorted(taken)]
    return photos


def _take(read_more, data, screendump, directory, number, total, since):
    """One page: the screendump, kept only when the page was still on the screen after it."""
    final = os.path.join(directory, page_name(number, total))
    partial = final + ".part.png"
    screendump(partial)
    read_more(0)  # everything the kernel printed until now
    off = b"qr: page %d of %d off the screen" % (number, total)
    if off in data[since:]:
        os.unlink(partial)
        return None
    os.replace(partial, final)
    return final

