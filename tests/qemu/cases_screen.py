"""The screen (issue 13): what a person without a serial cable sees at the end of a run. Each case
boots to the end with exit=halt, takes QEMU's screendump and has Debian's tesseract read it: the
verdict in the banner of large type at the bottom (found by its band: green for a pass, red for a
failure; under QEMU the model PMU measures, and the banner says MODEL with the verdict, issue 16,
a pass on blue, issue 24: nothing was measured), and in the
text above it the summary table and the RUN line. Under OVMF through GRUB (multiboot2
framebuffer) and through the native loader (GOP framebuffer), under SeaBIOS through GRUB (a VBE
framebuffer), and with qemu -kernel (multiboot1, VGA text: the status line says, in full, that
QR codes need GRUB's framebuffer). The screenshots stay in
$BUILD/test-logs/screen-*.png.
"""

import os
import re
import shutil
import subprocess

from PIL import Image, ImageFilter, ImageOps

from qemu_boot import PAIR
from tests.qemu.cases_uefi import efi_image_with_cmdline
from tests.qemu.driver import Case

# Short runs: one experiment (two verdicts), 100 ms per measurement.
EXPERIMENT = "ch4-lbr-inserts"
CMDLINE = "exp=%s dur_ms=100" % EXPERIMENT
# GRUB's command line ('c'), typed in as GRUB shows its menu: the ISO's menu entries run the
# whole suite, too long here. gfxpayload and the video drivers come from grub.cfg all the same.
GRUB_COMMAND = b"cmultiboot2 /boot/pmu-testkernel.elf " + CMDLINE.encode() + b"\rboot\r"
# The banner's letters are about 90 pixels high, the text's 16: tesseract reads them best at
# about 30, a third of the one and three times the other.
BANNER_OCR_SHRINK = 3
BANNER_STROKE_GROW = 5
TEXT_OCR_GROW = 3


def tesseract(path, page_mode):
    if not shutil.which("tesseract"):
        raise AssertionError("tesseract is not installed (tools/deps.sh installs tesseract-ocr)")
    run = subprocess.run(["tesseract", path, "-", "--psm", str(page_mode)],
                         capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, OMP_THREAD_LIMIT="1"))
    if run.returncode != 0:
        raise AssertionError("tesseract failed on %s: %s" % (path, run.stderr.strip()[-500:]))
    return run.stdout


def band_colour(pixel):
    """The banner's green (a pass), red (a failure) or blue (a pass that measured nothing: the
    model PMU, no PMU), as the VGA palette has them; else None."""
    red, green, blue = pixel[:3]
    if green >= 0x80 and red < 0x40 and blue < 0x40:
        return "green"
    if red >= 0x80 and green < 0x40 and blue < 0x40:
        return "red"
    if blue >= 0x80 and red < 0x40 and green < 0x40:
        return "blue"
    return None


def find_band(image):
    """The rows of the banner: the lowest run of rows coloured at both edges of the screen (text
    lines in red never reach both). (colour, top, bottom) or None."""
    width, height = image.size
    pixels = image.load()
    rows = [y for y in range(height)
            if band_colour(pixels[2, y]) and
            band_colour(pixels[2, y]) == band_colour(pixels[width - 3, y])]
    if not rows:
        return None
    bottom = rows[-1]
    top = bottom
    while top - 1 in rows:
        top -= 1
    return band_colour(pixels[2, bottom]), top, bottom


