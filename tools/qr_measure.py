"""Which pages of QR codes survive a hand-held photo: the measurements behind kernel/qr/plan.c.

    tools/qr-measure [--log LOG] [--screen WxH ...] [--pages N] [--keep DIR]   the kernel's plans
    tools/qr-measure --survey [--log LOG] [--screen WxH ...] [--pages N]     candidate shapes

For each screen size, the pages that the kernel would show for LOG (tools/src/qr-pages draws them
with the kernel's own code) are photographed as tools/qr_photo.py degrades them, and each photo is
read by each decoder alone: zbar; zxing-cpp as pmu-report reads with it (looking again, up to four
times, while a page is incomplete: tools/pmu_photos.py); and zxing-cpp's first look alone, for the
record. A shape survives when every code of the pages measured is read by zbar and by zxing-cpp
from the photos at 8% keystone turned either way (+3 and -3 degrees), and by one of them at least
from each of the others (2% and 5% keystone, the lamp, the small photo), as pmu-report reads with
both. The survey also takes photos beyond the criterion, for the margin: 8% keystone turned 4
degrees either way and 10% keystone turned 3.

Without --survey the kernel's plan of each screen is measured on its first N pages (2 by default)
and the status is 1 when one does not survive. With --survey every shape that fits (each module
size from 4 to 6 pixels, grids of 1x1, 2x1, 3x1 and 2x2, the largest version that fits and the
8 below it) is drawn for LOG; from the fewest pages up, each is measured on its first N pages
(6 by default; a shape that fails is not photographed further) until one survives, and so are
the others of as few pages: the plan of the screen is the one that survives with the fewest pages
(then the most records, where 30 pages cannot hold them all), the largest modules, the fewest codes
a page, the smallest version (the most margin against keystone); the shapes with more pages are
not measured.

The default screens are the table's (kernel/qr/plan.c); LOG is by default build/run/serial.log
(`make run` writes it). docs/qr-codes.md gives the figures this printed when the table was chosen.
"""

import argparse
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

from PIL import Image

import pmu_photos
import qr_photo

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QR_PAGES = os.path.join(TOP, "build", "tools", "qr-pages")
# Each decoder alone: zbar, zxing-cpp as pmu-report uses it, and its first look alone.
DECODERS = ("zbar", "zxing-cpp", "zxing-cpp, one look")
BOTH = DECODERS[:2]


def _photo(keystone, angle):
    def take(image):
        return qr_photo.jpeg(qr_photo.photograph(image, keystone=keystone, angle=angle))
    return take


# The photo every code must survive with both decoders (issue 25), turned either way.
STRICT = {"keystone 8%": _photo(0.08, qr_photo.ANGLE),
          "keystone 8%, turned back": _photo(0.08, -qr_photo.ANGLE)}
# The others: one decoder at least.
LENIENT = {"keystone 2%": qr_photo.DEGRADATIONS["keystone-2"],
           "keystone 5%": qr_photo.DEGRADATIONS["keystone-5"],
           "lamp": qr_photo.DEGRADATIONS["lamp"],
           "small": qr_photo.DEGRADATIONS["small"]}
# The survey's margin, beyond the criterion: for the record.
MARGIN = {"keystone 8%, 4 degrees": _photo(0.08, 4.0),
          "keystone 8%, 4 degrees back": _photo(0.08, -4.0),
          "keystone 10%": _photo(0.10, qr_photo.ANGLE)}
GRIDS = ((1, 1), (2, 1), (3, 1), (2, 2))
# From 4 pixels a module: with 3, a photo of a version 40 code a little blurred no longer decoded
# (issue 19); the survey's photos of smaller codes at 3 pixels do decode, with less margin.
MODULE_PX = (4, 5, 6)
VERSION_MIN = 10  # smaller codes hold too few records (a boot record deflates to 300 bytes)
MADE_RE = re.compile(r"qr: (\d+) codes? on (\d+) pages? of (\d+) records?")


class Shape:
    def __init__(self, version, module_px, columns, rows):
        self.version, self.module_px, self.columns, self.rows = (version, module_px, columns,
                                                                 rows)

    def per_page(self):
        return self.columns * self.rows

    def arg(self):
        return "%d,%d,%d,%d" % (self.version, self.module_px, self.columns, self.rows)

    def __str__(self):
        return "%dx%d of version %d at %d px" % (self.columns, self.rows, self.version,
                                                self.module_px)


