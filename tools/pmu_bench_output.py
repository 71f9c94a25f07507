"""The results of bundles, from the kernel's `bench` and `bench_result` records, as nanoBench prints
them, and as pmu-bench --json prints them.

    runs, problems = collect(records)     # records: pmu_records.Record objects, in order
    text = render_text(runs)              # "Name: 1.00" lines, per thread when HT1 counts
    obj = render_json(runs)               # {"threads": [{"events": [...]}], "fault": ...}

Used by tools/pmu-bench (--qemu) and tools/pmu-report (a real machine's serial log). The records
are docs/records.md's `bench`, `bench_result` and `bench_counts`, whose keys and types the stream
checks (pmu_records, against pmu_schema); here what the schema cannot see: that HT0's `value` is
nanoBench's difference of its run sets' aggregates (`runs`) and HT1's the aggregate of its
`values`, that `min` and `max` are what `values` give, a problem in one sentence each. The
bundle's options nanoBench prints by are the bench record's: `range` (each value's
[least; most]), `remove_empty_events` (no line for a value of 0), `verbose` (every run's count).
"""

import pmu_bench_aggregate
import pmu_schema as s

PART_NAMES = s.BENCH_PARTS


class Run:
    """One bundle's records: its `bench` record (None when it was lost) and its results."""

    def __init__(self, bench):
        self.bench = bench
        self.bench_record = None
        self.results = []
        self.counts = {}  # (thread, index) -> the bench_counts record (-verbose)

    @property
    def options(self):
        return (self.bench_record or {}).get("options") or {}

    @property
    def repetitions(self):
        return (self.bench_record or {}).get("repetitions") or 1

    @property
    def error(self):
        return (self.bench_record or {}).get("error")

    def threads(self):
        """{thread: results in list order} of the threads that have results."""
        out = {}
        for r in sorted(self.results, key=lambda r: (r["thread"], r["index"])):
            out.setdefault(r["thread"], []).append(r)
        return out

    @property
    def fault(self):
        for r in self.results:
            if r.get("fault"):
                return r["fault"]
        return None


def collect(records):
    """(runs in `bench` order, problems) of the records (objects with .type, .obj, .seq)."""
    runs, problems = {}, []
    for record in records:
        if record.type not in ("bench", "bench_result", "bench_counts"):
            continue
        # The keys and their types are the stream's to check (pmu_records, pmu_schema): a record
        # that breaks them is among its problems, and one it cannot place is not among records.
        clean, _, complete = s.validate(dict(record.obj, type=record.type))
        if not complete:
            continue
        run = runs.setdefault(clean["bench"], Run(clean["bench"]))
        if record.type == "bench":
            run.bench_record = clean
        elif record.type == "bench_counts":
            run.counts[(clean["thread"], clean["index"])] = clean
        else:
            run.results.append(clean)
            problems += ["record @%d (bench_result): %s" % (record.seq, p)
                         for p in check_numbers(clean, run.options.get("aggregate", "avg"),
                                                run.repetitions)]
    return [runs[k] for k in sorted(runs)], problems


def match_bundles(runs, crcs):
    """What is wrong in pairing the runs with the bundles that were sent (their CRC-32s, in
    boot order): a bundle without its bench record, a record of another bundle."""
    problems = []
    seen = {run.bench: run for run in runs}
    for index, crc in enumerate(crcs):
        run = seen.get(index)
        if run is None or run.bench_record is None:
            problems.append("bundle %d (CRC-32 0x%08x) has no bench record" % (index, crc))
            continue
        got = run.bench_record.get("crc32")
        value = int(got, 16) if isinstance(got, str) else got
        if value is not None and value != crc:
            problems.append("bench %d says CRC-32 %s, but the bundle sent as %d has 0x%08x"
                            % (index, got, index, crc))
    problems += ["bench %d: no bundle was sent as %d" % (r.bench, r.bench) for r in runs
                 if r.bench >= len(crcs)]
    return problems


