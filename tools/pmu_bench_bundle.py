"""The bundle: one binary file with everything the kernel needs to run one benchmark of your own.

    data = build(params, events, parts)      # bytes, decode tables made here
    bundle = read(data)                      # Bundle, or BundleError with the reason

The format is docs/own-code.md, "The bundle"; its C reader is tests/owncode/bundle.c, which the
kernel uses. This module writes it and reads it back (pmu-bench --show, the tests), checking what
the C reader checks, so that a bundle this module accepts is one the kernel accepts.
"""

import struct
import zlib

import pmu_bench_config
import pmu_bench_decode

MAGIC = b"PMUBENCH"
VERSION = 2
HEADER = struct.Struct("<8sHHIIIII")          # magic, version, header size, total size, crc,
HEADER_SIZE = HEADER.size                     # sections, table offset, reserved
SECTION = struct.Struct("<IIII")              # kind, offset, size, count
PARAMS = struct.Struct("<IIIIIIBBBBII12x")    # see Params
EVENT = struct.Struct("<QIIIBBBBB7x")         # see pmu_bench_config.Event
INSN = struct.Struct("<IBBBBB3x")             # see pmu_bench_decode.Insn
CRC_OFFSET = 16
ALIGN = 8
NONE = 0xFFFFFFFF                             # "no string"

# Section kinds.
PARAMS_KIND, STRINGS_KIND = 1, 2
EVENTS_KIND = (3, 4)                          # thread 0, thread 1
PARTS = ("one_time_init", "init", "late_init", "code", "sibling")
PART_KIND = {p: 16 + i for i, p in enumerate(PARTS)}
DECODE_KIND = {p: 32 + i for i, p in enumerate(PARTS)}

# Limits (tests/owncode/bundle.h has the same).
MAX_SECTIONS = 32
MAX_PART = 1 << 20
MAX_UNROLL_COUNT = 1000000
MAX_UNROLLED_BYTES = 8 << 20                  # unroll_count x code: the 2N run holds twice this
MAX_LOOP_COUNT = 2 ** 31 - 1
MAX_MEASUREMENTS = 100                        # a bench_result's values fit in 4096 bytes
MAX_WARM_UP = 10000
MAX_ALIGNMENT_OFFSET = 4095
MAX_EVENTS = pmu_bench_config.MAX_EVENTS
MAX_STRING = 255
MAX_ACCESSES = 15

AGGREGATES = ("avg", "median", "min", "max")
XSU_MODES = ("off", "on", "core")
SIBLINGS = ("none", "code", "work")
# Parameter flags, bit by bit (tests/owncode/bundle.h: BUNDLE_BASIC_MODE ...).
FLAGS = ("basic_mode", "no_normalization", "usr", "os", "fixed_counters", "range",
         "remove_empty_events", "verbose", "df", "no_mem")
EVENT_KINDS = ("gp", "fixed", "refused", "tsc")
EVENT_ALONE = 0x1
EVTSEL_ALLOWED = 0xFFFFFFFF & ~((1 << 19) | (1 << 20))   # no PC, no INT (SDM fig. 18-1)


class BundleError(Exception):
    """A bundle that cannot be written or read; the message says why."""


class Params:
    """The options of a run, as nanoBench names them (docs/own-code.md, "The options")."""

    FIELDS = ("unroll_count", "loop_count", "n_measurements", "warm_up_count",
              "initial_warm_up_count", "alignment_offset", "aggregate", "xsu", "ring", "sibling",
              "sibling_work") + FLAGS
    DEFAULTS = dict(unroll_count=1000, loop_count=0, n_measurements=10, warm_up_count=5,
                    initial_warm_up_count=0, alignment_offset=0, aggregate="avg", xsu="on",
                    ring=3, sibling="none", sibling_work=None, usr=True,
                    **{f: False for f in FLAGS if f != "usr"})

    def __init__(self, **values):
        unknown = set(values) - set(self.FIELDS)
        if unknown:
            raise TypeError("unknown parameters: %s" % ", ".join(sorted(unknown)))
        for name in self.FIELDS:
            setattr(self, name, values.get(name, self.DEFAULTS[name]))

    def as_dict(self):
        return {name: getattr(self, name) for name in self.FIELDS}

    def __eq__(self, other):
        return isinstance(other, Params) and self.as_dict() == other.as_dict()

    def __repr__(self):
        return "Params(%s)" % ", ".join("%s=%r" % kv for kv in self.as_dict().items())

    def repetitions(self):
        """What a measurement's difference is divided by: the copies between the two runs
        (nanoBench: max(loop_count * unroll_count, unroll_count)), 1 with -no_normalization."""
        if self.no_normalization:
            return 1
        return max(self.loop_count, 1) * self.unroll_count