def build_qr_pages():
    run = subprocess.run(["make", "-s", "--no-print-directory", "-C", TOP, "build/tools/qr-pages"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError("make build/tools/qr-pages failed:\n" + run.stdout + run.stderr)


def plans():
    """The kernel's table (kernel/qr/plan.c, as qr-pages --plans prints it):
    [(width, height, Shape)]."""
    run = subprocess.run([QR_PAGES, "--plans"], capture_output=True, text=True, check=True)
    rows = [[int(x) for x in line.split()] for line in run.stdout.splitlines()]
    return [(w, h, Shape(*rest)) for w, h, *rest in rows]


def fits(width, height, shape):
    return subprocess.run([QR_PAGES, "--plan", shape.arg(), str(width), str(height), "--fits"],
                          capture_output=True).returncode == 0


def render(log, width, height, folder, shape=None):
    """The pages (PPM files, in order), the codes and the pages of the log on the screen, and the
    records they hold (fewer than the log's when 30 pages are not enough)."""
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        os.unlink(os.path.join(folder, name))
    args = [QR_PAGES] + (["--plan", shape.arg()] if shape else []) + [
        str(width), str(height), log, folder]
    run = subprocess.run(args, capture_output=True, text=True, timeout=600)
    made = MADE_RE.search(run.stdout)
    if run.returncode != 0 or not made:
        raise RuntimeError("qr-pages %s: %s" % (" ".join(args[1:]), run.stderr.strip()))
    pages = sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".ppm"))
    return pages, int(made.group(1)), int(made.group(2)), int(made.group(3))


def read_each(jpeg_bytes, work, decoders=DECODERS):
    """{decoder: the intact codes' numbers} of one photo, each decoder alone."""
    image = Image.open(io.BytesIO(jpeg_bytes)).convert("L")
    path = os.path.join(work, "photo.jpg")
    with open(path, "wb") as f:
        f.write(jpeg_bytes)
    read = {"zbar": lambda: pmu_photos.zbar_texts(path),
            "zxing-cpp": lambda: pmu_photos.zxing_texts(image),
            "zxing-cpp, one look": lambda: pmu_photos.zxing_texts(image, tries=1)}
    texts = {d: read[d]() for d in decoders}
    # Only intact codes count (a misread fails its CRC).
    return {d: {pmu_photos.place_of(t)[1] for t in ts if pmu_photos.place_of(t)}
            for d, ts in texts.items()}


class Result:
    """What the photos of a shape's pages gave: per photo and decoder, codes read of shown; the
    log's codes and pages."""

    def __init__(self, shape, codes, pages, kept=0):
        self.shape, self.codes, self.pages, self.kept = shape, codes, pages, kept
        self.read = {}   # (photo, decoder) -> [read, shown]
        self.measured = False

    def order(self):
        """The survey's order: the fewest pages, the most records (where 30 pages hold the log
        only in part), the largest modules, the fewest codes a page, the smallest version (the
        most margin against keystone)."""
        return (self.pages, -self.kept, -self.shape.module_px, self.shape.per_page(),
                self.shape.version)

    def add(self, photo, decoder, read, shown):
        r = self.read.setdefault((photo, decoder), [0, 0])
        r[0] += read
        r[1] += shown

    def survives(self):
        for name in STRICT:
            if any(self.read[(name, d)][0] < self.read[(name, d)][1] for d in BOTH):
                return False
        for name in LENIENT:
            if max(self.read[(name, d)][0] for d in BOTH) < self.read[(name, BOTH[0])][1]:
                return False
        return True

    def cell(self, name):
        """'4 4 (3) of 4': zbar, zxing-cpp, (its first look, when measured), of the codes
        shown."""
        if (name, DECODERS[0]) not in self.read:
            return ""
        counts = [self.read[(name, d)][0] for d in DECODERS if (name, d) in self.read]
        return "%d %d%s of %d" % (counts[0], counts[1],
                                   " (%d)" % counts[2] if len(counts) > 2 else "",
                                   self.read[(name, DECODERS[0])][1])


