"""The record contract of docs/records.md as data: for every record type, its keys with their
JSON types and ranges, and the keys without which a reader cannot place the record.

    clean, problems, usable = validate(obj)

`clean` is the record without the keys whose values break the contract, `problems` says what was
wrong, one sentence each, and `usable` is false when a key the report needs to place the record
(its experiment, its thread, its event...) is missing or broken. Keys this table does not list
are kept as they are (docs/records.md: new keys may be added), and so are the records of types it
does not list (readers count them); only a number beyond a double's range (1e999) is refused
anywhere, since no file the report writes could hold it.

A record that breaks the contract is a problem of the log on that record's line: a log with one
cannot prove a pass, whatever its CRC says.
"""

import json
import math
import re

U64_MAX = 2 ** 64 - 1
I64_MIN, I64_MAX = -(2 ** 63), 2 ** 63 - 1


class Spec:
    """One JSON value's contract. check() returns (clean value, problems); a problem makes the
    caller drop the value."""

    what = "a value"

    def check(self, value, path):
        return (value, []) if self.accepts(value) else (None, [self.complaint(value, path)])

    def accepts(self, value):
        return True

    def complaint(self, value, path):
        return "%s is %s, not %s" % (path, _show(value), self.what)


class Int(Spec):
    def __init__(self, low, high):
        self.low, self.high = low, high
        self.what = "an integer in %s..%s" % (_bound(low), _bound(high))

    def accepts(self, value):
        return isinstance(value, int) and not isinstance(value, bool) and \
            self.low <= value <= self.high


class Num(Spec):
    """A finite JSON number (integer or fraction) in a range."""

    def __init__(self, low=-math.inf, high=math.inf):
        self.low, self.high = low, high
        self.what = "a finite number" + ("" if (low, high) == (-math.inf, math.inf) else
                                         " in %s..%s" % (_bound(low), _bound(high)))

    def accepts(self, value):
        return isinstance(value, (int, float)) and not isinstance(value, bool) and \
            math.isfinite(value) and self.low <= value <= self.high


class Str(Spec):
    """A string; `pattern`, when given, is a regular expression it must match whole."""

    def __init__(self, pattern=None, what="a string"):
        self.pattern = re.compile(pattern) if pattern else None
        self.what = what

    def accepts(self, value):
        return isinstance(value, str) and (self.pattern is None or
                                           self.pattern.fullmatch(value) is not None)


class Enum(Spec):
    def __init__(self, *values):
        self.values = values
        self.what = "one of " + ", ".join('"%s"' % v for v in values)

    def accepts(self, value):
        return isinstance(value, str) and value in self.values


class Bool(Spec):
    what = "true or false"

    def accepts(self, value):
        return isinstance(value, bool)


class Hex(Spec):
    """Addresses and register values: "0x" and hex digits, or a JSON integer (docs/records.md,
    conventions), at most 64 bits."""

    what = 'a "0x..." hex string of at most 64 bits'

    def accepts(self, value):
        if isinstance(value, int) and not isinstance(value, bool):
            return 0 <= value <= U64_MAX
        return isinstance(value, str) and HEX_RE.fullmatch(value) is not None


HEX_RE = re.compile(r"0x[0-9a-fA-F]{1,16}")


class Null(Spec):
    """`spec` or null."""

    def __init__(self, spec):
        self.spec = spec
        self.what = spec.what + " or null"

    def check(self, value, path):
        if value is None:
            return None, []
        clean, problems = self.spec.check(value, path)
        return clean, [self.complaint(value, path)] if problems else []


class Either(Spec):
    def __init__(self, *specs):
        self.specs = specs
        self.what = " or ".join(s.what for s in specs)

    def check(self, value, path):
        for spec in self.specs:
            clean, problems = spec.check(value, path)
            if not problems:
                return clean, []
        return None, [self.complaint(value, path)]


