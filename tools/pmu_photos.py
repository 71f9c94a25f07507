"""The records of a run read back from photos of its QR codes (pmu-report --from-photos).

At the end of a run on a framebuffer the kernel shows its records as a sequence of QR codes
(docs/qr-codes.md, kernel/qr/chunk.h). Each code's text is "PMU1:" and Base45 (RFC 9285) of:

    run id (4 bytes, little-endian), number (1, from 1), total (1), flags (1: 1 = records were
    left out), CRC-32 (4, little-endian, zlib's, of the 7 bytes before it and the rest), then the
    chunk's text deflated (RFC 1951, raw)

and the chunk's text is record lines: "<json>", or "@<seq> <json>" where the numbering jumps (the
first line of every chunk), and "#<note>" lines saying what the codes leave out. This module finds
the codes in the pictures with zbar (Debian's zbar-tools: zbarimg), checks each, puts the chunks
of one run in order and rebuilds the serial log's record lines ("@<seq> <crc32> <json>"), which
pmu-report then reads as it reads a serial log.
"""

import os
import re
import shutil
import subprocess
import zlib

PREFIX = "PMU1:"
HEADER_LEN = 11
FLAG_LEFT_OUT = 1
BASE45 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
_BASE45_VALUE = {c: i for i, c in enumerate(BASE45)}
ZBARIMG = "zbarimg"


class PhotoError(Exception):
    """A picture that cannot be read at all, or no zbar: pmu-report's exit status 2."""


def base45_decode(text):
    """RFC 9285, section 4: three characters are a pair of bytes, two a last single byte."""
    if len(text) % 3 == 1:
        raise ValueError("a Base45 text of %d characters (one left over)" % len(text))
    out = bytearray()
    for i in range(0, len(text), 3):
        group = text[i:i + 3]
        try:
            digits = [_BASE45_VALUE[c] for c in group]
        except KeyError as e:
            raise ValueError("%r is not a Base45 character" % e.args[0]) from None
        n = sum(d * 45 ** k for k, d in enumerate(digits))
        if len(group) == 3:
            if n > 0xFFFF:
                raise ValueError("the Base45 group %r is larger than two bytes" % group)
            out += bytes((n >> 8, n & 0xFF))
        else:
            if n > 0xFF:
                raise ValueError("the Base45 group %r is larger than a byte" % group)
            out.append(n)
    return bytes(out)


class Chunk:
    """One code that passed its checks."""

    def __init__(self, run_id, number, total, flags, text, source):
        self.run_id = run_id
        self.number = number
        self.total = total
        self.flags = flags
        self.text = text          # the chunk's plain text
        self.source = source      # the picture it came from


def parse_code(text, source="-"):
    """A Chunk, or ValueError saying why the text is not an intact code of a run."""
    if not text.startswith(PREFIX):
        raise ValueError("not a pmu-testkernel code")
    data = base45_decode(text[len(PREFIX):])
    if len(data) < HEADER_LEN:
        raise ValueError("a code of %d bytes, shorter than its header" % len(data))
    run_id = int.from_bytes(data[0:4], "little")
    number, total, flags = data[4], data[5], data[6]
    crc = int.from_bytes(data[7:11], "little")
    if zlib.crc32(data[11:], zlib.crc32(data[:7])) & 0xFFFFFFFF != crc:
        raise ValueError("its CRC does not match (a misread code)")
    if not 1 <= number <= total:
        raise ValueError("number %d of %d" % (number, total))
    try:
        plain = zlib.decompress(data[11:], -15)
    except zlib.error as e:
        raise ValueError("its deflated text does not inflate: %s" % e) from None
    return Chunk(run_id, number, total, flags, plain.decode("utf-8", "replace"), source)


def zbar_available():
    return shutil.which(ZBARIMG) is not None


def codes_in(path):
    """The texts of the QR codes zbar finds in one picture (PNG, JPEG, ...)."""
    if not os.path.isfile(path):
        raise PhotoError("%s: no such file" % path)
    run = subprocess.run([ZBARIMG, "--nodbus", "--raw", "-q", "-Sdisable", "-Sqrcode.enable",
                          path], capture_output=True, timeout=300)
    # zbarimg: 0 found some, 4 found none; anything else is a picture it could not read.
    if run.returncode not in (0, 4):
        reason = run.stderr.decode("utf-8", "replace").strip().splitlines()
        raise PhotoError("%s: zbarimg cannot read it (%s)" % (
            path, reason[-1] if reason else "status %d" % run.returncode))
    return [t for t in run.stdout.decode("utf-8", "replace").split("\n") if t]