def measure(log, width, height, shape, pages_measured, keep=None, margin=False, early=False,
            decoders=DECODERS):
    """A Result: the first pages_measured pages of the log on the screen, each photographed in
    every way, each photo read by each decoder alone; early: no page more once one fails."""
    work = tempfile.mkdtemp(prefix="qr-measure-")
    try:
        pages, codes, page_count, kept = render(log, width, height,
                                                os.path.join(work, "pages"), shape)
        result = Result(shape, codes, page_count, kept)
        photos = dict(STRICT, **LENIENT, **(MARGIN if margin else {}))
        for p, page in enumerate(pages[:pages_measured]):
            shown = min(shape.per_page(), codes - p * shape.per_page())
            image = Image.open(page)
            for name, take in photos.items():
                photo = take(image)
                if keep:
                    os.makedirs(keep, exist_ok=True)
                    with open(os.path.join(keep, "%dx%d-%s-page%d-%s.jpg" % (
                            width, height, shape.arg().replace(",", "-"), p + 1,
                            re.sub(r"[^a-z0-9]+", "-", name))), "wb") as f:
                        f.write(photo)
                for decoder, numbers in read_each(photo, work, decoders).items():
                    result.add(name, decoder, len(numbers), shown)
            if early and not result.survives():
                break
        result.measured = True
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def candidates(width, height):
    """Every shape of GRIDS and MODULE_PX that fits the screen: its largest version and the 8
    below it."""
    out = []
    for module_px in MODULE_PX:
        for columns, rows in GRIDS:
            largest = next((v for v in range(40, VERSION_MIN - 1, -1)
                            if fits(width, height, Shape(v, module_px, columns, rows))), 0)
            out += [Shape(v, module_px, columns, rows) for v in range(largest, largest - 9, -1)
                    if v >= VERSION_MIN]
    return out


def header(margin=False):
    names = list(STRICT) + list(LENIENT) + (list(MARGIN) if margin else [])
    top = "| screen | shape | codes | pages | " + " | ".join(names) + " | survives |"
    return [top, "|" + " --- |" * (top.count("|") - 1)]


def row(width, height, result, mark="", margin=False):
    names = list(STRICT) + list(LENIENT) + (list(MARGIN) if margin else [])
    verdict = ("yes" if result.survives() else "no") if result.measured else "not measured"
    return "| %dx%d | %s%s | %d | %d | %s | %s |" % (
        width, height, result.shape, mark, result.codes, result.pages,
        " | ".join(result.cell(n) for n in names), verdict)


def survey(log, width, height, pages_measured, keep, planned):
    """The candidates of a screen from the fewest pages up, measured until the best is known;
    prints a row each; returns the best Result or None."""
    drawn, work = [], tempfile.mkdtemp(prefix="qr-survey-")
    try:
        for shape in candidates(width, height):
            try:
                _, codes, pages, kept = render(log, width, height, work, shape)
            except RuntimeError as e:
                print("qr-measure: %s" % e, file=sys.stderr)
                continue
            drawn.append(Result(shape, codes, pages, kept))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    drawn.sort(key=Result.order)
    best = None
    for r in drawn:
        if best is None or r.order()[:2] == best.order()[:2]:
            r = measure(log, width, height, r.shape, pages_measured, keep, margin=True,
                        early=True)
            if best is None and r.survives():
                best = r
        mark = " (the kernel's)" if planned and r.shape.arg() == planned.arg() else ""
        mark += " **best**" if r is best else ""
        print(row(width, height, r, mark, margin=True), flush=True)
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", default=os.path.join(TOP, "build", "run", "serial.log"))
    parser.add_argument("--screen", action="append", metavar="WxH",
                        help="a screen size (default: the table's)")
    parser.add_argument("--pages", type=int, help="pages photographed a shape (2; 6 surveyed)")
    parser.add_argument("--survey", action="store_true", help="measure the candidate shapes")
    parser.add_argument("--keep", metavar="DIR", help="keep the photos in DIR")
    args = parser.parse_args(argv)
    if not os.path.isfile(args.log):
        print("qr-measure: %s: no such log (make run writes build/run/serial.log)" % args.log,
              file=sys.stderr)
        return 2
    if not (pmu_photos.zxing_available() and pmu_photos.zbar_available()):
        print("qr-measure: needs both zxing-cpp and zbar (tools/deps.sh installs them)",
              file=sys.stderr)
        return 2
    build_qr_pages()
    table = plans()
    screens = ([tuple(int(x) for x in s.split("x")) for s in args.screen] if args.screen
               else [(w, h) for w, h, _ in table])
    failed = False
    print("\n".join(header(margin=args.survey)), flush=True)
    for width, height in screens:
        planned = next((s for w, h, s in table if (w, h) == (width, height)), None)
        if args.survey:
            survey(args.log, width, height, args.pages or 6, args.keep, planned)
            continue
        if planned is None:
            print("qr-measure: no plan of the kernel's for %dx%d" % (width, height),
                  file=sys.stderr)
            failed = True
            continue
        r = measure(args.log, width, height, planned, args.pages or 2, args.keep,
                    decoders=BOTH)
        print(row(width, height, r), flush=True)
        failed = failed or not r.survives()
    return 1 if failed else 0