def unfinished(runs):
    """The runs the kernel began and never finished: a bench record that took the bundle (no
    error) and has events, but no result (the boot ended inside it)."""
    return ["bench %d: the kernel took the bundle but wrote no result" % run.bench
            for run in runs if run.bench_record is not None and run.error is None and
            any(run.bench_record.get("events") or []) and not run.results]


def check_numbers(r, how, repetitions=1):
    """What is wrong with a result's numbers: HT0's value against its run sets (nanoBench's
    difference of their aggregates), HT1's (and an earlier kernel's) against its values; min
    and max against the values."""
    values = [pmu_bench_aggregate.from_json(v) for v in r.get("values", [])]
    if r.get("value") is None:
        return [] if r.get("reason") else ["no value and no reason"]
    if r.get("reason"):
        return ["a value and a reason"]
    runs = r.get("runs")
    if runs:
        want = pmu_bench_aggregate.run_difference(
            pmu_bench_aggregate.from_json(runs["long"]["agg"]),
            pmu_bench_aggregate.from_json(runs["short"]["agg"]), repetitions)
        checks = [("value", want, "the %s of its 2N runs less that of its N runs, per "
                   "repetition" % how)]
    elif not values:
        return ["a value without values"]
    else:
        checks = [("value", pmu_bench_aggregate.aggregate(values, how),
                   "the %s of its values" % how)]
    if values:
        checks += [("min", min(values), "the min of its values"),
                   ("max", max(values), "the max of its values")]
    problems = []
    for key, want, what in checks:
        got = r.get(key)
        if got is None or pmu_bench_aggregate.from_json(got) != want:
            problems.append("%s %s is not %s (%s)" % (key, got, what,
                                                     pmu_bench_aggregate.text(want)))
    return problems


def range_of(r, options, repetitions):
    """nanoBench's -range: [least; most] in hundredths, HT0's from its run sets (the long runs'
    least less the short runs' most, and the other way round), HT1's its values' own; None
    without a value."""
    if r.get("value") is None:
        return None
    runs = r.get("runs")
    if not runs:
        values = [pmu_bench_aggregate.from_json(v) for v in r.get("values", [])]
        return (min(values), max(values)) if values else None
    short, long_ = runs["short"], runs["long"]
    return (pmu_bench_aggregate.run_difference(long_["min"] * 100, short["max"] * 100,
                                               repetitions),
            pmu_bench_aggregate.run_difference(long_["max"] * 100, short["min"] * 100,
                                               repetitions))


def value_text(r, options, repetitions=1):
    """The value as nanoBench prints it (with -range its range: a least below zero reads <0, as
    no figure printed is below zero), or "n/a (reason)"."""
    if r.get("value") is None:
        return "n/a (%s)" % (r.get("reason") or "no value")
    decimals = not options.get("no_normalization", False)
    text = pmu_bench_aggregate.text(pmu_bench_aggregate.from_json(r["value"]), decimals)
    span = range_of(r, options, repetitions) if options.get("range") else None
    if span:
        text += " [%s;%s]" % tuple("<0" if h < 0 else pmu_bench_aggregate.text(h, decimals)
                                   for h in span)
    return text


def empty(r):
    """-remove_empty_events: a value of 0 (nanoBench's script drops its lines of 0.00)."""
    return r.get("value") is not None and pmu_bench_aggregate.from_json(r["value"]) == 0


def overlap_note(run):
    """How much of HT0's runs HT1's loop ran beside (None without a sibling loop): the least
    overlap_pct of the bundle's results, and the measurements made again as HT0 ran alone."""
    counted = [r for r in run.results if r.get("overlap_pct") is not None]
    if not counted:
        return None
    least = min(r["overlap_pct"] for r in counted)
    # alone_again is per pass: once a pass, in HT0's results (HT1's repeat them)
    again = sum({r.get("pass"): r.get("alone_again", 0) for r in counted}.values())
    # With no sibling given HT1 still runs a loop when it counts (-sibling_config's events or
    # -xsu core's catchers): an empty one, a spin between its reads.
    loop = "HT1's loop" if run.options.get("sibling") != "none" else \
        "HT1's empty loop (no sibling was given: it spins to read its counters, the catchers " \
        "of -xsu core or -sibling_config's events)"
    text = "%s ran beside %d%% of HT0's runs (overlap_pct, the least of a measurement)" % (
        loop, least)
    if least == 0:
        text += ": in a pass HT1 ran no copy beside HT0's runs at all (its host held it " \
            "back, or its workload halts), so nothing HT1 did reached HT0's counts there"
    if again:
        text += "; %d measurement(s) made again as HT0 ran alone" % again
    return text