def plural_numbers(numbers):
    """[4] -> "4", [4, 7] -> "4 and 7", [2, 4, 7] -> "2, 4 and 7"."""
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


class Assembly:
    """The codes found, the run they belong to, what is missing, and the rebuilt log."""

    def __init__(self):
        self.pictures = 0
        self.codes_seen = 0       # every code zbar read, duplicates and strangers included
        self.chunks = {}          # number -> Chunk, of the run chosen
        self.run_id = None
        self.total = None
        self.flags = 0
        self.problems = []        # codes that failed their checks, other runs, conflicts
        self.empty = []           # pictures without any code
        self.notes = []           # what the kernel says the codes leave out
        self.log = ""

    def missing(self):
        return [n for n in range(1, (self.total or 0) + 1) if n not in self.chunks]

    def summary(self):
        """The photo check, in lines, as pmu-report prints it before the log check."""
        out = ["Photos: %d picture(s), %d code(s) read" % (self.pictures, self.codes_seen)]
        if self.run_id is None:
            out.append("  no code of a pmu-testkernel run was found")
        else:
            out.append("  run %08x: %d of %d codes%s" % (
                self.run_id, len(self.chunks), self.total,
                " (the kernel left records out to fit the screen)"
                if self.flags & FLAG_LEFT_OUT else ""))
        missing = self.missing()
        if missing:
            out.append("  records %s of %d not found: photograph %s again" % (
                plural_numbers(missing), self.total, "it" if len(missing) == 1 else "them"))
        for note in self.notes:
            out.append("  not in the codes: " + note)
        for picture in self.empty:
            out.append("  %s: no QR code found" % picture)
        out.extend("  " + p for p in self.problems)
        return out


def assemble(texts_by_picture):
    """An Assembly from [(picture, [code text, ...]), ...]: the run with the most codes."""
    a = Assembly()
    by_run = {}
    for picture, texts in texts_by_picture:
        a.pictures += 1
        if not texts:
            a.empty.append(picture)
        for text in texts:
            a.codes_seen += 1
            try:
                chunk = parse_code(text, picture)
            except ValueError as e:
                a.problems.append("%s: a code ignored: %s" % (picture, e))
                continue
            by_run.setdefault(chunk.run_id, []).append(chunk)
    if not by_run:
        return a
    a.run_id = max(by_run, key=lambda r: len({c.number for c in by_run[r]}))
    for run_id, chunks in by_run.items():
        if run_id != a.run_id:
            a.problems.append("%d code(s) of another run (%08x) ignored: %s" % (
                len(chunks), run_id, ", ".join(sorted({c.source for c in chunks}))))
    for chunk in by_run[a.run_id]:
        _take(a, chunk)
    a.log = rebuild_log([a.chunks[n] for n in sorted(a.chunks)], a.notes)
    return a


def _take(a, chunk):
    """One chunk of the chosen run; a repeat must say the same."""
    if a.total is None:
        a.total = chunk.total
    a.flags |= chunk.flags
    if chunk.total != a.total:
        a.problems.append("%s: code %d says %d codes, another %d: ignored" % (
            chunk.source, chunk.number, chunk.total, a.total))
        return
    known = a.chunks.get(chunk.number)
    if known is None:
        a.chunks[chunk.number] = chunk
    elif known.text != chunk.text:
        a.problems.append("%s: code %d differs from the one in %s: ignored" % (
            chunk.source, chunk.number, known.source))


MARKER_RE = re.compile(r"@(\d{1,20}) (?=\{)")


def rebuild_log(chunks, notes):
    """The record lines of the chunks, in order, as the serial port carried them."""
    out = []
    for chunk in chunks:
        seq = None
        for line in chunk.text.split("\n"):
            if not line:
                continue
            if line.startswith("#"):
                notes.append(line[1:])
                continue
            m = MARKER_RE.match(line)
            if m:
                seq = int(m.group(1))
                line = line[m.end():]
            elif seq is None:
                continue  # a line without a number to follow: cannot be placed
            else:
                seq += 1
            crc = zlib.crc32(line.encode("utf-8", "surrogateescape")) & 0xFFFFFFFF
            out.append("@%d %08x %s" % (seq, crc, line))
    return "".join(line + "\n" for line in out)


def read_photos(paths):
    """Decode every picture and assemble the log; PhotoError when one cannot be read at all."""
    if not zbar_available():
        raise PhotoError("zbarimg is not installed (Debian's zbar-tools: tools/deps.sh "
                         "installs it)")
    pictures = []
    for path in paths:
        pictures.append((path, codes_in(path)))
    return assemble(pictures)
