"""The records of a run read back from photos or a video of its QR codes (pmu-report --from-photos).

At the end of a run on a framebuffer the kernel shows its records as pages of QR codes
(docs/qr-codes.md, kernel/qr/chunk.h). Each code's text is "PMU2:" and Base45 (RFC 9285) of:

    run id (4 bytes, little-endian), number (1, from 1), total (1), flags (1: 1 = records were
    left out), per page (1: the codes a page shows), CRC-32 (4, little-endian, zlib's, of the 8
    bytes before it and the rest), then the chunk's text deflated (RFC 1951, raw) with the preset
    dictionary kernel/qr/dictionary.txt

("PMU1:", issue 19's codes, has no per-page byte and no dictionary), and the chunk's text is record
lines: "<json>", or "@<seq> <json>" where the numbering jumps (the first line of every chunk), and
"#<note>" lines saying what the codes leave out. This module finds the codes in pictures (any
file PIL opens) and in videos (any file Debian's ffmpeg reads: frames sampled a few times a
second), with zxing-cpp (Debian's python3-zxing-cpp) first and zbar (zbar-tools: zbarimg) where
zxing-cpp left a page incomplete or found nothing; checks each code, puts the chunks of one run in
order and rebuilds the serial log's record lines ("@<seq> <crc32> <json>"), which pmu-report then
reads as it reads a serial log.
"""

import functools
import os
import re
import shutil
import subprocess
import tempfile
import zlib

from pmu_format import plural

PREFIX = "PMU1:"
HEADER_LEN = 11
PREFIX_2 = "PMU2:"
HEADER_LEN_2 = 12
FLAG_LEFT_OUT = 1
BASE45 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
_BASE45_VALUE = {c: i for i, c in enumerate(BASE45)}
ZBARIMG = "zbarimg"
FFMPEG = "ffmpeg"
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DICTIONARY = os.path.join(TOP, "kernel", "qr", "dictionary.txt")
DICTIONARY_CRC = 0x536050B8   # kernel/qr/dictionary.h, QR_DICTIONARY_CRC
VIDEO_FPS = 4                 # frames sampled a second of video
VIDEO_WIDTH_MAX = 1920        # larger frames are scaled down to this width before decoding
# What a folder of photos may hold besides its pictures (a note, a checksum file) is not given to
# the decoder; these are the pictures and videos it is given.
PICTURE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".ppm", ".pgm", ".pbm", ".pnm", ".bmp", ".gif",
                      ".tif", ".tiff", ".webp", ".heic", ".mp4", ".mov", ".m4v", ".mkv", ".webm",
                      ".avi")


class PhotoError(Exception):
    """A file given by itself that is no picture or video, a folder of which not one is, or no
    decoder: pmu-report's exit status 2."""


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


_dictionary = None


def dictionary():
    """The preset dictionary of PMU2 codes, checked against the format's CRC."""
    global _dictionary
    if _dictionary is None:
        with open(DICTIONARY, "rb") as f:
            data = f.read()
        if zlib.crc32(data) & 0xFFFFFFFF != DICTIONARY_CRC:
            raise PhotoError("%s is not the dictionary of the PMU2 codes (its CRC-32 is %08x, "
                             "not %08x)" % (DICTIONARY, zlib.crc32(data) & 0xFFFFFFFF,
                                            DICTIONARY_CRC))
        _dictionary = data
    return _dictionary


class Chunk:
    """One code that passed its checks."""

    def __init__(self, run_id, number, total, flags, text, source, per_page=None):
        self.run_id = run_id
        self.number = number
        self.total = total
        self.flags = flags
        self.text = text          # the chunk's plain text
        self.source = source      # the picture it came from
        self.per_page = per_page  # codes a page shows (None: a PMU1 code, one a page)

    def page(self):
        return (self.number - 1) // (self.per_page or 1) + 1


