"""Read and check the kernel's record stream.

Every machine-readable line the kernel prints is

    @<seq> <crc32> <json>

where <seq> counts from 0 without gaps, <crc32> is 8 lowercase hex digits of the IEEE CRC-32
(zlib's) of the <json> bytes, and <json> is one JSON object with a "type". The first record is
"boot", the last is "end" with "records" (how many came before it) and "verdict". Anything else on
the console (the human-readable text, firmware and GRUB output) is ignored. Every record's keys
are checked against the contract (pmu_schema.py): each key missing or wrong is a problem
("contract") on the record's line, which leaves the log intact but not to contract.

Used by tools/pmu-report, tools/qemu-run and the QEMU test driver, so that every reader checks a
log the same way. Reading is linear in the size of the log, whatever its line ends.
"""

import bisect
import json
import re
import zlib

import pmu_schema

# The envelope. A record may follow other text on its line (firmware output left without a
# newline), so it is searched for; it runs to the end of its line. The body is found without a
# `.*` (which would rescan the rest of the line from every "@": quadratic on a long line).
# A sequence number has at most 20 digits (2^64), which also keeps int() linear.
ENVELOPE_RE = re.compile(r"@(\d{1,20}) ([0-9a-f]{8}) (?=\{)")
# The same as one expression, for readers that test a short line (tools/qemu-run's echo).
RECORD_RE = re.compile(r"@(\d{1,20}) ([0-9a-f]{8}) (\{.*\})$")
# Something that starts like a record but does not parse is reported as garbled.
RECORD_START_RE = re.compile(r"(?:^|[^\w@])@\d")
# The sequence number of a garbled record, when its digits survived: they must be followed by the
# space, so that a line cut inside the number ("@5" of "@57") names no number at all.
GARBLED_SEQ_RE = re.compile(r"(?:^|[^\w@])@(\d{1,20}) ")
ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b[=>]")