def read_screen(result):
    """The screenshot as PNG (kept beside the log), what tesseract reads in the text and in the
    banner, and the banner's colour. Read once per case."""
    if hasattr(result, "screen"):
        return result.screen
    assert result.screendump, result.screendump_error or "no screenshot"
    png = os.path.splitext(result.screendump)[0] + ".png"
    image = Image.open(result.screendump).convert("RGB")
    image.save(png)
    os.unlink(result.screendump)
    band = find_band(image)
    text_bottom = band[1] if band else image.size[1]
    text_path = os.path.splitext(png)[0] + "-text.png"
    text = ImageOps.invert(image.crop((0, 0, image.size[0], text_bottom)).convert("L"))
    text.resize((text.size[0] * TEXT_OCR_GROW, text.size[1] * TEXT_OCR_GROW),
                Image.BICUBIC).save(text_path)
    screen = {"png": png, "text": tesseract(text_path, 6), "banner": "", "colour": None}
    os.unlink(text_path)
    if band:
        colour, top, bottom = band
        # White letters on the band: dark on light for tesseract, then down to its size.
        crop = ImageOps.invert(image.crop((0, top, image.size[0], bottom + 1)).convert("L"))
        crop = crop.point(lambda v: 0 if v < 128 else 255)
        # Strokes a pixel or two wider: scaled down, OVMF's 1280x800 banner (143 rows) lost
        # the thin joints of its D, and tesseract read 'MOGEL'.
        crop = crop.filter(ImageFilter.MinFilter(BANNER_STROKE_GROW))
        crop = crop.resize((crop.size[0] // BANNER_OCR_SHRINK,
                            max(1, crop.size[1] // BANNER_OCR_SHRINK)), Image.LANCZOS)
        banner_path = os.path.splitext(png)[0] + "-banner.png"
        crop.save(banner_path)
        screen["banner"] = tesseract(banner_path, 7).strip()
        screen["colour"] = colour
        os.unlink(banner_path)
    result.screen = screen
    return screen


# ---- checks -------------------------------------------------------------------------------------

def screen_is(kind):
    """The boot record's console.screen: "framebuffer WxHxD" or "vga-text 80x25"."""
    def check(result, stream):
        screen = stream.boot["console"].get("screen") or ""
        assert screen.startswith(kind), "console.screen %r, expected %s" % (screen, kind)
    return check


def banner_reads(word, colour):
    def check(result, stream):
        screen = read_screen(result)
        assert screen["colour"] == colour, "banner colour %r, expected %s (%s)" % (
            screen["colour"], colour, screen["png"])
        assert screen["banner"] == word, "the banner reads %r, expected %r (%s)" % (
            screen["banner"], word, screen["png"])
    return check


# What tesseract confuses in these fonts: case, I/l/1/|, O/0/@, spaces inside words and stray
# punctuation. Text is compared with all of that folded away.
OCR_FOLD = str.maketrans("il1|o0@", "llllooo")


def squeeze(text):
    return re.sub(r"[^a-z0-9]", "", text.lower().translate(OCR_FOLD))


def text_reads(*phrases):
    """Phrases, each a run of words, that the text above the banner must show, as tesseract
    reads it (compared squeezed, above)."""
    def check(result, stream):
        screen = read_screen(result)
        for phrase in phrases:
            assert squeeze(phrase) in squeeze(screen["text"]), \
                "%r is not on the screen (%s); tesseract read:\n%s" % (
                    phrase, screen["png"], screen["text"][-1500:])
    return check


def summary_read(result, stream):
    """The summary table on the screen: its title, and a row per experiment whose cells, one per
    XSU mode, give the result and scheduler of its verdict records; then the RUN line."""
    verdicts = stream.of_type("verdict")
    assert verdicts, "no verdict records: nothing to summarise"
    cells = {}
    for v in verdicts:
        cells.setdefault(v["exp"], {})[v["xsu"]] = "%s %s" % (v["result"].upper(), v["sched"])
    columns = [m for m in ("off", "on", "core") if any(m in c for c in cells.values())]
    rows = ["%s %s" % (exp, " ".join(modes.get(m, "-") for m in columns))
            for exp, modes in cells.items()]
    # (Not the words "XSU": tesseract reads that X in 8x16 Terminus as K, * or M now and then.)
    text_reads("summary: the verdict of each experiment", *rows, "RUN PASSED")(result, stream)


FAULT_READ = text_reads("RUN FAILED: #PF page fault")
# VGA text has no room for QR codes: the status line says so in full (docs/qr-codes.md), after the
# verdict (it was cut off at 80 columns: "... nothing measured) | QR codes n").
QR_NEED_READ = text_reads("run over: PASS (model PMU: nothing measured) | QR codes need GRUB's "
                          "framebuffer")


# ---- the cases ----------------------------------------------------------------------------------

CASES = [
    Case("screen/ovmf-iso", way="ovmf-cd", image="iso", smp=PAIR, timeout=120, screendump=True,
         menu_key=GRUB_COMMAND,
         describe="OVMF, GRUB from the ISO: the multiboot2 framebuffer (GOP mode kept)",
         checks=[screen_is("framebuffer"), banner_reads("MODEL PASS", "blue"), summary_read]),
    Case("screen/ovmf-efi", way="ovmf-usb", smp=PAIR, timeout=120, screendump=True,
         image=efi_image_with_cmdline("screen", CMDLINE.encode() + b"\n"),
         describe="OVMF, the native loader from the FAT image: the GOP framebuffer",
         checks=[screen_is("framebuffer"), banner_reads("MODEL PASS", "blue"), summary_read]),
    Case("screen/seabios-iso", way="seabios-cd", image="iso", smp=PAIR, timeout=120,
         screendump=True, menu_key=GRUB_COMMAND,
         describe="SeaBIOS, GRUB from the ISO: the framebuffer GRUB sets through VBE",
         checks=[screen_is("framebuffer"), banner_reads("MODEL PASS", "blue"), summary_read]),
    Case("screen/kernel", smp=PAIR, cmdline=CMDLINE, experiments=True, timeout=60,
         screendump=True, describe="qemu -kernel (multiboot1): the VGA text screen",
         checks=[screen_is("vga-text 80x25"), banner_reads("MODEL PASS", "blue"), summary_read,
                 QR_NEED_READ]),
    Case("screen/kernel-fault", cmdline="selftest=fault", verdict="fail", timeout=60,
         screendump=True, describe="qemu -kernel, an exception: FAIL in red on VGA text",
         checks=[screen_is("vga-text 80x25"), banner_reads("MODEL FAIL", "red"), FAULT_READ]),
    Case("screen/ovmf-efi-fault", way="ovmf-usb", smp=PAIR, timeout=120, screendump=True,
         verdict="fail", image=efi_image_with_cmdline("screen-fault",
                                                      b"exp=none selftest=fault\n"),
         describe="OVMF, the native loader, an exception: FAIL in red on the framebuffer",
         checks=[screen_is("framebuffer"), banner_reads("MODEL FAIL", "red"), FAULT_READ]),
]