class Array(Spec):
    """A JSON array of `item`s. An array's places mean something (a thread each), so one bad
    item makes the whole array unusable."""

    def __init__(self, item):
        self.item = item
        self.what = "an array of " + _plural(item.what)

    def check(self, value, path):
        if not isinstance(value, list):
            return None, [self.complaint(value, path)]
        clean = []
        for i, v in enumerate(value):
            c, problems = self.item.check(v, "%s[%d]" % (path, i))
            if problems:
                return None, problems
            clean.append(c)
        return clean, []


class Obj(Spec):
    """A JSON object. `keys` maps the names it defines to their specs, `required` names those it
    cannot do without, `others` (when given) is the spec of every other key (a map of names)."""

    what = "an object"

    def __init__(self, keys=None, required=(), others=None):
        self.keys = keys or {}
        self.required = required
        self.others = others

    def check(self, value, path):
        clean, problems, _ = self.check_object(value, path)
        return clean, problems

    def check_object(self, value, path):
        """(clean object, problems, whether every required key is there and good)."""
        if not isinstance(value, dict):
            return None, [self.complaint(value, path)], False
        clean = {}
        problems = []
        for key, v in value.items():
            spec = self.keys.get(key, self.others)
            if spec is None:
                spec = ANY_JSON
            c, p = spec.check(v, _join(path, key))
            if p:
                problems.extend(p)
            else:
                clean[key] = c
        complete = True
        for key in self.required:
            if key not in clean:
                complete = False
                if key not in value:
                    problems.append("%s lacks its key %s" % (path or "the record", key))
        return clean, problems, complete


class AnyJson(Spec):
    """A key the contract leaves free (or does not know): any JSON value but a number beyond a
    double's range (1e999 reads as infinity), which no file the report writes could hold."""

    what = "a value with finite numbers"

    def accepts(self, value):
        if isinstance(value, float):
            return math.isfinite(value)
        if isinstance(value, list):
            return all(self.accepts(v) for v in value)
        if isinstance(value, dict):
            return all(self.accepts(v) for v in value.values())
        return True


ANY_JSON = AnyJson()


def _join(path, key):
    return "%s.%s" % (path, key) if path else key


def _show(value):
    """A value as it appeared in the JSON, cut short."""
    if isinstance(value, float) and not math.isfinite(value):
        text = "%r" % value + " (out of range)"
    elif isinstance(value, (dict, list, str, bool)) or value is None:
        text = json.dumps(value)
    else:
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _bound(n):
    if n == U64_MAX:
        return "2^64-1"
    if n in (I64_MIN, I64_MAX):
        return "-2^63" if n < 0 else "2^63-1"
    if isinstance(n, float) and math.isinf(n):
        return "-inf" if n < 0 else "inf"
    return "%g" % n


def _plural(what):
    for article in ("an ", "a "):
        if what.startswith(article):
            return what[len(article):] + "s"
    return what


# ---- the vocabulary of docs/records.md ----------------------------------------------------------

U64 = Int(0, U64_MAX)
U32 = Int(0, 2 ** 32 - 1)
I64 = Int(I64_MIN, I64_MAX)
TEXT = Str()
# Words for a person (titles, reasons): a kernel without them may say null.
NOTE = Null(TEXT)
# Names that become file names and table headings (experiments, events, phases, schedulers,
# policies): printable, no spaces, no path separators, not starting with a dot.
NAME = Str(r"[A-Za-z0-9_{][A-Za-z0-9_.:,=+\-/{}]{0,127}",
           "a name (letters, digits and _.:,=+-/{}, at most 128)")
EXP_NAME = Str(r"[A-Za-z0-9_][A-Za-z0-9_.+\-]{0,63}",
               "an experiment name (letters, digits, _.+-, at most 64)")
# XSU modes: off, on, and core-wide XSU (docs/records.md, `exp`), in the order tables show them.
XSU_MODES = ("off", "on", "core")
XSU = Enum(*XSU_MODES)