class Bundle:
    """A bundle read back: params, events (a list per thread), parts (name -> bytes), decode
    (name -> list of Insn), size and crc."""

    def __init__(self):
        self.params = None
        self.events = ([], [])
        self.parts = {p: b"" for p in PARTS}
        self.decode = {p: [] for p in PARTS}
        self.size = 0
        self.crc = 0


# ---- writing ------------------------------------------------------------------------------------

class _Strings:
    def __init__(self):
        self.data = bytearray()
        self.at = {}

    def add(self, text):
        if text is None:
            return NONE
        raw = text.encode("utf-8")
        if len(raw) > MAX_STRING or any(not 0x20 <= b <= 0x7E for b in raw):
            raise BundleError("%r: a string of the bundle is printable ASCII of at most %d "
                              "characters" % (text, MAX_STRING))
        if text not in self.at:
            self.at[text] = len(self.data)
            self.data += raw + b"\0"
        return self.at[text]


def _params_bytes(p, strings):
    flags = sum(1 << i for i, f in enumerate(FLAGS) if getattr(p, f))
    return PARAMS.pack(p.unroll_count, p.loop_count, p.n_measurements, p.warm_up_count,
                       p.initial_warm_up_count, p.alignment_offset,
                       AGGREGATES.index(p.aggregate), XSU_MODES.index(p.xsu), p.ring,
                       SIBLINGS.index(p.sibling), flags, strings.add(p.sibling_work))


def _event_bytes(e, strings):
    return EVENT.pack(e.evtsel, strings.add(e.name), strings.add(e.spec), strings.add(e.reason),
                      EVENT_KINDS.index(e.kind), e.fixed_index, e.fixed_ctrl, e.counter_mask,
                      EVENT_ALONE if e.alone else 0)


def _insn_bytes(i):
    return INSN.pack(i.offset, i.length, i.kind, i.flags, i.reads, i.writes)


def build(params, events, parts):
    """The bundle's bytes. events: (thread 0's list, thread 1's list) of pmu_bench_config.Event;
    parts: name -> bytes (missing or empty: no such part). Raises BundleError when a value is
    out of the format's limits (the same checks as the reader's)."""
    strings = _Strings()
    sections = [(PARAMS_KIND, _params_bytes(params, strings), 1)]
    for thread, kind in enumerate(EVENTS_KIND):
        if events[thread]:
            sections.append((kind, b"".join(_event_bytes(e, strings) for e in events[thread]),
                             len(events[thread])))
    for name in PARTS:
        code = parts.get(name, b"")
        if code:
            table = pmu_bench_decode.decode(code)
            sections.append((PART_KIND[name], bytes(code), 0))
            sections.append((DECODE_KIND[name], b"".join(_insn_bytes(i) for i in table),
                             len(table)))
    sections.insert(1, (STRINGS_KIND, bytes(strings.data) or b"\0", 0))
    data = _assemble(sections)
    read(data)  # the writer's own check: what it writes, the kernel's reader accepts
    return data


def _assemble(sections):
    table_at = HEADER_SIZE
    at = _align(table_at + SECTION.size * len(sections))
    table, body = bytearray(), bytearray()
    for kind, payload, count in sections:
        table += SECTION.pack(kind, at + len(body), len(payload), count)
        body += payload + bytes(_align(len(payload)) - len(payload))
    total = at + len(body)
    head = HEADER.pack(MAGIC, VERSION, HEADER_SIZE, total, 0, len(sections), table_at, 0)
    data = bytearray(head + table + bytes(at - table_at - len(table)) + body)
    struct.pack_into("<I", data, CRC_OFFSET, zlib.crc32(data) & 0xFFFFFFFF)
    return bytes(data)


def _align(n):
    return (n + ALIGN - 1) // ALIGN * ALIGN


# ---- reading ------------------------------------------------------------------------------------

