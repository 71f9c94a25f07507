"""The end-of-run screen's QR codes (issue 19): the whole log off the machine without a serial
cable. Each case boots a framebuffer way to the end with exit=halt, keeps a screendump of every
page of QR codes (tools/qemu_photos.py) in $BUILD/test-logs/qr-<name>-photos/, and checks that
the codes read back (tools/pmu_photos.py, zbar) give exactly the serial log's records, and that
pmu-report --from-photos prints the verdict table that pmu-report prints from the serial log.
The default suite's case also checks its number of codes, photos made worse as a phone makes them,
and a set of photos with two codes missing.
"""

import os
import re
import shutil
import subprocess

from PIL import Image, ImageFilter

import pmu_photos
from qemu_boot import PAIR
from tests.qemu.cases_uefi import efi_image_with_cmdline
from tests.qemu.driver import Case

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PMU_REPORT = os.path.join(TOP, "tools", "pmu-report")
QR_MS = 2000  # each page 2 s: the screendumps wait on the kernel's lines, not on the time
SHORT = "exp=ch4-lbr-inserts dur_ms=100 qr_ms=%d" % QR_MS
SUITE = "qr_ms=%d" % QR_MS  # the default suite, as `make run` and the ISO's first entry run it
SUITE_CODES_MAX = 12        # issue 19: the default suite's log in at most 12 codes
MISSING = (4, 7)            # the codes left out of the photos in the missing-codes check


def grub_command(cmdline):
    """GRUB's command line ('c'), typed in as GRUB shows its menu (as tests/qemu/cases_screen)."""
    return b"cmultiboot2 /boot/pmu-testkernel.elf " + cmdline.encode() + b"\rboot\r"


def serial_records(result):
    """The serial log's record lines, as pmu_photos rebuilds them."""
    return "".join(line.rstrip("\r") + "\n" for line in result.log.split("\n")
                   if re.match(r"@\d+ [0-9a-f]{8} \{", line.rstrip("\r")))


def photos_of(result):
    photos = result.photos
    assert photos is not None, "no pages: the kernel did not halt"
    assert not photos.error, "pages of QR codes: %s (%d of %s taken)" % (
        photos.error, len(photos.files), photos.total)
    assert photos.files and len(photos.files) == photos.total, "%d of %s pages" % (
        len(photos.files), photos.total)
    return photos


def work_dir(photos):
    """A folder beside the pages for the checks' own files (the pages' folder stays pages only,
    as a person would pass it to pmu-report)."""
    path = os.path.dirname(photos.files[0]) + "-report"
    os.makedirs(path, exist_ok=True)
    return path


def pmu_report(folder, *args):
    """pmu-report's exit status and what it prints (no plots: CSV files only)."""
    run = subprocess.run(["/usr/bin/python3", PMU_REPORT, "--quiet", "--csv", "--out",
                          os.path.join(folder, "results")] + list(args),
                         capture_output=True, text=True, timeout=600)
    return run.returncode, run.stdout + run.stderr


def from_summary(text):
    """The report from its Summary on: the verdict table and the overall result."""
    start = text.find("\nSummary\n")
    assert start >= 0, "no Summary in the report:\n" + text[-2000:]
    return text[start:]


def codes_read_back(result, stream):
    """The pages decode to the serial log's records, every one, byte for byte."""
    photos = photos_of(result)
    assembly = pmu_photos.read_photos(photos.files)
    assert not assembly.missing(), assembly.summary()
    assert not assembly.problems, assembly.summary()
    want = serial_records(result)
    assert assembly.log == want, "the codes give %d record lines, the serial log %d" % (
        assembly.log.count("\n"), want.count("\n"))


def same_verdict_table(result, stream):
    photos = photos_of(result)
    work = work_dir(photos)
    log = os.path.join(work, "serial.log")
    with open(log, "w") as f:
        f.write(result.log)
    status_serial, serial = pmu_report(work, log)
    status_photos, from_photos = pmu_report(work, "--from-photos", *photos.files)
    assert status_photos == status_serial, "exit status %d from the photos, %d from the " \
        "serial log:\n%s" % (status_photos, status_serial, from_photos[-3000:])
    assert from_summary(from_photos) == from_summary(serial), \
        "the verdict tables differ:\n--- serial\n%s\n--- photos\n%s" % (
            from_summary(serial), from_summary(from_photos))


def suite_codes_at_most(limit):
    def check(result, stream):
        photos = photos_of(result)
        assert photos.total <= limit, "the default suite's %d records took %d codes, more " \
            "than %d" % (len(stream.records), photos.total, limit)
    return check