# The corrupting events of the erratum (BJ122, BV98, HSD29): event selects 0xD0-0xD3.
CORRUPTING = range(0xD0, 0xD4)


def leak_share(evtsel, pmu):
    """The share of a corrupting event's count the model moves to the sibling (its pmu record's
    model.shares, the event and unit mask's entry before the event's), or None."""
    code = "0x%04x" % (evtsel & 0xFFFF)
    shares = {e.get("event"): e.get("share") for e in
              ((pmu.get("model") or {}).get("shares") or [])}
    found = shares.get(code, shares.get("0x%02x" % (evtsel & 0xFF)))
    return found if isinstance(found, (int, float)) else None


def xsu_on_note(run, pmu):
    """Under -xsu on, on a core with the erratum (the pmu record's), what the counted corrupting
    events lose: their leak into the sibling's unused counter of the same index, which Linux's
    XSU does not catch and core-wide XSU gives back. None otherwise."""
    if run.options.get("xsu") != "on" or not pmu or not pmu.get("erratum") or \
            not pmu.get("smt") or (pmu.get("model") or {}).get("erratum_applied") is False:
        return None
    named = []
    for r in run.results:
        evtsel = r.get("evtsel")
        if r.get("value") is None or not isinstance(evtsel, str):
            continue
        code = int(evtsel, 16)
        if code & 0xFF not in CORRUPTING:
            continue
        share = leak_share(code, pmu)
        text = "%s (%.1f%% under the model)" % (r["name"], 100 * share) if share else r["name"]
        if text not in named:
            named.append(text)
    if not named:
        return None
    return "XSU on (the default) does not give back what the erratum (%s) moves of %s into the " \
        "sibling's unused counter of the same index: it is lost, as under Linux's XSU, and the " \
        "count reads that much low; -xsu core catches it there and gives it back" % (
            pmu["erratum"], ", ".join(named))


def notes(run, pmu=None):
    """The notes of a bundle's results (the trace of fewer copies, HT1's overlap, what XSU on
    loses; pmu: the boot's pmu record), each once."""
    seen = []
    for r in run.results:
        if r.get("note") and r["note"] not in seen:
            seen.append(r["note"])
    overlap = overlap_note(run)
    lost = xsu_on_note(run, pmu)
    return seen + ([overlap] if overlap else []) + ([lost] if lost else [])


def alone_text(r):
    """What a line adds when HT1's loop did not run beside HT0's runs of its pass at all: its
    value, a 0.00 say, holds nothing of what HT1 did."""
    if r["thread"] != 0 or r.get("overlap_pct") != 0:
        return ""
    return " (HT1 did not run beside these runs: overlap_pct 0)"


def verbose_lines(run, results):
    """-verbose: every run's count of each of HT0's events, the runs with N copies, then 2N."""
    o = run.options
    shapes = (o.get("unroll_count", 0), o.get("loop_count", 0))
    short = (0, 0) if o.get("basic_mode") else shapes
    long_ = shapes if o.get("basic_mode") else (2 * shapes[0], shapes[1])
    lines = ["", "Every run's count (unroll_count=%d, loop_count=%d | unroll_count=%d, "
             "loop_count=%d):" % (short + long_)]
    for r in results:
        c = run.counts.get((r["thread"], r["index"]))
        if c:
            lines.append("%s: %s | %s" % (r["name"], " ".join(str(v) for v in c["short"]),
                                          " ".join(str(v) for v in c["long"])))
    return lines if len(lines) > 2 else []