def read(data):
    """The Bundle in the bytes; BundleError with the reason the C reader would give."""
    data = bytes(data)
    if len(data) < HEADER_SIZE:
        raise BundleError("shorter than a bundle's header")
    magic, version, header_size, total, crc, count, table_at, reserved = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise BundleError("no PMUBENCH magic: not a bundle")
    if version != VERSION:
        raise BundleError("bundle version %d, this reader reads version %d" % (version, VERSION))
    if header_size != HEADER_SIZE or reserved:
        raise BundleError("a header of another size, or reserved bits set")
    if not HEADER_SIZE <= total <= len(data):
        raise BundleError("its total size runs past the data")
    data = data[:total]
    zeroed = data[:CRC_OFFSET] + bytes(4) + data[CRC_OFFSET + 4:]
    if zlib.crc32(zeroed) & 0xFFFFFFFF != crc:
        raise BundleError("CRC-32 mismatch: the bundle is damaged")
    if not 1 <= count <= MAX_SECTIONS or table_at + count * SECTION.size > total:
        raise BundleError("a section table outside the bundle or of more than %d sections"
                          % MAX_SECTIONS)
    found = _sections(data, table_at, count)
    bundle = Bundle()
    bundle.size, bundle.crc = total, crc
    strings = _strings(found)
    bundle.params = _read_params(found, strings)
    for thread, kind in enumerate(EVENTS_KIND):
        bundle.events[thread].extend(_read_events(found.get(kind), strings))
    for name in PARTS:
        _read_part(bundle, found, name)
    _check_run(bundle)
    return bundle


def _sections(data, table_at, count):
    found = {}
    known = {PARAMS_KIND, STRINGS_KIND, *EVENTS_KIND, *PART_KIND.values(), *DECODE_KIND.values()}
    for k in range(count):
        kind, offset, size, n = SECTION.unpack_from(data, table_at + k * SECTION.size)
        if offset + size > len(data):
            raise BundleError("a section outside the bundle")
        if kind not in known:
            raise BundleError("a section of a kind this reader does not know")
        if kind in found:
            raise BundleError("a section kind given twice")
        found[kind] = (data[offset:offset + size], n)
    for kind, what in ((PARAMS_KIND, "parameters"), (STRINGS_KIND, "strings")):
        if kind not in found:
            raise BundleError("no %s section" % what)
    return found


def _strings(found):
    raw, _ = found[STRINGS_KIND]
    if not raw or raw[-1] != 0:
        raise BundleError("the strings section does not end with a NUL")

    def string(offset, optional=False):
        if offset == NONE and optional:
            return None
        if offset >= len(raw):
            raise BundleError("a string offset outside the strings section")
        end = raw.index(b"\0", offset)
        text = raw[offset:end]
        if end - offset > MAX_STRING or any(not 0x20 <= b <= 0x7E for b in text):
            raise BundleError("a string longer than %d bytes or not printable ASCII"
                              % MAX_STRING)
        return text.decode("ascii")
    return string


def _read_params(found, string):
    raw, _ = found[PARAMS_KIND]
    if len(raw) != PARAMS.size:
        raise BundleError("a parameters section of the wrong size")
    (unroll, loop, measurements, warm, initial_warm, offset, aggregate, xsu, ring, sibling,
     flags, work) = PARAMS.unpack(raw)
    if raw[36:] != bytes(PARAMS.size - 36):
        raise BundleError("reserved parameter bytes set")
    checks = ((1 <= unroll <= MAX_UNROLL_COUNT, "unroll_count out of range"),
              (loop <= MAX_LOOP_COUNT, "loop_count out of range"),
              (1 <= measurements <= MAX_MEASUREMENTS, "n_measurements out of range"),
              (warm <= MAX_WARM_UP and initial_warm <= MAX_WARM_UP, "a warm-up count out of "
               "range"),
              (offset <= MAX_ALIGNMENT_OFFSET, "alignment_offset out of range"),
              (aggregate < len(AGGREGATES), "an unknown aggregate function"),
              (xsu < len(XSU_MODES), "an unknown XSU mode"),
              (ring in (0, 3), "a ring other than 0 and 3"),
              (sibling < len(SIBLINGS), "an unknown kind of sibling"),
              (flags < 1 << len(FLAGS), "unknown parameter flags"),
              ((work != NONE) == (sibling == 2), "a sibling workload without sibling work, or "
               "the other way round"))
    for ok, reason in checks:
        if not ok:
            raise BundleError(reason)
    work_name = string(work, optional=True)
    if sibling == 2 and not work_name:
        raise BundleError("an empty sibling workload name")
    return Params(unroll_count=unroll, loop_count=loop, n_measurements=measurements,
                  warm_up_count=warm, initial_warm_up_count=initial_warm,
                  alignment_offset=offset, aggregate=AGGREGATES[aggregate],
                  xsu=XSU_MODES[xsu], ring=ring, sibling=SIBLINGS[sibling],
                  sibling_work=work_name,
                  **{f: bool(flags & 1 << i) for i, f in enumerate(FLAGS)})


