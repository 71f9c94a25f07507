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

import bisect
import json
import re
import zlib

# The record may follow other text on the same line (firmware output left without a newline), so
# search for it rather than anchor it at the start; it always runs to the end of the line.
RECORD_RE = re.compile(r"@(\d+) ([0-9a-f]{8}) (\{.*\})$")
# Something that starts like a record but does not parse is reported as garbled.
RECORD_START_RE = re.compile(r"(?:^|[^\w@])@\d")
# The sequence number of a garbled record, when its digits survived: they must be followed by the
# space, so that a line cut inside the number ("@5" of "@57") names no number at all.
GARBLED_SEQ_RE = re.compile(r"(?:^|[^\w@])@(\d+) ")
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
    garbled, crc, json, gap, duplicate, order, no_records, no_boot, no_end, end_count, after_end.

    seq is the sequence number concerned, or None when it is unknown (a garbled line whose number
    did not survive, or whose number does not fit between its neighbours); for a gap it is the
    pair (first, last) of the span, which may hold rejected or late records too."""

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
        # Intact records that are not in `records`: those that came after a higher number (late)
        # and repeats of a number already seen (duplicates). Each also has a Problem.
        self.late = []
        self.duplicates = []

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
        """Sequence numbers of records that are missing or were rejected (CRC, JSON, garbled),
        less any that also arrived intact (late or repeated)."""
        lost = set()
        for p in self.problems:
            if p.kind == "gap":
                lost.update(range(p.seq[0], p.seq[1] + 1))
            elif p.kind in REJECTED_KINDS and p.seq is not None:
                lost.add(p.seq)
        return sorted(lost - self.received_seqs())

    def received_seqs(self):
        """Sequence numbers that arrived intact at least once, in order or not."""
        return {r.seq for r in self.records} | {r.seq for r in self.late}

    def rejected(self):
        """The problems of records that were seen but not accepted (CRC, JSON, garbled)."""
        return [p for p in self.problems if p.kind in REJECTED_KINDS]

    def usable_records(self):
        """Every intact record once, in sequence order: `records` plus the late ones. A reader
        that only wants data (the report) uses these; the order checks have been made already."""
        return sorted(self.records + self.late, key=lambda r: r.seq)


# Problems of records that were seen on a line but rejected.
REJECTED_KINDS = ("garbled", "crc", "json")


def crc32_hex(text):
    return "%08x" % (zlib.crc32(text.encode("utf-8", "surrogateescape")) & 0xFFFFFFFF)


def _clean(line):
    line = ANSI_RE.sub("", line)
    return line.rstrip("\r\n").rstrip("\r").strip("\x00")


def parse(text):
    """Parse a whole log (str). Returns a Stream."""
    stream = Stream()
    good = []
    for line_no, raw in enumerate(_lines(text), start=1):
        line = _clean(raw)
        m = RECORD_RE.search(line)
        if not m:
            if RECORD_START_RE.search(line):
                seq_m = GARBLED_SEQ_RE.search(line)
                seq = int(seq_m.group(1)) if seq_m else None
                stream.problems.append(
                    Problem("garbled", "%sunparsable record line: %r"
                            % ("" if seq is None else "record @%d: " % seq, line[:120]),
                            line_no, seq))
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

    _check_rejected_seqs(stream.problems, good)
    _check_sequence(stream, good)
    if not stream.records:
        stream.problems.append(Problem("no_records", "no record found in the log"))
        return stream
    _check_boot_and_end(stream)
    return stream


def _lines(text):
    """The log's lines, split at LF only, so that line numbers are those an editor or `grep -n`
    shows: a lone CR (GRUB redraws its menu with them) or a form feed stays inside its line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _check_rejected_seqs(problems, good):
    """A rejected record's sequence number is outside its CRC and may be damaged too: keep it
    only when it fits between the intact records around that line; otherwise say it is unknown,
    so that it neither hides a real gap nor names a record that arrived intact."""
    good_lines = [r.line_no for r in good]  # ascending: `good` is in line order
    for p in problems:
        if p.kind not in REJECTED_KINDS or p.seq is None:
            continue
        i = bisect.bisect_left(good_lines, p.line_no)  # good[i] is the first intact one after
        low = good[i - 1].seq if i > 0 else -1
        high = good[i].seq if i < len(good) else None
        if p.seq <= low or (high is not None and p.seq >= high):
            p.detail += " (its number @%d does not fit here, so which record it was is unknown)" \
                % p.seq
            p.seq = None


def _check_sequence(stream, good):
    """Sequence: from 0, no gaps, no repeats. A gap names only the numbers that never arrived:
    neither rejected on some line (those have their own problem) nor intact later out of order."""
    expected = 0
    seen = set()
    accounted = {p.seq for p in stream.problems if p.seq is not None}
    accounted |= {r.seq for r in good}
    previous = None
    for r in good:
        if r.seq in seen:
            stream.duplicates.append(r)
            stream.problems.append(
                Problem("duplicate", "record @%d appears twice" % r.seq, r.line_no, r.seq))
            continue
        seen.add(r.seq)
        if r.seq < expected:
            stream.late.append(r)
            stream.problems.append(
                Problem("order", "record @%d arrived late, after @%d" % (r.seq, expected - 1),
                        r.line_no, r.seq))
            continue
        if r.seq > expected:
            missing = [s for s in range(expected, r.seq) if s not in accounted]
            if missing:
                stream.problems.append(_gap_problem(missing, previous, r))
        stream.records.append(r)
        previous = r
        expected = r.seq + 1


def _check_boot_and_end(stream):
    if stream.records[0].type != "boot" or stream.records[0].seq != 0:
        stream.problems.append(
            Problem("no_boot", "the first record is %s @%d, not boot @0"
                    % (stream.records[0].type, stream.records[0].seq)))
    end = stream.end
    if end is None:
        stream.problems.append(
            Problem("no_end", "no end record: the log stops after @%d (%s)"
                    % (stream.records[-1].seq, stream.records[-1].type)))
        return
    if end is not stream.records[-1]:
        stream.problems.append(
            Problem("after_end", "records after the end record (@%d)" % end.seq))
    if end.get("records") != end.seq:
        stream.problems.append(
            Problem("end_count", "end record says %r records before it, its sequence number "
                    "is %d" % (end.get("records"), end.seq), end.line_no, end.seq))


def fmt_seqs(seqs):
    """[3, 4, 5, 9] -> '@3-@5, @9' (ascending sequence numbers)."""
    if not seqs:
        return "none"
    parts = []
    start = prev = seqs[0]
    for s in list(seqs[1:]) + [None]:
        if s is not None and s == prev + 1:
            prev = s
            continue
        parts.append("@%d" % start if start == prev else "@%d-@%d" % (start, prev))
        start = prev = s
    return ", ".join(parts)


def _gap_problem(missing, previous, next_record):
    text = fmt_seqs(missing)
    where = "before @%d on line %d" % (next_record.seq, next_record.line_no)
    if previous is not None:
        where = "between @%d on line %d and @%d on line %d" % (
            previous.seq, previous.line_no, next_record.seq, next_record.line_no)
    # Rejected records (CRC, JSON) may sit inside the span; lost_seqs() merges both lists.
    return Problem("gap", "missing %s (%s)" % (text, where),
                   next_record.line_no, (missing[0], missing[-1]))


def parse_file(path):
    with open(path, "rb") as f:
        data = f.read()
    return parse(data.decode("utf-8", "replace"))