def degrade(source, target):
    """A phone's photo of a screendump: 150% larger, blurred (sigma 1.5), turned 4 degrees,
    JPEG of quality 60."""
    image = Image.open(source).convert("RGB")
    image = image.resize((image.size[0] * 3 // 2, image.size[1] * 3 // 2), Image.BICUBIC)
    image = image.filter(ImageFilter.GaussianBlur(1.5))
    image = image.rotate(4, resample=Image.BICUBIC, expand=True, fillcolor=(255, 255, 255))
    image.save(target, quality=60)


def degraded_read_back(result, stream):
    photos = photos_of(result)
    directory = os.path.dirname(photos.files[0]) + "-degraded"
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    copies = []
    for path in photos.files:
        copies.append(os.path.join(directory, os.path.basename(path)[:-4] + ".jpg"))
        degrade(path, copies[-1])
    assembly = pmu_photos.read_photos(copies)
    assert not assembly.missing(), "of the degraded photos: %s" % "; ".join(assembly.summary())
    assert assembly.log == serial_records(result), "the degraded photos give other records"


def several_on_one_photo(result, stream):
    """Four pages on one picture (2 by 2), the others alone, one of them twice: every record."""
    photos = photos_of(result)
    assert photos.total >= 5, "only %d codes" % photos.total
    pages = [Image.open(p).convert("RGB") for p in photos.files[:4]]
    width, height = pages[0].size
    sheet = Image.new("RGB", (2 * width, 2 * height), (255, 255, 255))
    for i, page in enumerate(pages):
        sheet.paste(page, ((i % 2) * width, (i // 2) * height))
    path = os.path.join(work_dir(photos), "four-pages.png")
    sheet.save(path)
    assembly = pmu_photos.read_photos([path] + photos.files[4:] + photos.files[-1:])
    assert assembly.codes_seen == photos.total + 1, "; ".join(assembly.summary())
    assert not assembly.missing() and not assembly.problems, "; ".join(assembly.summary())
    assert assembly.log == serial_records(result), "four pages on a photo give other records"


def two_missing_named(result, stream):
    """Without two of the photos, the report names both codes, the records they held as lost,
    and reports the rest."""
    photos = photos_of(result)
    assert photos.total >= max(MISSING), "only %d codes" % photos.total
    gone = [p for p in photos.files
            if int(os.path.basename(p).split("-")[1]) in MISSING]
    kept = [p for p in photos.files if p not in gone]
    status, text = pmu_report(work_dir(photos), "--from-photos", *kept)
    words = "records %d and %d of %d not found: photograph them again" % (
        MISSING[0], MISSING[1], photos.total)
    assert words in text, "%r is not in the report:\n%s" % (words, text[:3000])
    assert status == 3, "exit status %d, expected 3 (a damaged log)" % status
    # The records of the two codes are named lost, as for a damaged serial log.
    for path in gone:
        chunk = pmu_photos.assemble([(path, pmu_photos.codes_in(path))])
        seqs = [int(line[1:].split(" ", 1)[0]) for line in chunk.log.splitlines()]
        span = "@%d-@%d" % (seqs[0], seqs[-1])
        assert span in text, "the records %s of a missing code are not named:\n%s" % (
            span, text[:3000])
    rows = re.findall(r"\n  ([a-z0-9-]+) +(?:pass|fail|skip) ", from_summary(text))
    assert rows, "the rest is not reported:\n" + text[-3000:]


def no_qr_lines(result, stream):
    assert "qr: " not in result.log, "the kernel made codes with qr=off"
    assert "halted: the run is over; power off or reset the machine" in result.log


def says_codes_need_framebuffer(result, stream):
    assert "qr: no QR codes of the records: VGA text cannot show them; the stick's GRUB " \
        "entries give a framebuffer that can" in result.log, \
        "VGA text: the kernel did not say that the codes need a framebuffer"


READ_BACK = [codes_read_back, same_verdict_table]
# verdict=None: these cases are about the codes, which must give back a failed run's records as
# well; a verdict that a busy host turns (a thread that ran in bursts) is not theirs to judge.

CASES = [
    # Alone: the suite's records (warnings, skip reasons) and so its codes grow on a busy host.
    Case("qr/ovmf-iso-suite", way="ovmf-cd", image="iso", smp=PAIR, timeout=900, photos=True,
         menu_key=grub_command(SUITE), verdict=None, exclusive=True,
         describe="OVMF, GRUB from the ISO, the default suite: its records as QR codes",
         checks=READ_BACK + [suite_codes_at_most(SUITE_CODES_MAX), degraded_read_back,
                             several_on_one_photo, two_missing_named]),
    Case("qr/ovmf-efi", way="ovmf-usb", smp=PAIR, timeout=300, photos=True, verdict=None,
         image=efi_image_with_cmdline("qr", SHORT.encode() + b"\n"),
         describe="OVMF, the native loader's GOP framebuffer", checks=READ_BACK),
    Case("qr/seabios-iso", way="seabios-cd", image="iso", smp=PAIR, timeout=300, photos=True,
         menu_key=grub_command(SHORT), verdict=None,
         describe="SeaBIOS, GRUB from the ISO: a VBE framebuffer", checks=READ_BACK),
    Case("qr/off", way="ovmf-usb", smp=PAIR, timeout=120,
         image=efi_image_with_cmdline("qr-off", b"exp=none qr=off\n"),
         describe="qr=off: the summary alone, as before", checks=[no_qr_lines]),
    Case("qr/vga-text", cmdline="qr=on", timeout=60,
         describe="qemu -kernel: VGA text, where the kernel says the codes need a framebuffer",
         checks=[says_codes_need_framebuffer]),
]