def _read_events(section, string):
    if section is None:
        return []
    raw, count = section
    if count > MAX_EVENTS or len(raw) != count * EVENT.size:
        raise BundleError("an events section of the wrong size or of more than %d events"
                          % MAX_EVENTS)
    events = []
    for k in range(count):
        evtsel, name, spec, reason, kind, index, ctrl, mask, flags = EVENT.unpack_from(
            raw, k * EVENT.size)
        if raw[k * EVENT.size + 25:(k + 1) * EVENT.size] != bytes(7):
            raise BundleError("reserved event bytes set")
        if kind >= len(EVENT_KINDS) or flags & ~EVENT_ALONE or mask == 0:
            raise BundleError("an event of an unknown kind, with unknown flags or no counter")
        _check_event(EVENT_KINDS[kind], evtsel, index, ctrl, reason)
        events.append(pmu_bench_config.Event(
            string(spec), string(name), EVENT_KINDS[kind], evtsel, index, ctrl, mask,
            bool(flags & EVENT_ALONE), string(reason, optional=True)))
    return events


def _check_event(kind, evtsel, index, ctrl, reason):
    if kind == "gp" and (evtsel & ~EVTSEL_ALLOWED or not evtsel & pmu_bench_config.EVTSEL_EN):
        raise BundleError("a GP event whose EVTSEL sets PC, INT, bits above 31 or not EN")
    if kind == "fixed" and (evtsel or index > 2 or ctrl > 7 or ctrl == 0):
        raise BundleError("a fixed-counter event with an EVTSEL, a counter above 2 or a bad "
                          "control field")
    if kind == "tsc" and evtsel:
        raise BundleError("an RDTSC event with an EVTSEL")
    if kind != "fixed" and (index or ctrl):
        raise BundleError("a counter index or control field on a programmable event")
    if (kind == "refused") != (reason != NONE):
        raise BundleError("a refused event without its reason, or a reason on another")


def _read_part(bundle, found, name):
    code = found.get(PART_KIND[name], (b"", 0))[0]
    decode = found.get(DECODE_KIND[name])
    if len(code) > MAX_PART:
        raise BundleError("a part longer than %d bytes" % MAX_PART)
    if not code:
        if decode is not None and decode[1]:
            raise BundleError("a decode table for an empty part")
        return
    if decode is None:
        raise BundleError("a part without its decode table")
    raw, count = decode
    if len(raw) != count * INSN.size:
        raise BundleError("a decode table of the wrong size")
    table, at = [], 0
    for k in range(count):
        offset, length, kind, flags, reads, writes = INSN.unpack_from(raw, k * INSN.size)
        if raw[k * INSN.size + 9:(k + 1) * INSN.size] != bytes(3):
            raise BundleError("reserved decode bytes set")
        if offset != at or not 1 <= length <= 15 or at + length > len(code):
            raise BundleError("a decode table that does not cover its part instruction by "
                              "instruction")
        if kind > pmu_bench_decode.KIND_FAR or flags > 7 or reads > MAX_ACCESSES or \
                writes > MAX_ACCESSES:
            raise BundleError("a decode entry of an unknown kind or flags, or too many "
                              "accesses")
        table.append(pmu_bench_decode.Insn(offset, length, kind, flags, reads, writes))
        at += length
    if at != len(code):
        raise BundleError("a decode table that does not cover its part instruction by "
                          "instruction")
    bundle.parts[name] = code
    bundle.decode[name] = table


def _check_run(bundle):
    p = bundle.params
    if p.unroll_count * len(bundle.parts["code"]) > MAX_UNROLLED_BYTES:
        raise BundleError("unroll_count times the code's size is more than %d bytes"
                          % MAX_UNROLLED_BYTES)
    if bundle.parts["sibling"] and p.sibling != "code":
        raise BundleError("sibling code without a sibling of kind code")
