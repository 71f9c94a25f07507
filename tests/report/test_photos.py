"""pmu-report --from-photos (tools/pmu_photos.py): Base45 against RFC 9285's examples, the codes'
header and CRC (issue 25's PMU2 codes, primed with the dictionary, and issue 19's PMU1), putting
chunks of one run in order from any order and any repeats, naming the missing codes and their
pages, which decoder reads what, and the command line. The code texts here are made by an encoder
of this test's own (Python's zlib and the RFC's arithmetic), not the kernel's: the kernel's pages
are read back in tests/report/test_qr_pages.py (drawn on the host by the kernel's code) and by the
QEMU cases (tests/qemu/cases_qr.py)."""

import json
import os
import shutil
import subprocess
import unittest
import zlib

from PIL import Image

from reporttest import TempDirCase
import logfixture
import pmu_model
import pmu_photos
import pmu_records
import pmu_text

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"


def base45_encode(data):
    out = []
    for i in range(0, len(data) - 1, 2):
        n = data[i] * 256 + data[i + 1]
        out += [ALPHABET[n % 45], ALPHABET[n // 45 % 45], ALPHABET[n // 2025]]
    if len(data) % 2:
        n = data[-1]
        out += [ALPHABET[n % 45], ALPHABET[n // 45]]
    return "".join(out)


def code(run_id, number, total, lines, flags=0, corrupt=False, per_page=1, old=False):
    """A code's text as the kernel makes it (kernel/qr/chunk.h): PMU2, deflated with the
    dictionary; old: issue 19's PMU1, without the per-page byte and the dictionary."""
    if old:
        compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
        head = run_id.to_bytes(4, "little") + bytes((number, total, flags))
    else:
        with open(pmu_photos.DICTIONARY, "rb") as f:
            compressor = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zdict=f.read())
        head = run_id.to_bytes(4, "little") + bytes((number, total, flags, per_page))
    deflated = compressor.compress("".join(l + "\n" for l in lines).encode()) + \
        compressor.flush()
    crc = zlib.crc32(deflated, zlib.crc32(head)) & 0xFFFFFFFF
    data = bytearray(head + crc.to_bytes(4, "little") + deflated)
    if corrupt:
        data[-1] ^= 1
    return ("PMU1:" if old else "PMU2:") + base45_encode(bytes(data))


def records_of(log):
    """(seq, json) of a fixture log's records."""
    return [(line.seq, line.text.split(" ", 2)[2]) for line in log.lines if line.seq is not None]


def chunk_lines(records):
    """A chunk's text lines: the first record numbered, a jump numbered too."""
    lines, previous = [], None
    for seq, body in records:
        lines.append(body if previous is not None and seq == previous + 1
                     else "@%d %s" % (seq, body))
        previous = seq
    return lines


def codes_of(log, per_code, run_id=0x1A2B3C4D, per_page=1, old=False):
    records = records_of(log)
    groups = [records[i:i + per_code] for i in range(0, len(records), per_code)]
    return [code(run_id, k + 1, len(groups), chunk_lines(g), per_page=per_page, old=old)
            for k, g in enumerate(groups)]


class Base45(TempDirCase):
    def test_rfc9285_examples(self):
        self.assertEqual(pmu_photos.base45_decode("BB8"), b"AB")
        self.assertEqual(pmu_photos.base45_decode("%69 VD92EX0"), b"Hello!!")
        self.assertEqual(pmu_photos.base45_decode("UJCLQE7W581"), b"base-45")
        self.assertEqual(pmu_photos.base45_decode("QED8WEX0"), b"ietf!")
        self.assertEqual(base45_encode(b"ietf!"), "QED8WEX0")

    def test_rfc9285_invalid_input(self):
        # RFC 9285, section 6: "GGW" is 65536, more than two bytes hold.
        for bad in ("GGW", "QED8WEX", "qed", "QED8WEX0#"):
            with self.assertRaises(ValueError, msg=bad):
                pmu_photos.base45_decode(bad)

    def test_every_length(self):
        data = bytes(range(256)) * 2
        for n in range(0, 300):
            self.assertEqual(pmu_photos.base45_decode(base45_encode(data[:n])), data[:n])


class Codes(TempDirCase):
    def test_header(self):
        chunk = pmu_photos.parse_code(code(0xA1B2C3D4, 3, 8, ["@5 {\"type\":\"x\"}"], flags=1,
                                           per_page=2), "p.png")
        self.assertEqual((chunk.run_id, chunk.number, chunk.total, chunk.flags,
                          chunk.per_page, chunk.page()), (0xA1B2C3D4, 3, 8, 1, 2, 2))
        self.assertEqual(chunk.text, "@5 {\"type\":\"x\"}\n")
        old = pmu_photos.parse_code(code(0xA1B2C3D4, 3, 8, ["@5 {}"], old=True), "p.png")
        self.assertEqual((old.number, old.total, old.per_page, old.page(), old.text),
                         (3, 8, None, 3, "@5 {}\n"))

    def test_the_dictionary_is_needed_and_pinned(self):
        lines = ["@0 {\"type\":\"count\",\"exp\":\"ch7-aligned\",\"phase\":\"measure\"}"]
        text = code(1, 1, 1, lines)
        # The same bytes under the old prefix: inflated without the dictionary, they fail.
        data = pmu_photos.base45_decode(text[5:])
        head = data[:7]
        crc = zlib.crc32(data[12:], zlib.crc32(head)) & 0xFFFFFFFF
        with self.assertRaisesRegex(ValueError, "does not inflate"):
            pmu_photos.parse_code("PMU1:" + base45_encode(
                head + crc.to_bytes(4, "little") + data[12:]))
        with open(pmu_photos.DICTIONARY, "rb") as f:
            self.assertEqual(zlib.crc32(f.read()), pmu_photos.DICTIONARY_CRC)

    def test_bad_codes_are_refused(self):
        with self.assertRaisesRegex(ValueError, "CRC"):
            pmu_photos.parse_code(code(1, 1, 1, ["@0 {}"], corrupt=True))
        with self.assertRaisesRegex(ValueError, "not a pmu-testkernel code"):
            pmu_photos.parse_code("https://example.org/")
        with self.assertRaisesRegex(ValueError, "number 3 of 2"):
            pmu_photos.parse_code(code(1, 3, 2, ["@0 {}"]))
        with self.assertRaisesRegex(ValueError, "shorter than its header"):
            pmu_photos.parse_code("PMU1:" + base45_encode(b"12345"))
        with self.assertRaisesRegex(ValueError, "shorter than its header"):
            pmu_photos.parse_code("PMU2:" + base45_encode(b"12345678901"))


class Assembly(TempDirCase):
    def test_any_order_and_repeats_give_the_serial_records(self):
        log = logfixture.suite()
        codes = codes_of(log, 7)
        self.assertGreater(len(codes), 4)
        pictures = [("b.jpg", [codes[2], codes[0]]), ("a.png", list(reversed(codes))),
                    ("c.png", [codes[1]])]
        a = pmu_photos.assemble(pictures)
        self.assertEqual(a.missing(), [])
        self.assertEqual(a.problems, [])
        want = "".join(line.text + "\n" for line in log.lines if line.seq is not None)
        self.assertEqual(a.log, want)
        stream = pmu_records.parse(a.log)
        self.assertEqual(stream.problems, [])
        self.assertEqual(a.summary()[:2], ["Photos: 3 pictures, %d codes read" % (
            len(codes) + 3), "  run 1a2b3c4d: %d of %d codes" % (len(codes), len(codes))])

    def test_old_codes_give_the_serial_records(self):
        log = logfixture.suite()
        a = pmu_photos.assemble([("p.png", codes_of(log, 7, old=True))])
        self.assertEqual(a.missing(), [])
        self.assertEqual(a.log, "".join(line.text + "\n" for line in log.lines
                                        if line.seq is not None))

    def test_missing_codes_are_named(self):
        log = logfixture.suite()
        codes = codes_of(log, 5)
        total = len(codes)
        a = pmu_photos.assemble([("p.png", codes[:3] + codes[4:6] + codes[7:])])
        self.assertEqual(a.missing(), [4, 7])
        self.assertIn("  codes 4 and 7 of %d (pages 4 and 7 of %d) not found: film or "
                      "photograph them again" % (total, total), a.summary())
        stream = pmu_records.parse(a.log)
        self.assertEqual([p.kind for p in stream.problems], ["gap", "gap"])
        lost = [seq for first, last in stream.lost_spans() for seq in range(first, last + 1)]
        self.assertEqual(lost, list(range(15, 20)) + list(range(30, 35)))
        one = pmu_photos.assemble([("p.png", codes[1:])])
        self.assertIn("  code 1 of %d (page 1 of %d) not found: film or photograph it again" % (
            total, total), one.summary())
        self.assertEqual(pmu_photos.plural_numbers([2, 4, 7]), "2, 4 and 7")
        # Three codes a page: code 7 is on page 3; issue 19's codes say "records".
        paged = codes_of(log, 5, per_page=3)
        a = pmu_photos.assemble([("p.png", paged[:6] + paged[7:])])
        self.assertIn("  code 7 of %d (page 3 of %d) not found: film or photograph it again" % (
            total, (total + 2) // 3), a.summary())
        old = codes_of(log, 5, old=True)
        a = pmu_photos.assemble([("p.png", old[:3] + old[4:6] + old[7:])])
        self.assertIn("  records 4 and 7 of %d not found: film or photograph them again" % total,
                      a.summary())

    def test_other_runs_and_conflicts_are_set_aside(self):
        log = logfixture.suite()
        mine = codes_of(log, 50)
        other = code(0x99, 1, 3, ["@0 {\"type\":\"boot\"}"])
        changed = code(0x1A2B3C4D, 1, len(mine), ["@0 {\"type\":\"boot\",\"x\":1}"])
        a = pmu_photos.assemble([("a.png", mine), ("b.png", [other]), ("c.png", [changed]),
                                 ("d.png", [code(1, 1, 1, ["@0 {}"], corrupt=True)]),
                                 ("e.png", [])])
        self.assertEqual(a.run_id, 0x1A2B3C4D)
        self.assertEqual(a.missing(), [])
        text = "\n".join(a.summary())
        self.assertIn("1 code of another run (00000099: 1 of 3 codes) ignored: b.png", text)
        self.assertIn("c.png: code 1 differs from the one in a.png: ignored", text)
        self.assertIn("d.png: a code ignored: its CRC does not match", text)
        self.assertIn("e.png: no QR code found", text)

    def test_a_complete_run_is_chosen_over_a_larger_incomplete_one(self):
        # As the review's folder (16 of run A's 22 codes and all 15 of run B's): 16 of run A's
        # 25 codes and all 15 of run B's. B is a whole log; A is not, however many codes it has.
        log = logfixture.suite()
        run_a = codes_of(log, 3, run_id=0xA)
        run_b = codes_of(log, 5, run_id=0xB)
        self.assertEqual((len(run_a), len(run_b)), (25, 15))
        pictures = [("IMG_%04d.jpg" % (k + 1), run_a[2 * k:2 * k + 2]) for k in range(8)] + \
            [("IMG_%04d.jpg" % (k + 9), run_b[5 * k:5 * k + 5]) for k in range(3)]
        a = pmu_photos.assemble(pictures)
        self.assertEqual((a.run_id, a.missing()), (0xB, []))
        self.assertEqual(a.log, "".join(line.text + "\n" for line in log.lines
                                        if line.seq is not None))
        text = "\n".join(a.summary())
        self.assertIn("  run 0000000b: 15 of 15 codes\n", text)
        self.assertIn("16 codes of another run (0000000a: 16 of 25 codes) ignored: IMG_0001.jpg",
                      text)
        self.assertNotIn("film or photograph", text)
        self.assertNotIn("complete runs", text)
        # Without a complete run, the one with the most codes read, its missing ones named.
        a = pmu_photos.assemble(pictures[:8] + [("IMG_0009.jpg", run_b[:14])])
        self.assertEqual((a.run_id, a.missing()), (0xA, list(range(17, 26))))
        self.assertIn("14 codes of another run (0000000b: 14 of 15 codes) ignored",
                      "\n".join(a.summary()))

    def test_several_complete_runs_are_said(self):
        log = logfixture.suite()
        small = codes_of(log, 40, run_id=0xC)
        large = codes_of(log, 8, run_id=0xD)
        same = codes_of(log, 8, run_id=0xE)
        a = pmu_photos.assemble([("1.png", large), ("2.png", small)])
        self.assertEqual(a.run_id, 0xD)  # the most codes, though photographed first
        text = "\n".join(a.summary())
        self.assertIn("%d codes of another run (0000000c: %d of %d codes, complete) ignored: "
                      "2.png" % ((len(small),) * 3), text)
        self.assertIn("2 complete runs in these photos (0000000d, 0000000c): run 0000000d is "
                      "reported (the most codes, then the last photographed)", text)
        # As many codes each: the one photographed last.
        self.assertEqual(pmu_photos.assemble([("1.png", large), ("2.png", same)]).run_id, 0xE)
        self.assertEqual(pmu_photos.assemble([("1.png", same), ("2.png", large)]).run_id, 0xD)

    def test_notes_and_numbering(self):
        lines = ["#left out to fit 30 codes: 10 of 40 count records",
                 "@0 {\"type\":\"boot\"}", "{\"type\":\"pmu\"}", "@9 {\"type\":\"end\"}"]
        a = pmu_photos.assemble([("p.png", [code(5, 1, 1, lines, flags=1)])])
        self.assertEqual(a.notes, ["left out to fit 30 codes: 10 of 40 count records"])
        self.assertEqual([r.seq for r in pmu_records.parse(a.log).records], [0, 1, 9])
        self.assertEqual(a.summary()[:2], [
            "Photos: 1 picture, 1 code read",
            "  run 00000005: 1 of 1 code (the kernel left records out to fit the screen)"])


def qrencode(text, path):
    """A picture of one code as Debian's qrencode writes it: a palette PNG whose palette has
    transparency (what Pillow warns about when it is converted carelessly)."""
    subprocess.run(["qrencode", "-l", "M", "-s", "4", "-o", path, text], check=True)
    return path


QRENCODE = shutil.which("qrencode") is not None


def photo_folder(tmp, codes):
    """A folder "photos" in tmp holding a picture of each code, IMG_0001.png, ... in turn."""
    photos = os.path.join(tmp, "photos")
    os.makedirs(photos)
    for k, text in enumerate(codes):
        qrencode(text, os.path.join(photos, "IMG_%04d.png" % (k + 1)))
    return photos


def unreadable_files(folder):
    """What a failed copy from a phone leaves in a folder of photos: a text named as a picture,
    an empty picture and an empty video; {name: what pmu-report says of it}."""
    with open(os.path.join(folder, "bad.jpg"), "w") as f:
        f.write("not a picture\n")
    for name in ("IMG_9999.jpg", "VID_0001.mp4"):
        open(os.path.join(folder, name), "w").close()
    return {"bad.jpg": "not a picture or video: could not be decoded",
            "IMG_9999.jpg": "not a picture or video: empty file",
            "VID_0001.mp4": "not a picture or video: empty file"}


def truncated_jpeg(path, code_png=None):
    """A JPEG whose copy stopped at two thirds of its bytes: a code (if given) in its top part,
    which is still there, and noise below, which is not."""
    image = Image.new("L", (600, 1400), 255)
    image.paste(Image.effect_noise((600, 800), 80).convert("L"), (0, 600))
    if code_png is not None:
        with Image.open(code_png) as code_image:
            image.paste(pmu_photos.grey(code_image).resize((400, 400)), (100, 100))
    image.save(path, quality=90)
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[:len(data) * 2 // 3])
    return path


def cut_codes(log, per_code=6, flags=pmu_photos.FLAG_LEFT_OUT):
    """The codes of a log whose every other count record the kernel left out (the priority cut:
    the flag, the note in the first code), and the numbers left out."""
    records = records_of(log)
    counts = [seq for seq, body in records if '"type":"count"' in body]
    dropped = counts[::2]
    kept = [(seq, body) for seq, body in records if seq not in set(dropped)]
    note = "#left out to fit 30 codes: %d of %d count records (the serial log has every " \
        "record)" % (len(dropped), len(counts))
    # The first code ends where the first record was left out: the cut falls between two codes
    # as well as inside them.
    jump = next(i for i in range(1, len(kept)) if kept[i][0] != kept[i - 1][0] + 1)
    groups = [kept[:jump]] + [kept[i:i + per_code] for i in range(jump, len(kept), per_code)]
    return [code(7, k + 1, len(groups), ([note] if k == 0 else []) + chunk_lines(g),
                 flags=flags, per_page=2) for k, g in enumerate(groups)], dropped


class WhatIsNotThere(TempDirCase):
    def test_the_priority_cut_is_left_out_not_lost(self):
        codes, dropped = cut_codes(logfixture.suite())
        a = pmu_photos.assemble([("p.png", codes)])
        self.assertEqual(a.missing(), [])
        stream = pmu_records.parse(a.log, a)
        self.assertEqual(stream.problems, [])
        self.assertEqual([n for first, last in stream.left_out for n in range(first, last + 1)],
                         dropped)
        self.assertEqual(stream.lost_spans(), [])
        report = pmu_model.build(stream, source="photos")
        self.assertEqual((report.exit_code, report.result), (pmu_model.EXIT_OK, "pass"))
        text = pmu_text.render_text(report)
        self.assertNotIn("DAMAGED", text)
        self.assertIn("  intact: every record the codes carry, from @0 to the end record", text)
        self.assertIn("  left out by the kernel to fit its QR codes, not lost: %s (%d records); "
                      "it says: left out to fit 30 codes: %d of" % (
                          pmu_records.fmt_spans(stream.left_out), len(dropped), len(dropped)),
                      text)
        self.assertIn("Overall: PASS (model PMU: nothing measured). 7 verdicts: 7 pass, 0 fail, "
                      "0 skip. Log intact, %d records left out by the kernel. Exit status 0."
                      % len(dropped), text)
        # Without the flag the codes do not say that records were left out: a jump is damage.
        plain = pmu_photos.assemble([("p.png", cut_codes(logfixture.suite(), flags=0)[0])])
        stream = pmu_records.parse(plain.log, plain)
        self.assertEqual(stream.left_out, [])
        self.assertEqual(pmu_model.build(stream).exit_code, pmu_model.EXIT_DAMAGED)

    def test_missing_records_are_cited_by_the_code_that_held_them(self):
        log = logfixture.suite()
        codes = codes_of(log, 5, per_page=2)
        total, pages = len(codes), (len(codes) + 1) // 2
        a = pmu_photos.assemble([("p.png", codes[:3] + codes[4:-2])])
        stream = pmu_records.parse(a.log, a)
        gaps = [p for p in stream.problems if p.kind == "gap"]
        self.assertEqual([(p.place, p.detail) for p in gaps], [
            ("code 4", "missing @15-@19: code 4 of %d (page 2 of %d), not read" % (total,
                                                                                  pages))])
        end = [p for p in stream.problems if p.kind == "no_end"][0]
        last_pages = sorted({(n - 1) // 2 + 1 for n in (total - 1, total)})
        self.assertEqual(end.place, "codes %d-%d" % (total - 1, total))
        self.assertTrue(end.detail.endswith(
            "; the rest: codes %d and %d of %d (%s of %d), not read" % (
                total - 1, total, total, "page %d" % last_pages[0] if len(last_pages) == 1
                else "pages %d and %d" % tuple(last_pages), pages)), end.detail)
        text = pmu_text.render_text(pmu_model.build(stream))
        self.assertNotIn(" on line ", text)
        self.assertRegex(text, r"\n  code 4 +@15-@19 +lost +missing @15-@19: code 4 of ")
        # Code 1 not read: the first records, before any code read.
        a = pmu_photos.assemble([("p.png", codes[1:])])
        first = pmu_records.parse(a.log, a).problems[0]
        self.assertEqual((first.place, first.detail), (
            "code 1", "missing @0-@4: code 1 of %d (page 1 of %d), not read" % (total, pages)))
        # A serial log's gap still names its lines.
        self.assertIn(" on line ", pmu_records.parse(a.log).problems[0].detail)
        # The first record not boot @0 is cited by the code not read, as the gap is.
        text = pmu_text.render_text(pmu_model.build(pmu_records.parse(a.log, a)))
        self.assertRegex(text, r"\n  code 1 +- +no boot record +the first record is \w+ @5, "
                               r"not boot @0\n")
        self.assertNotIn("end of log", text)


class CommandLine(TempDirCase):
    def test_pictures_of_a_folder(self):
        for name in ("b.PNG", "a.jpg", "notes.txt", ".hidden.png~", "c.mp4"):
            with open(os.path.join(self.tmp, name), "w") as f:
                f.write("x")
        os.makedirs(os.path.join(self.tmp, "d.png"))
        self.assertEqual([os.path.basename(p) for p in pmu_photos.pictures(self.tmp)],
                         ["a.jpg", "b.PNG", "c.mp4"])
        self.assertEqual(pmu_photos.files_of(["x.jpg", self.tmp, "y.mov"]),
                         ["x.jpg"] + pmu_photos.pictures(self.tmp) + ["y.mov"])
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty)
        with self.assertRaisesRegex(pmu_photos.PhotoError, "empty: a folder without pictures"):
            pmu_photos.files_of([empty])

    @unittest.skipUnless(QRENCODE, "needs qrencode (Debian's qrencode)")
    def test_a_folder_of_photos(self):
        log = logfixture.suite()
        codes = codes_of(log, 8)
        photos = photo_folder(self.tmp, codes)
        with open(os.path.join(photos, "notes.txt"), "w") as f:
            f.write("taken with the phone\n")
        saved = os.path.join(self.tmp, "saved.log")
        run = self.run_tool("--csv", "--from-photos", photos, "--save-log", saved)
        self.assertEqual(run.code, 0, run.stdout[-2000:] + run.stderr)
        self.assertIn("Photos: %d pictures, %d codes read" % (len(codes), len(codes)),
                      run.stdout)
        with open(saved) as f:
            self.assertEqual(f.read(), "".join(line.text + "\n" for line in log.lines
                                               if line.seq is not None))
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty)
        run = self.run_tool("--from-photos", empty)
        self.assertEqual(run.code, 2)
        self.assertIn("empty: a folder without pictures or videos", run.stderr)

    @unittest.skipUnless(QRENCODE, "needs qrencode (Debian's qrencode)")
    def test_a_cut_and_a_code_not_read(self):
        codes, dropped = cut_codes(logfixture.suite(), per_code=20)
        photos = photo_folder(self.tmp, codes)
        run = self.run_tool("--csv", "--from-photos", photos)
        self.assertEqual(run.code, 0, run.stdout[-3000:] + run.stderr)
        self.assertIn("Log intact, %d records left out by the kernel. Exit status 0."
                      % len(dropped), run.stdout)
        os.unlink(os.path.join(photos, "IMG_0002.png"))
        run = self.run_tool("--csv", "--from-photos", photos)
        self.assertEqual(run.code, 3, run.stdout[-3000:] + run.stderr)
        self.assertRegex(run.stdout, r"\n  code 2 +@\d+-@\d+ +lost +missing @\d+-@\d+: code 2 "
                                     r"of %d \(page 1 of %d\), not read\n" % (
                                         len(codes), (len(codes) + 1) // 2))
        self.assertNotIn(" on line ", run.stdout)

    @unittest.skipUnless(QRENCODE, "needs qrencode (Debian's qrencode)")
    def test_a_palette_picture_is_read_without_a_warning(self):
        log = logfixture.suite()
        picture = qrencode(codes_of(log, 1000)[0], os.path.join(self.tmp, "code.png"))
        with Image.open(picture) as image:
            self.assertEqual((image.mode, "transparency" in image.info), ("P", True))
        run = self.run_tool("--csv", "--from-photos", picture)
        self.assertEqual(run.code, 0, run.stdout[-2000:] + run.stderr)
        self.assertEqual(run.stderr, "")
        # A code drawn as black on clear (its light modules transparent black) is read as it
        # shows on a white page, not as the black its colour channels alone give.
        clear = os.path.join(self.tmp, "clear.png")
        with Image.open(picture) as image:
            dark = image.convert("RGBA").convert("L").point(lambda v: 255 - v)
        Image.merge("RGBA", (Image.new("L", dark.size, 0),) * 3 + (dark,)).save(clear)
        self.assertEqual(pmu_photos.codes_in(clear), pmu_photos.codes_in(picture))

    @unittest.skipUnless(QRENCODE and shutil.which("ffmpeg"), "needs qrencode and ffmpeg")
    def test_the_codes_of_a_video_cut_short_are_read_from_its_frames(self):
        # A video of two codes, a second each, a key frame every frame (so that the frames before
        # the cut decode), cut at a third of its bytes: code 2 is not there.
        codes = codes_of(logfixture.suite(), 40)
        for k in range(8):
            qrencode(codes[k // 4], os.path.join(self.tmp, "f%d.png" % k))
        video = os.path.join(self.tmp, "VID_0001.mp4")
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-framerate", "4", "-i",
                        os.path.join(self.tmp, "f%d.png"), "-g", "1", "-pix_fmt", "yuv420p",
                        "-vf", "scale=480:480", "-movflags", "+faststart", video], check=True)
        self.assertEqual(pmu_photos.read([video]).damaged, [])
        with open(video, "rb") as f:
            data = f.read()
        with open(video, "wb") as f:
            f.write(data[:len(data) // 3])
        a = pmu_photos.read([video])
        self.assertEqual((len(codes), a.missing()), (2, [2]))
        frames = a.videos[0][1]
        self.assertGreater(frames, 0)
        self.assertEqual(a.damaged, [(video, "a damaged video: parts of it could not be decoded "
                                      "(%s read); 1 code read from the frames decoded"
                                      % pmu_photos.plural(frames, "frame"))])

    def test_neither_or_both_sources(self):
        self.assertEqual(self.run_tool().code, 2)
        log = self.write_log(logfixture.suite())
        self.assertEqual(self.run_tool(log, "--from-photos", log).code, 2)

    def test_unreadable_picture(self):
        run = self.run_tool("--from-photos", os.path.join(self.tmp, "nothing.png"))
        self.assertEqual(run.code, 2)
        self.assertIn("nothing.png: no such file", run.stderr)
        # A file named by itself that is neither a picture nor a video stays an error, said in
        # words, not in ffmpeg's ("Error marking filters as finished").
        bad = unreadable_files(self.tmp)
        for name, why in bad.items():
            run = self.run_tool("--from-photos", os.path.join(self.tmp, name))
            self.assertEqual((run.code, run.stdout), (2, ""), name)
            self.assertEqual(run.stderr, "pmu-report: %s: %s\n" % (
                os.path.join(self.tmp, name), why))
        # A folder of which not one file can be read is an error too, each named.
        run = self.run_tool("--from-photos", self.tmp)
        self.assertEqual(run.code, 2)
        self.assertIn("not one picture or video could be read: ", run.stderr)
        for name, why in bad.items():
            self.assertIn("%s: %s" % (os.path.join(self.tmp, name), why), run.stderr)

    @unittest.skipUnless(QRENCODE, "needs qrencode (Debian's qrencode)")
    def test_unreadable_files_of_a_folder_are_named_and_the_rest_read(self):
        log = logfixture.suite()
        codes = codes_of(log, 8)
        photos = photo_folder(self.tmp, codes)
        bad = unreadable_files(photos)
        truncated = truncated_jpeg(os.path.join(photos, "IMG_0000.jpg"))
        run = self.run_tool("--csv", "--from-photos", photos, "--out", self.tmp)
        self.assertEqual(run.code, 0, run.stdout[-2000:] + run.stderr)
        self.assertEqual(run.stderr, "")
        self.assertIn("Photos: %d pictures, %d codes read\n" % (len(codes) + 1, len(codes)),
                      run.stdout)
        for name, why in bad.items():
            self.assertIn("\n  %s: %s; skipped\n" % (os.path.join(photos, name), why),
                          run.stdout)
        self.assertIn("\n  %s: a damaged picture: truncated (the file ends early); no QR code "
                      "found in the part that is there\n" % truncated, run.stdout)
        self.assertNotIn("IMG_0000.jpg: no QR code found", run.stdout)
        self.assertIn("Log complete and intact. Exit status 0.", run.stdout)

    @unittest.skipUnless(QRENCODE, "needs qrencode (Debian's qrencode)")
    def test_the_codes_of_a_truncated_picture_are_read_from_the_part_there(self):
        text = codes_of(logfixture.suite(), 1000)[0]
        picture = truncated_jpeg(os.path.join(self.tmp, "IMG_0001.jpg"),
                                 qrencode(text, os.path.join(self.tmp, "code.png")))
        a = pmu_photos.read([picture])
        self.assertEqual((a.missing(), a.empty), ([], []))
        self.assertEqual(a.damaged, [(picture, "a damaged picture: truncated (the file ends "
                                      "early); 1 code read from the part that is there")])

    def test_a_picture_without_codes(self):
        blank = os.path.join(self.tmp, "blank.png")
        Image.new("RGB", (320, 200), (255, 255, 255)).save(blank)
        saved = os.path.join(self.tmp, "saved.log")
        out = os.path.join(self.tmp, "results")
        run = self.run_tool("--from-photos", blank, "--save-log", saved, "--out", out)
        # Not a single record (docs/report.md's exit status 4), said as what the photos held; no
        # log check of a log that is not there (not DAMAGED), and no empty files.
        self.assertEqual((run.code, run.stderr), (4, ""), run.stdout)
        self.assertEqual(run.stdout, (
            "Photos: 1 picture, 0 codes read\n"
            "  no pmu-testkernel QR code in the 1 picture read: no QR code at all in it; "
            "photograph or film the pages of codes the screen shows when the run ends "
            "(docs/qr-codes.md)\n"
            "  %s: no QR code found\n\n"
            "Overall: NO RECORDS (no pmu-testkernel QR code read): nothing to report or save "
            "(--save-log), no files written. Exit status 4.\n" % blank))
        self.assertFalse(os.path.exists(saved))
        self.assertFalse(os.path.exists(out))
        # Codes that are not the kernel's are counted as such.
        a = pmu_photos.assemble([("a.png", ["https://example.org/"]), ("b.mp4", [])])
        a.pictures, a.videos = 1, [("b.mp4", 20, 0)]
        self.assertEqual(a.no_code(), "no pmu-testkernel QR code in the 1 picture and 1 video "
                         "read: 1 QR code read, none of them a code of a pmu-testkernel run; "
                         "photograph or film the pages of codes the screen shows when the run "
                         "ends (docs/qr-codes.md)")

    def test_save_log_of_a_serial_log(self):
        log = logfixture.suite()
        saved = os.path.join(self.tmp, "saved.log")
        run = self.run_tool("--csv", self.write_log(log), "--save-log", saved)
        self.assertEqual(run.code, 0, run.stderr)
        with open(saved) as f:
            records = [json.loads(line.split(" ", 2)[2]) for line in f
                       if line.startswith("@")]
        self.assertEqual(len(records), len(records_of(log)))