def xsu_key(xsu):
    """Sort key of an XSU mode: off, on, core, then anything else (None: a record without)."""
    return (XSU_MODES.index(xsu) if xsu in XSU_MODES else len(XSU_MODES), str(xsu))


THREAD = Int(0, 255)
REP = Int(0, 2 ** 32 - 1)
FRACTION = Num(0, 1)

# Every record of a run carries these (docs/records.md, "a run").
RUN_KEYS = {"exp": EXP_NAME, "phase": NAME, "xsu": XSU, "sched": NAME, "rep": REP,
            "policy": NAME}


def _run(**keys):
    merged = dict(RUN_KEYS)
    merged.update(keys)
    return merged


RECORDS = {
    "boot": Obj({
        "boot": TEXT, "loader": Null(TEXT), "cmdline": TEXT, "mem_mib": U64,
        "acpi_rsdp": Null(Hex()), "memory_regions": U64, "acpi_source": TEXT, "uefi": Bool(),
        "cpu": Obj({"vendor": TEXT, "family": U32, "model": U32, "stepping": U32,
                    "brand": TEXT, "hypervisor": Null(TEXT), "avx": Bool()}),
        "cpus": U32, "topology_source": TEXT, "core_threads": Array(Array(U32)), "smp": TEXT,
        # A bring-up that stopped early has no chosen core and no timer reference yet.
        "packages": U32, "cores": U32, "threads_per_core": U32, "core": Null(U32),
        "threads": Array(U32), "smt": Bool(), "tsc_hz": U64, "tsc_ref": Null(TEXT),
        "apic_timer_hz": U64, "apic_mode": TEXT, "version": TEXT,
        "console": Obj({"serial": Null(Hex()), "baud": U32, "vga": Bool(),
                        "screen": Null(TEXT)}),
        "config": Obj(), "microcode": Null(Hex()), "step": TEXT, "error": TEXT,
    }),
    "warn": Obj({
        "key": Null(TEXT), "value": Null(TEXT), "accepted": Null(Either(TEXT, Array(TEXT))),
        "message": Null(TEXT), "used": Null(TEXT), "source": Null(TEXT),
    }),
    "exception": Obj({
        "vector": Int(0, 255), "name": TEXT, "description": TEXT, "error_code": Null(U64),
        "rip": Hex(), "cr2": Hex(), "cpu": U32, "cpu_index": U32, "cpl": Int(0, 3),
        "registers": Obj(others=Hex()), "backtrace": Array(Hex()),
    }),
    "pmu": Obj({
        "backend": Enum("hw", "model", "none"), "reason": NOTE, "version": Int(0, 255),
        "gp": Int(0, 64), "gp_width": Int(0, 64), "fixed": Int(0, 64),
        "fixed_width": Int(0, 64), "full_width": Bool(), "uarch": TEXT,
        "erratum": Null(TEXT), "hypervisor": Null(TEXT),
        "model": Obj({"erratum_applied": Bool(),
                      "shares": Array(Obj({"event": TEXT, "name": Null(TEXT),
                                           "share": FRACTION}))}),
        "tsx_force_abort": Bool(),
        # What the PMU MSRs held when the kernel took over; a value is null where the MSR
        # faulted, the whole null when no backend was chosen.
        "msrs": Null(Obj(others=Null(Hex()))), "firmware_counters": Null(Array(TEXT)),
    }),
    "cpu": Obj({
        "apic": U32, "index": U32, "started": Bool(), "start_us": U64, "core": Null(U32),
        "initial_apic_id": U32, "x2apic_id": U32,
    }),
    "tick": Obj({
        "period_ms": U32, "interval_ns": U64, "expected": U64, "ticks": Array(U64),
        "error_pct": Array(Num()), "apic": Array(U32), "tick_tsc_mean": Array(Num(0)),
        "tick_tsc_max": Array(U64), "ticks_late": Array(U64), "ticks_lost": Array(U64),
    }),
    "sibling": Obj({
        "apic": Array(U32), "skew_tsc": I64, "skew_ns": I64,
        "results": Array(Obj({"thread": THREAD, "cpl": Int(0, 3), "expected": U64,
                              "sse": U64, "avx": U64, "ok": Bool()})),
    }),
    "pmu_check": Obj({
        "backend": TEXT, "workload": TEXT, "units": U64, "events": Array(TEXT), "ok": Bool(),
        "skipped": Array(TEXT),
        # A count the check could not make (its counter is missing) is null.
        "threads": Array(Obj({"thread": THREAD, "apic": U32, "status": TEXT,
                              "counts": Array(Null(U64)), "expected": Null(Array(Null(U64))),
                              "wraps": U64, "ok": Bool()})),
    }),
    "rdpmc": Obj({
        "backend": TEXT, "emulated": Bool(), "event": TEXT, "units": U64, "reads": U64,
        "cycles": Null(Num(0)), "median": Null(Num(0)), "min": Null(Num(0)),
        "max": Null(Num(0)), "reason": NOTE, "threads": Array(Obj()), "ok": Bool(),
    }),
    "exp": Obj(_run(
        title=NOTE, section=NOTE, description=NOTE, rule=NOTE, repeat=Int(1, 2 ** 32),
        threads=Array(Obj({"thread": THREAD, "apic": U32, "events": Array(NAME),
                           "offset_ns": U64, "workload": TEXT})),
        duration_ns=U64, mux_ms=U32, params=Obj(),
        tolerance=Obj({"pct": Num(0), "abs": Num(0)})), required=("exp",)),
    "progress": Obj(_run(done_pct=Int(0, 100), elapsed_ns=U64), required=("exp",)),
    "count": Obj(_run(
        thread=THREAD, apic=U32, event=NAME, code=Null(TEXT), name=Null(TEXT),
        corrupting=Bool(), counter=Null(TEXT), raw=U64, enabled=U64, running=U64,
        scaled=Null(U64), baseline=U64, tolerance=U64, leak=U64, true=Null(U64),
        interfered=Bool(), any_thread=Bool()), required=("exp", "thread", "event")),
    "exp_end": Obj(_run(
        elapsed_ns=U64, ticks=Array(U64), exposure=Null(U64), skew_tsc=Null(I64),
        units=Array(U64), invariant_violations=U64, tick_tsc_mean=Array(Num(0)),
        tick_tsc_max=Array(U64), ticks_late=Array(U64), ticks_lost=Array(U64),
        overlap_pct=U32), required=("exp",)),
    "verdict": Obj(_run(
        result=Enum("pass", "fail", "skip"), reason=NOTE, exposure=Null(U64), checked=U64,
        corrupted=U64, skip=NOTE), required=("exp", "result")),
    "survey": Obj(_run(
        event=NAME, name=Null(TEXT), corrupting=Bool(), control=Bool(), index=Int(0, 63),
        sibling_index=Int(0, 63), same_index=Bool(), count=U64, leak=U64,
        ratio=Null(Num(0)), overlap_pct=U32), required=("exp", "event", "index",
                                                         "sibling_index")),
    "end": Obj({
        "records": U64, "verdict": Enum("pass", "fail"), "failures": U64,
        "reason": Null(TEXT),
    }, required=("verdict",)),
}


UNKNOWN_RECORD = Obj()


def validate(obj):
    """(clean record, problems, usable) of one record's JSON object (which has a string "type").
    A record the kernel cut short ({"type":..., "truncated": true}) has lost its keys: that is a
    problem, and the record is not usable."""
    if obj.get("truncated") is True:
        return obj, ["the kernel truncated this record (more than its 4096 bytes): its keys are "
                     "lost"], False
    spec = RECORDS.get(obj["type"], UNKNOWN_RECORD)
    clean, problems, complete = spec.check_object(
        {k: v for k, v in obj.items() if k != "type"}, "")
    clean["type"] = obj["type"]
    return clean, problems, complete