class Record:
    """One record that parsed and whose CRC matched. `obj` holds the keys that keep the contract
    (pmu_schema.py); `usable` is false when one the record cannot be placed without is missing."""

    def __init__(self, seq, crc, text, obj, line_no):
        self.seq = seq
        self.crc = crc
        self.text = text
        self.obj = obj
        self.line_no = line_no
        self.usable = True
        self.position = None  # its place among the pieces of the log (lines(), CR-cut)

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
    garbled, crc, json, gap, duplicate, order, no_records, no_boot, boot_again, no_end,
    end_count, after_end: the log is damaged (a record lost, changed or misplaced); contract: an
    intact record breaks docs/records.md (a key missing, a value of the wrong type or range).

    seq is the sequence number concerned, or None when it is unknown (a garbled line whose number
    did not survive, or whose number does not fit between its neighbours); for a gap it is the
    pair (first, last) of the span, which may hold rejected or late records too, and `spans` are
    the exact ranges of numbers that never arrived."""

    def __init__(self, kind, detail, line_no=None, seq=None, spans=()):
        self.kind = kind
        self.detail = detail
        self.line_no = line_no
        self.seq = seq
        self.spans = list(spans)
        self.position = None  # for a rejected record: its place in the log, as Record's
        # Where a reader finds it when a line of the log is not that (records read from photos:
        # "code 13"), else None.
        self.place = None

    def __str__(self):
        where = "%s: " % self.place if self.place else \
            "line %d: " % self.line_no if self.line_no is not None else ""
        return "%s%s: %s" % (where, self.kind, self.detail)

    __repr__ = __str__


# Problems of records that were seen on a line but rejected.
REJECTED_KINDS = ("garbled", "crc", "json")
# The problem of an intact record that breaks the contract: the log is not damaged by it.
CONTRACT = "contract"


class Stream:
    """The result of reading a log: the good records in order and the problems found."""

    def __init__(self):
        self.records = []
        self.problems = []
        self.text_lines = 0
        # Lines that held a whole envelope `@<seq> <crc32> {...}`, intact or not: a log without
        # one is not a pmu-testkernel log at all (pmu-report's exit status 4).
        self.envelopes = 0
        # Intact records that are not in `records`: those that came after a higher number (late)
        # and repeats of a number already seen (duplicates). Each also has a Problem.
        self.late = []
        self.duplicates = []
        # Numbers the writer left out on purpose (the kernel's QR codes, when they cannot hold
        # every record), as (first, last) spans: no damage, and not lost; with what it said.
        self.left_out = []
        self.left_out_note = ""

    def of_type(self, type_name):
        return [r for r in self.records if r.type == type_name and r.usable]

    def first(self, type_name):
        found = self.of_type(type_name)
        return found[0] if found else None

    @property
    def boot(self):
        return self.first("boot")

    @property
    def end(self):
        """The end record, when it is the last record of the stream."""
        if self.records and self.records[-1].type == "end" and self.records[-1].usable:
            return self.records[-1]
        return None

    @property
    def ok(self):
        """Complete, intact and to contract."""
        return not self.problems

    def damage(self):
        """The problems of the log itself: records lost, changed, repeated or misplaced."""
        return [p for p in self.problems if p.kind != CONTRACT]

    def breaches(self):
        """The problems of intact records that break the contract, a key each."""
        return [p for p in self.problems if p.kind == CONTRACT]

    def unknown(self):
        """The intact records of types the contract does not list, in sequence order."""
        return [r for r in self.usable_records() if r.type not in pmu_schema.RECORDS]

    def received_seqs(self):
        """Sequence numbers that arrived intact at least once, in order or not."""
        return {r.seq for r in self.records} | {r.seq for r in self.late}

    def lost_spans(self):
        """The sequence numbers of records that are missing or were rejected (CRC, JSON,
        garbled), less any that also arrived intact (late or repeated), as ascending
        (first, last) ranges: a number lost to a damaged digit may leave a gap of any size."""
        received = self.received_seqs()
        spans = [s for p in self.problems if p.kind == "gap" for s in p.spans]
        spans += [(p.seq, p.seq) for p in self.rejected()
                  if p.seq is not None and p.seq not in received]
        return merge_spans(spans)

    def lost_count(self):
        return sum(last - first + 1 for first, last in self.lost_spans())

    def rejected(self):
        """The problems of records that were seen but not accepted (CRC, JSON, garbled)."""
        return [p for p in self.problems if p.kind in REJECTED_KINDS]

    def usable_records(self):
        """Every intact, usable record once, in sequence order: `records` plus the late ones. A
        reader that only wants data (the report) uses these; the order checks have been made
        already. (`records` is in sequence order already: only late ones need a sort.)"""
        if not self.late:
            return [r for r in self.records if r.usable]
        return sorted((r for r in self.records + self.late if r.usable), key=lambda r: r.seq)


def merge_spans(spans):
    merged = []
    for first, last in sorted(spans):
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


def crc32_hex(text):
    return "%08x" % (zlib.crc32(text.encode("utf-8", "surrogateescape")) & 0xFFFFFFFF)


# ---- lines --------------------------------------------------------------------------------------

def lines(text):
    """(line number, segment) of every piece of the log a record may end: the log's lines,
    numbered as an editor or `grep -n` shows them, each cut at its carriage returns.

    A line ends at LF (so CRLF too). A lone CR (GRUB redraws its menu with them) stays inside its
    line for the numbering, but ends a record all the same: a record never holds a CR, and a
    capture whose line ends became CRs must not turn into one endless line. A log without any LF
    is such a capture: there CR ends the line. Each character is looked at a fixed number of
    times, so the time is linear in the log's size."""
    separator = "\n" if "\n" in text else "\r"
    line_no = 0
    for line in text.split(separator):
        line_no += 1
        for segment in line.split("\r"):
            yield line_no, segment
    # (A final line end leaves an empty last line, which holds nothing.)


def _clean(segment):
    return ANSI_RE.sub("", segment).strip("\x00")


# ---- parsing ------------------------------------------------------------------------------------

def parse(text, origin=None):
    """Parse a whole log (str). Returns a Stream.

    origin says more of records that are not a serial log's (pmu_photos.Assembly: the records
    read back from photos of the kernel's QR codes), or is None: its `left_out` are the numbers
    its writer left out on purpose (a gap of them alone is no problem; they go to the stream's
    left_out, its `notes` to left_out_note), and its carried_by(seq) names what held a number
    that is missing, (place, words) or None, which a gap or a missing end cites in place of the
    log's lines."""
    stream = Stream()
    if origin is not None:
        stream.left_out = merge_spans(origin.left_out)
        stream.left_out_note = "; ".join(origin.notes)
    good = []
    text_lines = set()
    for position, (line_no, raw) in enumerate(lines(text)):
        segment = _clean(raw)
        if not segment:
            continue
        found = len(stream.problems)
        record = _parse_segment(stream, segment, line_no)
        for p in stream.problems[found:]:
            p.position = position
        if record is not None:
            record.position = position
            good.append(record)
        elif len(stream.problems) == found:
            text_lines.add(line_no)
    stream.text_lines = len(text_lines - {r.line_no for r in good} -
                            {p.line_no for p in stream.problems})
    _check_rejected_seqs(stream.problems, good)
    _check_sequence(stream, good, origin)
    if not stream.records:
        stream.problems.append(Problem("no_records", "no record found in the log"))
        return stream
    _check_values(stream)
    _check_boot_and_end(stream, origin)
    return stream


