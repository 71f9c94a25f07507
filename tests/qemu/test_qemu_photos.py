"""The screendumps of the pages of QR codes (tools/qemu_photos.py), on the kernel's serial lines as
kernel/end_screen.c prints them: a page is taken on its "on the screen" line and kept only when
its "off the screen" line had not come once QEMU wrote it; a page that changed meanwhile is taken
again on the next round; the codes and pages come from the kernel's line about them."""

import os
import shutil
import tempfile
import time
import unittest

import qemu_photos

MADE = (b"qr: 5 codes on 3 pages of 409 records (numbers 0 to 408) made in 1940 ms: run "
        b"49cd83d5, 2 a page, version 26 or less at 4 pixels a module, 1012 deflated bytes a "
        b"code, 52 compressions\r\n")


def on(n):
    return b"qr: page %d of 3 on the screen\r\n" % n


def off(n):
    return b"qr: page %d of 3 off the screen\r\n" % n


class Capture(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="qemu-photos-test-")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def capture(self, chunks, late=()):
        """capture() over the console output in chunks, one a waiting read (a read that does not
        wait finds nothing new, as the kernel prints a page's off line qr_ms later); a screendump
        of a page in late finds the page's off line already in (the page changed meanwhile),
        once."""
        data = bytearray()
        pending = list(chunks)
        late = set(late)

        def read_more(seconds):
            if not seconds:
                return True
            if not pending:
                return False
            data.extend(pending.pop(0))
            return True

        def screendump(path):
            number = int(os.path.basename(path).split("-")[1])
            with open(path, "wb") as f:
                f.write(b"P6\n1 1\n255\n\0\0\0")
            if number in late:
                late.discard(number)
                data.extend(off(number))

        return qemu_photos.capture(read_more, data, screendump, self.tmp,
                                   time.monotonic() + 60)

    def test_every_page_once(self):
        photos = self.capture([MADE, on(1), off(1) + on(2), off(2) + on(3), off(3)])
        self.assertIsNone(photos.error)
        self.assertEqual((photos.codes, photos.total), (5, 3))
        self.assertIn("5 codes on 3 pages", photos.made)
        self.assertEqual([os.path.basename(f) for f in photos.files],
                         ["page-01-of-03.png", "page-02-of-03.png", "page-03-of-03.png"])
        self.assertEqual(photos.missing(), [])

    def test_one_code_on_one_page(self):
        made = (b"qr: 1 code on 1 page of 18 records (numbers 0 to 17) made in 140 ms: run "
                b"49cd83d5, 2 a page, version 22 or less at 4 pixels a module, 700 deflated "
                b"bytes a code, 6 compressions\r\n")
        photos = self.capture([made, b"qr: page 1 of 1 on the screen\r\n",
                               b"qr: page 1 of 1 off the screen\r\n"])
        self.assertIsNone(photos.error)
        self.assertEqual((photos.codes, photos.total, len(photos.files)), (1, 1, 1))

    def test_a_page_that_changed_is_taken_again(self):
        photos = self.capture([MADE, on(1), off(1) + on(2), off(2) + on(3), off(3),
                               on(1), off(1) + on(2), off(2)], late=[2])
        self.assertEqual(photos.retaken, 1)
        self.assertEqual(photos.missing(), [])
        self.assertEqual(len(photos.files), 3)

    def test_qemu_gone_before_every_page(self):
        photos = self.capture([MADE, on(1), off(1)])
        self.assertEqual(photos.error, "QEMU left before every page was on the screen")
        self.assertEqual(photos.missing(), [2, 3])

    def test_no_codes(self):
        photos = self.capture([b"no QR codes of the records: the screen is too small for "
                               b"them\r\n"])
        self.assertEqual(photos.error,
                         "the kernel made no QR codes: the screen is too small for them")
