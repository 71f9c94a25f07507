"""The kernel's pages of QR codes, drawn on the host by the kernel's own code (tools/src/qr-pages),
read back as people take them (issue 25): every plan of the screens' table (kernel/qr/plan.c)
survives the photos tools/qr-measure takes of its pages (each decoder alone at 8% keystone turned
either way; one of them at least in the lamp, the small photo, 2% and 5%); a video of the pages
gives the log back record for record; pmu_photos reads with zxing-cpp and falls back to zbar, and
with either alone. The QEMU cases (tests/qemu/cases_qr.py) do the same with the screendumps of
real runs."""

import os
import unittest

from PIL import Image

from reporttest import TempDirCase
import logfixture
import pmu_photos
import qr_measure
import qr_photo

NEEDED = pmu_photos.zxing_available() and pmu_photos.zbar_available() and \
    qr_photo.ffmpeg_available()


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