def fault_text(fault):
    where = "part %s" % fault.get("part")
    if fault.get("offset") is not None:
        where += " at offset %d" % fault["offset"]
    if fault.get("vector") == "timeout":
        return "timeout: %s did not finish within the time limit (bench_ms)" % where
    return "fault: %s in %s" % (fault.get("vector"), where)


def render_run(run, numbered, name=None):
    lines = []
    if numbered:
        # Counted from 1 for people, as the files are (bench1.bin); records count from 0.
        name = name or (run.bench_record or {}).get("name")
        lines.append("Bundle %d%s:" % (run.bench + 1, " (%s)" % name if name else ""))
    if run.error:
        lines.append("the kernel refused this bundle: %s" % run.error)
    threads = run.threads()
    # nanoBench's plain lines when only HT0 counts; a heading per thread when HT1 counts too.
    per_thread = set(threads) - {0} != set()
    for thread, results in threads.items():
        if per_thread:
            lines.append("HT%d:" % thread)
        for r in results:
            if run.options.get("remove_empty_events") and empty(r):
                continue
            lines.append("%s: %s%s" % (r["name"], value_text(r, run.options, run.repetitions),
                                       alone_text(r)))
        if run.options.get("verbose") and thread == 0:
            lines += verbose_lines(run, results)
        if per_thread:
            lines.append("")
    if per_thread:
        lines.pop()
    if run.fault:
        lines.append(fault_text(run.fault))
    return lines


def render_text(runs, names=None):
    """nanoBench's lines of every run; a header per bundle when there are several, with the
    bundle's file name from names (pmu-bench's own paths) or its record."""
    names = names or []
    blocks = [render_run(run, len(runs) > 1, names[run.bench] if run.bench < len(names)
                         else None) for run in runs]
    return "\n\n".join("\n".join(b) for b in blocks) + ("\n" if blocks else "")


def json_range(span):
    """-range for --json: [least, most], a least below zero null (no figure below zero)."""
    if span is None:
        return None
    return [None if h < 0 else h / 100 for h in span]


def _number(v):
    return None if v is None else pmu_bench_aggregate.from_json(v) / 100


def json_run(run):
    threads = []
    for thread, results in run.threads().items():
        threads.append({"thread": thread, "events": [{
            "name": r["name"], "event": r["event"], "value": _number(r.get("value")),
            "modelled": bool(r.get("modelled")) and r.get("value") is not None,
            "reason": r.get("reason"), "min": _number(r.get("min")),
            "max": _number(r.get("max")), "values": [_number(v) for v in r.get("values", [])],
            "backwards": r.get("backwards", 0), "overlap_pct": r.get("overlap_pct"),
            "alone_again": r.get("alone_again"),
            "runs": r.get("runs"), "note": r.get("note"),
            "range": json_range(range_of(r, run.options, run.repetitions)),
            "counts": {k: run.counts[(thread, r["index"])][k] for k in ("short", "long")}
            if (thread, r["index"]) in run.counts else None,
        } for r in results]})
    obj = {"threads": threads, "fault": run.fault}
    if run.error:
        obj["error"] = run.error
    return obj


def render_json(runs):
    """One bundle: {"threads": [...], "fault": ...}; several: {"bundles": [one each]}."""
    if len(runs) == 1:
        return json_run(runs[0])
    return {"bundles": [json_run(r) for r in runs]}


def failed(runs):
    """Whether a bundle faulted, timed out or was refused (pmu-bench's exit status 1)."""
    return any(run.fault or run.error for run in runs)


def report_text(records):
    """pmu-report's section for a log with bench records ("" without any): the same lines as
    pmu-bench prints, and what breaks their contract."""
    runs, problems = collect(records)
    if not runs and not problems:
        return ""
    lines = ["", "Your own code (bench records; docs/own-code.md):", ""]
    lines += render_text(runs).rstrip("\n").splitlines()
    lines += ["problem: " + p for p in problems]
    return "\n".join(lines) + "\n"
