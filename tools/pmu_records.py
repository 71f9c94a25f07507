"""Read and check the kernel's record stream.

Every machine-readable line the kernel prints is

    @<seq> <crc32> <json>

where <seq> counts from 0 without gaps, <crc32> is 8 lowercase hex digits of the IEEE CRC-32
(zlib's) of the <json> bytes, and <json> is one JSON object with a "type". The first record is
"boot", the last is "end" with "records" (how many came before it) and "verdict". Anything else on
the console (the human-readable text, firmware and GRUB output) is ignored.

Used by tools/pmu-report, tools/qemu-run and the QEMU test driver, so that every reader checks a
log the same way.
"""

import json
import re
import zlib

# The record may follow other text on the same line (firmware output left without a newline), so
# search for it rather than anchor it at the start; it always runs to the end of the line.
RECORD_RE = re.compile(r"@(\d+) ([0-9a-f]{8}) (\{.*\})$")
# Something that starts like a record but does not parse is reported as garbled.
RECORD_START_RE = re.compile(r"(?:^|[^\w@])@\d")
ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b[=>]")


class Record:
    """One record that parsed and whose CRC matched."""

    def __init__(self, seq, crc, text, obj, line_no):
        self.seq = seq
        self.crc = crc
        self.text = text
        self.obj = obj
        self.line_no = line_no

    @property
    def type(self):
        return self.obj.get("type")

    def get(self, key, default=None):
        return self.obj.get(key, default)

    def __getitem__(self, key):
        return self.obj[key]

    def __repr__(self):
        return "Record(@%d %s)" % (self.seq, self.text[:60])


class Problem:
    """Something wrong with the stream: kind is one of
    garbled, crc, json, gap, duplicate, order, no_records, no_boot, no_end, end_count, after_end."""

    def __init__(self, kind, detail, line_no=None, seq=None):
        self.kind = kind
        self.detail = detail
        self.line_no = line_no
        self.seq = seq

    def __str__(self):
        where = "line %d: " % self.line_no if self.line_no is not None else ""
        return "%s%s: %s" % (where, self.kind, self.detail)

    __repr__ = __str__


class Stream:
    """The result of reading a log: the good records in order and the problems found."""

    def __init__(self):
        self.records = []
        self.problems = []
        self.text_lines = 0

    def of_type(self, type_name):
        return [r for r in self.records if r.type == type_name]

    def first(self, type_name):
        for r in self.records:
            if r.type == type_name:
                return r
        return None

    @property
    def boot(self):
        return self.first("boot")

    @property
    def end(self):
        ends = self.of_type("end")
        return ends[-1] if ends else None

    @property
    def ok(self):
        return not self.problems

    def lost_seqs(self):
        """Sequence numbers of records that are missing or were rejected (CRC, JSON, garbled)."""
        lost = []
        for p in self.problems:
            if p.kind == "gap":
                lost.extend(range(p.seq[0], p.seq[1] + 1))
            elif p.kind in ("crc", "json") and p.seq is not None:
                lost.append(p.seq)
        return sorted(set(lost))


def crc32_hex(text):
    return "%08x" % (zlib.crc32(text.encode("utf-8", "surrogateescape")) & 0xFFFFFFFF)


def _clean(line):
    line = ANSI_RE.sub("", line)
    return line.rstrip("\r\n").rstrip("\r").strip("\x00")


def parse(text):
    """Parse a whole log (str). Returns a Stream."""
    stream = Stream()
    good = []
    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = _clean(raw)
        m = RECORD_RE.search(line)
        if not m:
            if RECORD_START_RE.search(line):
                stream.problems.append(
                    Problem("garbled", "unparsable record line: %r" % line[:120], line_no))
            else:
                stream.text_lines += 1
            continue
        seq = int(m.group(1))
        crc = m.group(2)
        body = m.group(3)
        if crc32_hex(body) != crc:
            stream.problems.append(
                Problem("crc", "record @%d: CRC %s does not match its JSON (%s)"
                        % (seq, crc, crc32_hex(body)), line_no, seq))
            continue
        try:
            obj = json.loads(body)
        except ValueError as e:
            stream.problems.append(Problem("json", "record @%d: %s" % (seq, e), line_no, seq))
            continue
        if not isinstance(obj, dict) or "type" not in obj:
            stream.problems.append(
                Problem("json", "record @%d: not an object with a \"type\"" % seq, line_no, seq))
            continue
        good.append(Record(seq, crc, body, obj, line_no))

    # Sequence: from 0, no gaps, no repeats. Rejected records show up as gaps here too, so the
    # gap problems say exactly which numbers are missing from the good stream.
    expected = 0
    seen = set()
    rejected = {p.seq for p in stream.problems if p.seq is not None}
    for r in good:
        if r.seq in seen:
            stream.problems.append(
                Problem("duplicate", "record @%d appears twice" % r.seq, r.line_no, r.seq))
            continue
        if r.seq < expected:
            stream.problems.append(
                Problem("order", "record @%d after @%d" % (r.seq, expected - 1), r.line_no, r.seq))
            continue
        if r.seq > expected:
            missing = [s for s in range(expected, r.seq) if s not in rejected]
            if missing:
                stream.problems.append(_gap_problem(missing, r))
        seen.add(r.seq)
        stream.records.append(r)
        expected = r.seq + 1

    if not stream.records:
        stream.problems.append(Problem("no_records", "no record found in the log"))
        return stream
    if stream.records[0].type != "boot" or stream.records[0].seq != 0:
        stream.problems.append(
            Problem("no_boot", "the first record is %s @%d, not boot @0"
                    % (stream.records[0].type, stream.records[0].seq)))
    end = stream.end
    if end is None:
        stream.problems.append(
            Problem("no_end", "no end record: the log stops after @%d (%s)"
                    % (stream.records[-1].seq, stream.records[-1].type)))
    else:
        if end is not stream.records[-1]:
            stream.problems.append(
                Problem("after_end", "records after the end record (@%d)" % end.seq))
        if end.get("records") != end.seq:
            stream.problems.append(
                Problem("end_count", "end record says %r records before it, its sequence number "
                        "is %d" % (end.get("records"), end.seq), end.line_no, end.seq))
    return stream


def _gap_problem(missing, next_record):
    ranges = []
    start = prev = missing[0]
    for s in missing[1:]:
        if s != prev + 1:
            ranges.append((start, prev))
            start = s
        prev = s
    ranges.append((start, prev))
    text = ", ".join("@%d" % a if a == b else "@%d-@%d" % (a, b) for a, b in ranges)
    # Rejected records (CRC, JSON) may sit inside the span; lost_seqs() merges both lists.
    return Problem("gap", "missing %s (before @%d, line %d)" % (text, next_record.seq,
                                                                 next_record.line_no),
                   next_record.line_no, (missing[0], missing[-1]))


def parse_file(path):
    with open(path, "rb") as f:
        data = f.read()
    return parse(data.decode("utf-8", "replace"))
