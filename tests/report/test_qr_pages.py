"""The kernel's pages of QR codes, drawn on the host by the kernel's own code (tools/src/qr-pages),
read back as people take them (issue 25): every plan of the screens' table (kernel/qr/plan.c)
survives the photos tools/qr-measure takes of its pages (each decoder alone at 8% keystone turned
either way; one of them at least in the lamp, the small photo, 2% and 5%); a video of the pages
gives the log back record for record; pmu_photos reads with zxing-cpp and falls back to zbar, and
with either alone; docs/qr-codes.md's table of pages per screen size is the kernel's table, its
measured ranges of pages follow from its ranges of codes, and 1280x800 takes no more than issue
19's 11 pages. The QEMU cases (tests/qemu/cases_qr.py) do the same with the screendumps of real
runs."""

import math
import os
import re
import unittest

from PIL import Image

from reporttest import TempDirCase
import logfixture
import pmu_photos
import qr_measure
import qr_photo

NEEDED = pmu_photos.zxing_available() and pmu_photos.zbar_available() and \
    qr_photo.ffmpeg_available()


DOC = os.path.join(qr_measure.TOP, "docs", "qr-codes.md")
PAGES_MAX = 30              # kernel/qr/plan.h, QR_PAGES_MAX: more, and the priority cut
ISSUE_19_PAGES = 11         # issue 25: the default suite at 1280x800 on no more pages than this
ROW_RE = re.compile(r"^\| (\d+)x(\d+) \| (\d+) \| (\d+) \| (\d+) pixels \| (\d+)(?:-(\d+))? codes, "
                    r"(\d+)(?:-(\d+))? pages[,( ]")


def range_of(low, high):
    return int(low), int(high or low)


class PlanTableInDocs(TempDirCase):
    """docs/qr-codes.md's table of pages per screen size against the kernel's plans: the same
    screens and shapes, in order; each measured range of pages follows from its range of codes;
    the default suite at 1280x800 on no more pages than issue 19's codes took."""

    @classmethod
    def setUpClass(cls):
        qr_measure.build_qr_pages()

    def rows(self):
        with open(DOC) as f:
            text = f.read()
        table = text[text.index("## Pages per screen size"):text.index("## Filming")]
        return [ROW_RE.match(line) for line in table.splitlines()
                if re.match(r"^\| \d+x\d+ \|", line)]

    def test_the_table_is_the_kernels(self):
        rows = self.rows()
        self.assertNotIn(None, rows, "a row of the table that this test cannot read")
        self.assertEqual([tuple(int(m.group(i)) for i in range(1, 6)) for m in rows],
                         [(w, h, s.per_page(), s.version, s.module_px)
                          for w, h, s in qr_measure.plans()])

    def test_pages_follow_from_codes(self):
        for m in self.rows():
            screen, per_page = "%sx%s" % m.group(1, 2), int(m.group(3))
            codes, pages = range_of(*m.group(6, 7)), range_of(*m.group(8, 9))
            self.assertLessEqual(codes[0], codes[1], screen)
            self.assertEqual(pages, tuple(min(PAGES_MAX, math.ceil(c / per_page))
                                          for c in codes), screen)
            if screen == "1280x800":
                self.assertLessEqual(pages[1], ISSUE_19_PAGES)


def log_lines(log):
    return "".join(line.text + "\n" for line in log.lines if line.seq is not None)