def _has_record_start(segment):
    return RECORD_START_RE.search(segment) is not None


def _parse_segment(stream, segment, line_no):
    """The Record on this piece of a line, or None (text, or a rejected record: a Problem)."""
    m = ENVELOPE_RE.search(segment)
    if not m or not segment.endswith("}"):
        if _has_record_start(segment):
            seq_m = GARBLED_SEQ_RE.search(segment)
            seq = int(seq_m.group(1)) if seq_m else None
            stream.problems.append(
                Problem("garbled", "%sunparsable record line: %r"
                        % ("" if seq is None else "record @%d: " % seq, segment[:120]),
                        line_no, seq))
        return None
    stream.envelopes += 1
    seq = int(m.group(1))
    crc = m.group(2)
    body = segment[m.end():]
    if crc32_hex(body) != crc:
        stream.problems.append(
            Problem("crc", "record @%d: CRC %s does not match its JSON (%s)"
                    % (seq, crc, crc32_hex(body)), line_no, seq))
        return None
    try:
        obj = DECODER.decode(body)
    except (ValueError, RecursionError) as e:
        # RecursionError: nesting deeper than the interpreter's stack, which no record has.
        stream.problems.append(Problem("json", "record @%d: %s" % (seq, _short(str(e))),
                                       line_no, seq))
        return None
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        stream.problems.append(
            Problem("json", "record @%d: not an object with a \"type\" string" % seq, line_no,
                    seq))
        return None
    return Record(seq, crc, body, obj, line_no)


def _not_json(name):
    """json.loads takes NaN and Infinity, which are not JSON (RFC 8259) and which no kernel
    record holds."""
    raise ValueError("%s is not a JSON value" % name)


# One decoder for every record (json.loads with an option makes a decoder per call).
DECODER = json.JSONDecoder(parse_constant=_not_json)


def _short(text):
    return text if len(text) <= 160 else text[:157] + "..."


def _check_rejected_seqs(problems, good):
    """A rejected record's sequence number is outside its CRC and may be damaged too: keep it
    only when it fits between the intact records around that line; otherwise say it is unknown,
    so that it neither hides a real gap nor names a record that arrived intact."""
    positions = [r.position for r in good]  # ascending: `good` is in the log's order
    for p in problems:
        if p.kind not in REJECTED_KINDS or p.seq is None:
            continue
        i = bisect.bisect_left(positions, p.position)  # good[i] is the first intact one after
        low = good[i - 1].seq if i > 0 else -1
        high = good[i].seq if i < len(good) else None
        if p.seq <= low or (high is not None and p.seq >= high):
            p.detail += " (its number @%d does not fit here, so which record it was is unknown)" \
                % p.seq
            p.seq = None


def _check_sequence(stream, good, origin=None):
    """Sequence: from 0, no gaps, no repeats. A gap names only the numbers that never arrived:
    neither rejected on some line (those have their own problem), nor intact later out of order,
    nor left out on purpose (stream.left_out)."""
    expected = 0
    seen = set()
    accounted = sorted({p.seq for p in stream.problems if p.seq is not None} |
                       {r.seq for r in good} |
                       {n for first, last in stream.left_out for n in range(first, last + 1)})
    previous = None
    for r in good:
        if r.seq in seen:
            stream.duplicates.append(r)
            stream.problems.append(_repeat_problem(r))
            continue
        seen.add(r.seq)
        if r.seq < expected:
            stream.late.append(r)
            stream.problems.append(
                Problem("order", "record @%d arrived late, after @%d" % (r.seq, expected - 1),
                        r.line_no, r.seq))
            continue
        if r.seq > expected:
            missing = _missing_spans(accounted, expected, r.seq)
            if missing:
                stream.problems.append(_gap_problem(missing, previous, r, origin))
        stream.records.append(r)
        previous = r
        expected = r.seq + 1
    _check_tail(stream, accounted, expected, previous)


def _check_tail(stream, accounted, expected, previous):
    """Numbers after the last intact record and below a rejected one (a log cut inside a record,
    say) never arrived either: a gap up to the highest rejected number. (Without any intact
    record, a number on a garbled line is no evidence of how many records there were.)"""
    rejected = [p for p in stream.rejected() if p.seq is not None and p.seq > expected]
    if not rejected or previous is None:
        return
    last = max(rejected, key=lambda p: p.seq)
    missing = _missing_spans(accounted, expected, last.seq)
    if missing:
        stream.problems.append(Problem(
            "gap", "missing %s (after @%d on line %d, before the rejected @%d on line %d)" % (
                fmt_spans(missing), previous.seq, previous.line_no, last.seq, last.line_no),
            last.line_no, (missing[0][0], missing[-1][1]), missing))


