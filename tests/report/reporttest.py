"""What the pmu-report tests share: paths, the tool's modules, running the tool, temporary
folders, and a small PNG reader to check that the plots are real images."""

import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TOOLS = os.path.join(REPO, "tools")
TOOL = os.path.join(TOOLS, "pmu-report")
DATA = os.path.join(HERE, "data")

for path in (HERE, TOOLS):
    if path not in sys.path:
        sys.path.insert(0, path)

import pmu_records  # noqa: E402
import pmu_model  # noqa: E402


def lost(stream):
    """The lost or rejected record numbers of a stream, one by one (for small logs)."""
    return [seq for first, last in stream.lost_spans() for seq in range(first, last + 1)]


def build(log, **render_args):
    """The Report of a fixture Log, through the same parser the tool uses."""
    return pmu_model.build(pmu_records.parse(log.render(**render_args)), source="test.log")


class ToolRun:
    def __init__(self, proc, out_dir):
        self.code = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        self.out_dir = out_dir

    def path(self, name):
        return os.path.join(self.out_dir, name)


class TempDirCase(unittest.TestCase):
    """Each test gets its own folder, removed afterwards."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pmu-report-test-")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def write_log(self, log, name="serial.log", **render_args):
        return write_log(self.tmp, log, name, **render_args)

    def run_tool(self, *args, **kwargs):
        return run_tool(self.tmp, *args, **kwargs)


def write_log(folder, log, name="serial.log", **render_args):
    return log.write(os.path.join(folder, name), **render_args)


def run_tool(folder, *args, env=None, stdin=None, out=None):
    """Run tools/pmu-report as a user would (through its #! line), with --out in `folder`
    unless `out` says otherwise, without a display."""
    out_dir = out or os.path.join(folder, "results")
    full_env = dict(os.environ)
    full_env.pop("DISPLAY", None)  # it must work without a display
    full_env["MPLCONFIGDIR"] = os.path.join(folder, "mplconfig")
    if env:
        full_env.update(env)
    proc = subprocess.run([TOOL, "--out", out_dir] + list(args), capture_output=True,
                          text=True, env=full_env, input=stdin, timeout=120)
    return ToolRun(proc, out_dir)


def matplotlib_available():
    """Whether the interpreter of the tool's #! line has matplotlib."""
    interpreter = open(TOOL).readline()[2:].strip()
    return subprocess.run([interpreter, "-c", "import matplotlib"],
                          capture_output=True).returncode == 0


# ---- PNG ----------------------------------------------------------------------------------------

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Png:
    """A PNG file read with the standard library: every chunk's CRC checked, the image data
    inflated and its size checked against the header."""

    def __init__(self, path):
        with open(path, "rb") as f:
            data = f.read()
        if data[:8] != PNG_SIGNATURE:
            raise ValueError("no PNG signature")
        self.chunks = []
        pos = 8
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
            if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
                raise ValueError("bad CRC in chunk %r" % kind)
            self.chunks.append((kind, body))
            pos += 12 + length
        if self.chunks[0][0] != b"IHDR" or self.chunks[-1][0] != b"IEND":
            raise ValueError("IHDR/IEND missing")
        (self.width, self.height, self.bit_depth, self.colour_type,
         _, _, interlace) = struct.unpack(">IIBBBBB", self.chunks[0][1])
        if self.bit_depth != 8 or self.colour_type not in (2, 6) or interlace:
            raise ValueError("not 8-bit RGB(A), non-interlaced")
        self.bpp = 4 if self.colour_type == 6 else 3
        self.scanlines = zlib.decompress(b"".join(b for k, b in self.chunks if k == b"IDAT"))
        if len(self.scanlines) != self.height * (1 + self.width * self.bpp):
            raise ValueError("image data does not match the header's size")

    def pixels(self):
        """The RGB colour of every pixel, as bytes objects (undoing the PNG row filters)."""
        stride = self.width * self.bpp
        prev = bytearray(stride)
        colours = []
        raw = self.scanlines
        for y in range(self.height):
            start = y * (stride + 1)
            line = _unfilter(raw[start], bytearray(raw[start + 1:start + 1 + stride]), prev,
                             self.bpp)
            colours.extend(bytes(line[x:x + 3]) for x in range(0, stride, self.bpp))
            prev = line
        return colours


def _unfilter(kind, line, prev, bpp):
    if kind == 1:
        for x in range(bpp, len(line)):
            line[x] = (line[x] + line[x - bpp]) & 0xFF
    elif kind == 2:
        line = bytearray((a + b) & 0xFF for a, b in zip(line, prev))
    elif kind == 3:
        for x in range(len(line)):
            left = line[x - bpp] if x >= bpp else 0
            line[x] = (line[x] + (left + prev[x]) // 2) & 0xFF
    elif kind == 4:
        for x in range(len(line)):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
    return line