def parse_code(text, source="-"):
    """A Chunk, or ValueError saying why the text is not an intact code of a run."""
    if text.startswith(PREFIX_2):
        header, zdict = HEADER_LEN_2, dictionary()
    elif text.startswith(PREFIX):
        header, zdict = HEADER_LEN, None
    else:
        raise ValueError("not a pmu-testkernel code")
    data = base45_decode(text[len(PREFIX):])
    if len(data) < header:
        raise ValueError("a code of %d bytes, shorter than its header" % len(data))
    run_id = int.from_bytes(data[0:4], "little")
    number, total, flags = data[4], data[5], data[6]
    per_page = data[7] if zdict is not None else None
    crc = int.from_bytes(data[header - 4:header], "little")
    if zlib.crc32(data[header:], zlib.crc32(data[:header - 4])) & 0xFFFFFFFF != crc:
        raise ValueError("its CRC does not match (a misread code)")
    if not 1 <= number <= total:
        raise ValueError("number %d of %d" % (number, total))
    if per_page == 0:
        raise ValueError("0 codes a page")
    try:
        inflate = zlib.decompressobj(-15, zdict=zdict) if zdict else zlib.decompressobj(-15)
        plain = inflate.decompress(data[header:]) + inflate.flush()
    except zlib.error as e:
        raise ValueError("its deflated text does not inflate: %s" % e) from None
    return Chunk(run_id, number, total, flags, plain.decode("utf-8", "replace"), source,
                 per_page)


# ---- the decoders ---------------------------------------------------------------------------

def zxing_available():
    try:
        import zxingcpp  # noqa: F401
    except ImportError:
        return False
    return True


def zbar_available():
    return shutil.which(ZBARIMG) is not None