@unittest.skipUnless(NEEDED, "needs zxing-cpp, zbar and ffmpeg (tools/deps.sh installs them)")
class Pages(TempDirCase):
    @classmethod
    def setUpClass(cls):
        qr_measure.build_qr_pages()

    def suite_log(self):
        """A log of the suite's size (411 records, 140 KB): every plan fills 2 pages."""
        log = logfixture.extended_suite(repeat=10)
        return log, self.write_log(log)

    def test_every_plan_survives_the_photos(self):
        log, path = self.suite_log()
        failed = []
        for width, height, shape in qr_measure.plans():
            result = qr_measure.measure(path, width, height, shape, 1,
                                        decoders=qr_measure.BOTH)
            self.assertGreaterEqual(result.pages, 2)  # the page measured is full
            if not result.survives():
                failed.append(qr_measure.row(width, height, result))
        self.assertEqual(failed, [], "\n".join(qr_measure.header() + failed))

    def test_a_video_of_the_pages_gives_the_log(self):
        log, path = self.suite_log()
        pages, codes, count, _ = qr_measure.render(path, 1280, 800,
                                                   os.path.join(self.tmp, "pages"))
        self.assertEqual(len(pages), count)
        video = qr_photo.write_video(pages, os.path.join(self.tmp, "pages.mp4"))
        a = pmu_photos.read_photos([video])
        self.assertEqual(a.missing(), [], a.summary())
        self.assertEqual(a.log, log_lines(log))
        self.assertEqual(a.videos[0][2], codes)
        self.assertIn("Photos: 0 pictures, 1 video, %d codes read" % codes, a.summary())
        # Its pages alone, a page left out: the codes of that page are named with it.
        a = pmu_photos.read_photos(pages[:1] + pages[2:])
        per_page = pmu_photos.parse_code(pmu_photos.codes_in(pages[0])[0]).per_page
        numbers = list(range(per_page + 1, min(2 * per_page, codes) + 1))
        self.assertEqual(a.missing(), numbers)
        self.assertIn("(page 2 of %d) not found" % count, "\n".join(a.summary()))

    def test_zxing_first_zbar_where_a_page_is_incomplete(self):
        log, path = self.suite_log()
        pages, codes, count, _ = qr_measure.render(path, 1280, 800,
                                                   os.path.join(self.tmp, "pages"))
        photo = os.path.join(self.tmp, "photo.jpg")
        with Image.open(pages[0]) as page, open(photo, "wb") as f:
            f.write(qr_photo.DEGRADATIONS["keystone-5"](page))
        both = set(pmu_photos.codes_in(photo))
        self.assertEqual(len(both), 2)
        real, original_zbar = pmu_photos.zxing_texts, pmu_photos.zbar_texts
        calls = []
        try:
            # zxing-cpp reading one code of two: zbar is asked, and gives the page whole.
            pmu_photos.zxing_texts = lambda image: real(image)[:1]
            pmu_photos.zbar_texts = lambda p: calls.append(p) or original_zbar(p)
            self.assertEqual(set(pmu_photos.codes_in(photo)), both)
            self.assertEqual(calls, [photo])
            # zxing-cpp reading the page whole: zbar is not asked.
            pmu_photos.zxing_texts = real
            self.assertEqual(set(pmu_photos.codes_in(photo)), both)
            self.assertEqual(calls, [photo])
        finally:
            pmu_photos.zxing_texts = real
            pmu_photos.zbar_texts = original_zbar

    def test_either_decoder_alone(self):
        log, path = self.suite_log()
        pages, codes, count, _ = qr_measure.render(path, 1024, 768,
                                                   os.path.join(self.tmp, "pages"))
        zxing, zbar = pmu_photos.zxing_available, pmu_photos.zbar_available
        try:
            for name, alone in (("zbar", (lambda: False, zbar)), ("zxing-cpp", (zxing, lambda:
                                                                               False))):
                pmu_photos.zxing_available, pmu_photos.zbar_available = alone
                a = pmu_photos.read_photos(pages)
                self.assertEqual(a.log, log_lines(log), "%s alone" % name)
            pmu_photos.zxing_available = pmu_photos.zbar_available = lambda: False
            with self.assertRaisesRegex(pmu_photos.PhotoError, "neither zxing-cpp nor zbar"):
                pmu_photos.read_photos(pages)
        finally:
            pmu_photos.zxing_available, pmu_photos.zbar_available = zxing, zbar