def _repeat_problem(r):
    if r.type == "boot":
        return Problem("boot_again", _SECOND_BOOT % ("(@%d again)" % r.seq), r.line_no, r.seq)
    return Problem("duplicate", "record @%d appears twice" % r.seq, r.line_no, r.seq)


_SECOND_BOOT = "a second boot record %s: the file holds more than one boot; cut it into one " \
    "file per boot"


def _missing_spans(accounted, first, end):
    """The ranges of [first, end) that hold no number of `accounted` (ascending)."""
    spans = []
    i = bisect.bisect_left(accounted, first)
    start = first
    while i < len(accounted) and accounted[i] < end:
        if accounted[i] > start:
            spans.append((start, accounted[i] - 1))
        start = accounted[i] + 1
        i += 1
    if start < end:
        spans.append((start, end - 1))
    return spans


def _check_values(stream):
    """Every intact record against the contract (pmu_schema.py): each key that is missing or
    breaks it is a problem on the record's line, and the record keeps only its good keys."""
    for r in stream.records + stream.late:
        clean, problems, usable = pmu_schema.validate(r.obj)
        r.obj = clean
        r.usable = usable
        for problem in problems:
            stream.problems.append(Problem(
                "contract", "record @%d (%s): %s" % (r.seq, r.type, problem), r.line_no, r.seq))


def _check_boot_and_end(stream, origin=None):
    first = stream.records[0]
    if first.type != "boot" or first.seq != 0:
        # Where the reader looks for it: the code not read that held the first records (from
        # photos; the gap before the first record says which), else the log's start; at
        # the first record's line, so that it sorts before the problems after it.
        carried = _carried_by(origin, 0) if first.seq > 0 else None
        problem = Problem("no_boot", "the first record is %s @%d, not boot @0" % (
            first.type, first.seq), first.line_no)
        problem.place = carried[0] if carried else "log start"
        stream.problems.append(problem)
    for r in stream.records[1:] + stream.late:
        if r.type == "boot":
            stream.problems.append(Problem("boot_again", _SECOND_BOOT % ("@%d" % r.seq),
                                           r.line_no, r.seq))
    last = stream.records[-1]
    for r in stream.records[:-1] + stream.late:
        if r.type == "end":
            stream.problems.append(Problem(
                "after_end", "end record @%d is not the last: records follow it" % r.seq,
                r.line_no, r.seq))
    if last.type != "end":
        carried = _carried_by(origin, last.seq + 1)
        problem = Problem("no_end", "no end record: the log stops after @%d (%s)%s" % (
            last.seq, last.type, "; the rest: %s" % carried[1] if carried else ""))
        problem.place = carried and carried[0]
        stream.problems.append(problem)
        return
    if last.get("records") != last.seq:
        stream.problems.append(
            Problem("end_count", "end record says %s records before it, its sequence number "
                    "is %d" % (_short(json.dumps(last.get("records"))), last.seq),
                    last.line_no, last.seq))


def fmt_spans(spans):
    """[(3, 5), (9, 9)] -> '@3-@5, @9'."""
    if not spans:
        return "none"
    return ", ".join("@%d" % a if a == b else "@%d-@%d" % (a, b) for a, b in spans)


def _gap_problem(missing, previous, next_record, origin=None):
    text = fmt_spans(missing)
    carried = _carried_by(origin, missing[0][0])
    if carried is not None:
        detail = "missing %s: %s" % (text, carried[1])
    elif previous is not None:
        detail = "missing %s (between @%d on line %d and @%d on line %d)" % (
            text, previous.seq, previous.line_no, next_record.seq, next_record.line_no)
    else:
        detail = "missing %s (before @%d on line %d)" % (text, next_record.seq,
                                                         next_record.line_no)
    problem = Problem("gap", detail, next_record.line_no, (missing[0][0], missing[-1][1]),
                      missing)
    problem.place = carried and carried[0]
    return problem


def _carried_by(origin, seq):
    """(place, words) of what carried the missing record seq, when the records are not a serial
    log (origin.carried_by: the QR code that was not read), in place of the log's lines, which
    their reader does not have; else None."""
    return origin.carried_by(seq) if origin is not None else None


def decode(data):
    """The text of a log's bytes: UTF-8, anything else replaced (records are ASCII)."""
    return data.decode("utf-8", "replace")


def parse_file(path):
    with open(path, "rb") as f:
        return parse(decode(f.read()))