def _zxing_tries():
    """How zxing-cpp looks at a picture, in turn, while a page stays incomplete: as it is; with
    its global-histogram binarizer; scaled by 1.25; turned upside down. zxing-cpp 1.4 misses a
    few codes in ten at 8% keystone from one look, each time at some angles and not at others
    (its finder pattern search and perspective estimate); another look reads them
    (docs/qr-codes.md, "The decoders")."""
    import zxingcpp
    from PIL import Image

    def look(image, **options):
        return [r.text for r in zxingcpp.read_barcodes(
            image, formats=zxingcpp.BarcodeFormat.QRCode, **options) if r.text]
    return (
        look,
        lambda image: look(image, binarizer=zxingcpp.Binarizer.GlobalHistogram),
        lambda image: look(image.resize((image.size[0] * 5 // 4, image.size[1] * 5 // 4),
                                        Image.BILINEAR)),
        lambda image: look(image.transpose(Image.ROTATE_180)),
    )


def zxing_texts(image, tries=4):
    """The texts of the QR codes zxing-cpp finds in a PIL image or a grey numpy array, looking
    again (up to tries looks, _zxing_tries()) while a page is incomplete."""
    from PIL import Image
    if not isinstance(image, Image.Image):
        image = Image.fromarray(image)
    texts = []
    for look in _zxing_tries()[:tries]:
        texts += [t for t in look(image) if t not in texts]
        if not incomplete(texts):
            break
    return texts


def zbar_texts(path):
    """The texts of the QR codes zbar finds in one picture file (PNG, JPEG, PGM, ...)."""
    run = subprocess.run([ZBARIMG, "--nodbus", "--raw", "-q", "-Sdisable", "-Sqrcode.enable",
                          path], capture_output=True, timeout=300)
    # zbarimg: 0 found some, 4 found none; anything else is a picture it could not read.
    if run.returncode not in (0, 4):
        reason = run.stderr.decode("utf-8", "replace").strip().splitlines()
        raise PhotoError("%s: zbarimg cannot read it (%s)" % (
            path, reason[-1] if reason else "status %d" % run.returncode))
    return [t for t in run.stdout.decode("utf-8", "replace").split("\n") if t]


@functools.lru_cache(maxsize=4096)
def place_of(text):
    """(run id, number, total, per page) of a code's text; None when it is no intact code."""
    try:
        chunk = parse_code(text)
    except ValueError:
        return None
    return chunk.run_id, chunk.number, chunk.total, chunk.per_page or 1


def incomplete(texts):
    """Whether the codes read may not be all of their pages': none read, one that is no intact
    code of a run, or a page with some of its codes missing."""
    if not texts:
        return True
    found, wanted = set(), set()
    for text in texts:
        place = place_of(text)
        if place is None:
            return True
        run_id, number, total, per_page = place
        first = (number - 1) // per_page * per_page + 1
        found.add((run_id, number))
        wanted |= {(run_id, n) for n in range(first, min(first + per_page, total + 1))}
    return not wanted <= found


def grey(image):
    """A PIL image in grey ("L") as it shows on a white page: a picture with transparency (an
    alpha channel, or a palette with transparency, as qrencode writes its PNGs) is laid on white
    first. (Converting a palette image with transparency straight to grey makes Pillow warn and
    takes the colour of a transparent pixel, whatever it is.)"""
    from PIL import Image
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(white, rgba).convert("L")
    return image.convert("L")


def codes_in(path):
    """The texts of the QR codes in one picture: zxing-cpp's, and zbar's where zxing-cpp left a
    page incomplete or is not installed."""
    return picture_codes(path)[0]


def picture_codes(path):
    """(the texts of the QR codes in one picture, None or what is wrong with the picture): a
    picture that ends early (a photo whose copy stopped) is named damaged, and the codes in the
    part that is there are read."""
    if not os.path.isfile(path):
        raise PhotoError("%s: no such file" % path)
    from PIL import Image, ImageFile
    damage, texts = None, []
    try:
        with Image.open(path) as image:
            image.load()
    except OSError as e:
        damage = "a damaged picture: %s" % ("truncated (the file ends early)"
                                            if "truncated" in str(e).lower()
                                            else "could not be decoded in full")
    if zxing_available():
        truncated, ImageFile.LOAD_TRUNCATED_IMAGES = ImageFile.LOAD_TRUNCATED_IMAGES, True
        try:
            with Image.open(path) as image:
                texts = zxing_texts(grey(image))
        except OSError:
            pass  # even the part that is there does not decode: zbar's turn
        finally:
            ImageFile.LOAD_TRUNCATED_IMAGES = truncated
    if zbar_available() and incomplete(texts):
        try:
            texts += [t for t in zbar_texts(path) if t not in texts]
        except PhotoError:
            if damage is None:
                raise
    return texts, damage


def is_picture(path):
    """Whether Pillow knows the file for a picture (by its first bytes: a picture that ends
    early is one, damaged; picture_codes says so)."""
    from PIL import Image
    try:
        with Image.open(path):
            return True
    except Exception:  # PIL raises many kinds for what is not a picture
        return False


class Unreadable(Exception):
    """A file that is neither a picture nor a video, in words for the person who gave it: in a
    folder it is named and the rest read; named alone, pmu-report's exit status 2."""


def unreadable_reason(path):
    """Why a file that is no picture and no video is not: empty (a copy that failed), or not
    decodable."""
    return "not a picture or video: %s" % ("empty file" if os.path.getsize(path) == 0
                                           else "could not be decoded")


# ---- videos ---------------------------------------------------------------------------------

def video_frames(path, fps=VIDEO_FPS):
    """The frames of a video, fps a second, as grey numpy arrays, scaled down to at most
    VIDEO_WIDTH_MAX wide (ffmpeg turns them upright as the file says). Unreadable when ffmpeg
    reads not a frame of it, DamagedVideo at the end when it found errors after some; PhotoError
    without ffmpeg."""
    import numpy
    if shutil.which(FFMPEG) is None:
        raise PhotoError("%s is neither a picture nor, without ffmpeg, a video (Debian's ffmpeg: "
                         "tools/deps.sh installs it)" % path)
    proc = subprocess.Popen(
        [FFMPEG, "-v", "error", "-nostdin", "-i", path, "-vf",
         "fps=%g,scale='min(%d,iw)':-2" % (fps, VIDEO_WIDTH_MAX), "-f", "image2pipe", "-c:v",
         "pgm", "-"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    frames = 0
    try:
        while True:
            header = _pgm_header(proc.stdout)
            if header is None:
                break
            width, height = header
            data = proc.stdout.read(width * height)
            if len(data) < width * height:
                break
            frames += 1
            yield numpy.frombuffer(data, numpy.uint8).reshape(height, width)
    finally:
        proc.stdout.close()
        error = proc.stderr.read().decode("utf-8", "replace").strip()
        proc.stderr.close()
        status = proc.wait()
    # What ffmpeg says is for its own readers (`Error marking filters as finished`): the person
    # who gave the file is told what it is, in words.
    # ffmpeg ends a video cut short (a copy that failed part way) with status 0 or not, but says
    # an error (at -v error it says nothing else).
    if not frames:
        raise Unreadable(unreadable_reason(path))
    if status != 0 or error:
        raise DamagedVideo(frames)


class DamagedVideo(Exception):
    """A video of which parts could not be decoded (one cut short): the codes of the frames that
    could are kept."""

    def __init__(self, frames):
        super().__init__("a damaged video: parts of it could not be decoded (%s read)" % plural(
            frames, "frame"))


def _pgm_header(stream):
    """(width, height) of the next binary PGM (P5, maxval 255) on the stream; None at its end."""
    fields = []
    while len(fields) < 4:
        token = b""
        while True:
            c = stream.read(1)
            if not c:
                return None
            if c.isspace():
                if token:
                    break
                continue
            token += c
        fields.append(token)
    if fields[0] != b"P5" or fields[3] != b"255":
        raise PhotoError("ffmpeg gave frames of another kind (%r)" % fields)
    return int(fields[1]), int(fields[2])


def codes_in_video(path, have, fps=VIDEO_FPS):
    """The texts read in a video's frames, each once: zxing-cpp on every frame, zbar on a frame
    where zxing-cpp left a page incomplete or found nothing, as long as some code of the run is
    still missing (have: texts already read); no frame more once every code of a run is read.
    Returns (texts, frames read, None or what is wrong with the video)."""
    texts, seen, frames = [], set(have), [0]
    try:
        _read_frames(path, fps, texts, seen, frames)
    except DamagedVideo as e:
        return texts, frames[0], str(e)
    return texts, frames[0], None


def _read_frames(path, fps, texts, seen, frames):
    """codes_in_video's reading, adding to texts, seen and frames[0] as it goes."""
    from PIL import Image
    work = tempfile.mkdtemp(prefix="pmu-video-")
    try:
        for frame in video_frames(path, fps):
            frames[0] += 1
            found = zxing_texts(frame) if zxing_available() else []
            if zbar_available() and incomplete(found) and not _complete(seen | set(found)):
                still = os.path.join(work, "frame.pgm")
                Image.fromarray(frame).save(still)
                found += [t for t in zbar_texts(still) if t not in found]
            for text in found:
                if text not in seen:
                    seen.add(text)
                    texts.append(text)
            if _complete(seen):
                break
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _complete(texts):
    """Whether the texts hold every code of a run."""
    numbers = {}
    for text in texts:
        place = place_of(text)
        if place is not None:
            numbers.setdefault(place[0], set()).add(place[1])
            if len(numbers[place[0]]) == place[2]:
                return True
    return False


def plural_numbers(numbers):
    """[4] -> "4", [4, 7] -> "4 and 7", [2, 4, 7] -> "2, 4 and 7"."""
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


class Assembly:
    """The codes found, the run they belong to, what is missing, and the rebuilt log."""

    def __init__(self):
        self.pictures = 0
        self.videos = []          # (path, frames sampled, distinct codes read)
        self.codes_seen = 0       # every code read, duplicates and strangers included
        self.chunks = {}          # number -> Chunk, of the run chosen
        self.run_id = None
        self.total = None
        self.per_page = None
        self.flags = 0
        self.problems = []        # codes that failed their checks, other runs, conflicts
        self.empty = []           # pictures and videos without any code
        self.damaged = []         # (path, what is wrong): pictures and videos read in part
        self.unreadable = []      # (path, why): files of a folder that are neither
        self.notes = []           # what the kernel says the codes leave out
        self.log = ""
        self.seqs = {}            # number -> the record numbers its code carries, in order

    # ---- what the records read lack, for pmu_records.parse(text, origin=...) ------------------
    @property
    def left_out(self):
        """The record numbers the kernel left out of its codes on purpose (the priority cut,
        named in the codes' flags and note), as (first, last) spans: a jump in the numbering
        inside a code, or between two codes read one after the other. Without the flag every
        number is in some code, and a jump is damage."""
        if not self.flags & FLAG_LEFT_OUT:
            return []
        spans = []
        for number, seqs in sorted(self.seqs.items()):
            after = self.seqs.get(number + 1)
            ends = seqs + after[:1] if after else seqs
            spans += [(a + 1, b - 1) for a, b in zip(ends, ends[1:]) if b > a + 1]
        return spans

    def _unread_around(self, seq):
        """The codes not read between the last read code that carries numbers below seq and the
        first that carries numbers above it (None: seq is past every code read)."""
        below = [n for n, s in self.seqs.items() if s and s[-1] < seq]
        above = [n for n, s in self.seqs.items() if s and s[0] > seq]
        first = max(below) + 1 if below else 1
        last = min(above) - 1 if above else self.total
        return list(range(first, last + 1)) if first <= last else []

    def carried_by(self, seq):
        """(place, words) of the codes that carried record seq and were not read, for a reader
        who has the photos and not the rebuilt log: ("code 13", "code 13 of 30 (page 13 of
        30), not read"); None when no unread code is around it."""
        numbers = self._unread_around(seq)
        if not numbers:
            return None
        place = "code %d" % numbers[0] if len(numbers) == 1 else \
            "codes %d-%d" % (numbers[0], numbers[-1])
        return place, "%s, not read" % self._codes_words(numbers)

    def _codes_words(self, numbers):
        """'codes 4 and 7 of 16 (pages 2 and 4 of 8)'; issue 19's codes, one a page, 'records 4
        and 7 of 11'."""
        if not self.per_page:
            return "records %s of %d" % (plural_numbers(numbers), self.total)
        pages = sorted({(n - 1) // self.per_page + 1 for n in numbers})
        all_pages = (self.total + self.per_page - 1) // self.per_page
        return "code%s %s of %d (page%s %s of %d)" % (
            "s" if len(numbers) > 1 else "", plural_numbers(numbers), self.total,
            "s" if len(pages) > 1 else "", plural_numbers(pages), all_pages)

    def missing(self):
        return [n for n in range(1, (self.total or 0) + 1) if n not in self.chunks]

    def no_code(self):
        """What the photos held when no code of a run was read, in words: 'no pmu-testkernel QR
        code in the 1 picture read: no QR code at all in it; ...'."""
        read = plural(self.pictures, "picture") if self.pictures or not self.videos else ""
        if self.videos:
            read += (" and " if read else "") + plural(len(self.videos), "video")
        one = self.pictures + len(self.videos) == 1
        if not self.codes_seen:
            found = "no QR code at all in %s" % ("it" if one else "them")
        else:
            found = "%s read, none of them a code of a pmu-testkernel run" % plural(
                self.codes_seen, "QR code")
        return "no pmu-testkernel QR code in the %s read: %s; photograph or film the pages of " \
            "codes the screen shows when the run ends (docs/qr-codes.md)" % (read, found)

    def summary(self):
        """The photo check, in lines, as pmu-report prints it before the log check."""
        out = ["Photos: %s%s, %s read" % (
            plural(self.pictures, "picture"),
            ", " + plural(len(self.videos), "video") if self.videos else "",
            plural(self.codes_seen, "code"))]
        for path, frames, codes in self.videos:
            out.append("  %s: %s read, %s" % (path, plural(frames, "frame"),
                                              plural(codes, "distinct code")))
        if self.run_id is None:
            out.append("  " + self.no_code())
        else:
            out.append("  run %08x: %d of %s%s" % (
                self.run_id, len(self.chunks), plural(self.total, "code"),
                " (the kernel left records out to fit the screen)"
                if self.flags & FLAG_LEFT_OUT else ""))
        missing = self.missing()
        if missing:
            out.append("  %s not found: %s" % (self._codes_words(missing),
                                                "film or photograph it again"
                                                if len(missing) == 1 else
                                                "film or photograph them again"))
        for note in self.notes:
            out.append("  not in the codes: " + note)
        for picture in self.empty:
            out.append("  %s: no QR code found" % picture)
        for picture, damage in self.damaged:
            out.append("  %s: %s" % (picture, damage))
        for path, why in self.unreadable:
            out.append("  %s: %s; skipped" % (path, why))
        out.extend("  " + p for p in self.problems)
        return out


def assemble(texts_by_picture):
    """An Assembly from [(picture, [code text, ...]), ...], of the run chosen_run() chooses; the
    codes of the other runs are named and set aside."""
    a = Assembly()
    by_run, last_seen = {}, {}
    for k, (picture, texts) in enumerate(texts_by_picture):
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
            last_seen[chunk.run_id] = k
    if not by_run:
        return a
    a.run_id = chosen_run(by_run, last_seen)
    a.problems.extend(_other_runs(by_run, a.run_id))
    for chunk in by_run[a.run_id]:
        _take(a, chunk)
    a.log = rebuild_log([a.chunks[n] for n in sorted(a.chunks)], a.notes, a.seqs)
    return a


def _run_state(chunks):
    """(distinct codes read, codes the run has, whether every one was read) of a run's chunks
    (the total of its first code: a code saying otherwise is set aside by _take)."""
    numbers = {c.number for c in chunks if c.total == chunks[0].total}
    return len(numbers), chunks[0].total, len(numbers) == chunks[0].total


def chosen_run(by_run, last_seen):
    """The run the photos are read as, of {run id: [Chunk, ...]} (last_seen: the place of the
    last picture holding a run's code, in the order given, which is name order in a folder): a
    complete run before any incomplete one, since
    a run with every code read is a whole log and an incomplete one is not, however many codes
    it has; among complete runs the one with the most codes (the longest log: most likely the
    run the reader meant, the other a short test run), and among equals the one photographed
    last (a phone names its photos in the order it takes them); without a complete run, the one
    with the most codes read, as its missing codes can be photographed again."""
    def rank(run_id):
        read, total, complete = _run_state(by_run[run_id])
        return (complete, total if complete else read, last_seen[run_id])
    return max(by_run, key=rank)


def _other_runs(by_run, chosen):
    """The lines naming the runs set aside: what each had, and, when several were complete, that
    the photos held more than one whole run and which one is reported."""
    lines = []
    complete = [r for r in by_run if _run_state(by_run[r])[2]]
    for run_id, chunks in by_run.items():
        if run_id == chosen:
            continue
        read, total, whole = _run_state(chunks)
        lines.append("%s of another run (%08x: %d of %s%s) ignored: %s" % (
            plural(len(chunks), "code"), run_id, read, plural(total, "code"),
            ", complete" if whole else "", ", ".join(sorted({c.source for c in chunks}))))
    if len(complete) > 1:
        lines.append("%d complete runs in these photos (%s): run %08x is reported (the most "
                     "codes, then the last photographed); give each run's photos alone to read "
                     "another" % (len(complete), ", ".join("%08x" % r for r in complete),
                                  chosen))
    return lines


def _take(a, chunk):
    """One chunk of the chosen run; a repeat must say the same."""
    if a.total is None:
        a.total = chunk.total
        a.per_page = chunk.per_page
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


def rebuild_log(chunks, notes, seqs=None):
    """The record lines of the chunks, in order, as the serial port carried them (seqs, when
    given, gets each chunk's record numbers by its number)."""
    out = []
    for chunk in chunks:
        seq = None
        carried = [] if seqs is None else seqs.setdefault(chunk.number, [])
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
            carried.append(seq)
    return "".join(line + "\n" for line in out)


def read(paths, fps=VIDEO_FPS, in_folder=()):
    """Decode every picture and video and assemble the log. A file that is neither (in_folder:
    one found in a folder) is named and the rest read; PhotoError for one given by itself, when
    no file at all could be read, or when no decoder is installed."""
    if not zxing_available() and not zbar_available():
        raise PhotoError("neither zxing-cpp nor zbar is installed (Debian's python3-zxing-cpp "
                         "and zbar-tools: tools/deps.sh installs them)")
    pictures, videos, seen, damaged, unreadable = [], [], [], [], []
    for path in paths:
        try:
            texts, frames, damage = _read_file(path, seen, fps)
        except Unreadable as e:
            if path not in in_folder:
                raise PhotoError("%s: %s" % (path, e)) from None
            unreadable.append((path, str(e)))
            continue
        if frames is not None:
            videos.append((path, frames, len(texts)))
        if damage:
            part = "the frames decoded" if frames is not None else "the part that is there"
            damaged.append((path, "%s; %s" % (damage, "%s read from %s" % (
                plural(len(texts), "code"), part) if texts else "no QR code found in " + part)))
        pictures.append((path, texts))
        seen += texts
    if not pictures:
        raise PhotoError("not one picture or video could be read: %s" % "; ".join(
            "%s: %s" % u for u in unreadable))
    a = assemble(pictures)
    a.pictures -= len(videos)
    a.videos = videos
    a.damaged = damaged
    a.unreadable = unreadable
    a.empty = [p for p in a.empty if p not in dict(damaged)]
    return a


def _read_file(path, seen, fps):
    """(texts, frames sampled or None for a picture, None or what is wrong with the file) of one
    picture or video; Unreadable when it is neither."""
    if not os.path.isfile(path):
        raise PhotoError("%s: no such file" % path)
    if os.path.getsize(path) == 0:
        raise Unreadable(unreadable_reason(path))
    if is_picture(path):
        texts, damage = picture_codes(path)
        return texts, None, damage
    return codes_in_video(path, seen, fps)


def pictures(folder):
    """The pictures and videos of a folder (PICTURE_EXTENSIONS), in name order."""
    return sorted(os.path.join(folder, n) for n in os.listdir(folder)
                  if n.lower().endswith(PICTURE_EXTENSIONS)
                  and os.path.isfile(os.path.join(folder, n)))


def files_of(paths):
    """The files to read: a file as it is, a folder as its pictures and videos in name order;
    PhotoError for a folder without any."""
    files = []
    for path in paths:
        if not os.path.isdir(path):
            files.append(path)
            continue
        found = pictures(path)
        if not found:
            raise PhotoError("%s: a folder without pictures or videos (%s)" % (
                path, ", ".join(PICTURE_EXTENSIONS[:4]) + ", ..."))
        files.extend(found)
    return files


def read_photos(paths):
    """Decode every picture and video (a folder: those in it, where a file that is neither is
    named and the rest read) and assemble the log: read() at its default rate."""
    in_folder = {p for path in paths if os.path.isdir(path) for p in pictures(path)}
    return read(files_of(paths), in_folder=in_folder)
