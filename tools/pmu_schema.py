"""The record contract of docs/records.md as one table of data: for every record type, its keys in
the document's order, each with its JSON type, range or allowed values, and whether every record
of the type holds it (a plain spec) or only some do (optional(spec)).

    clean, problems, usable = validate(obj)

`clean` is the record without the keys whose values break the contract, `problems` names each
key that is missing or wrong, one sentence each ("no key xsu", 'key sched: "str" is not one of
greedy, hk'), and `usable` is false when a key the report needs to place the record (its
experiment, run, thread, event...) is missing or wrong. Keys this table does not list are kept as
they are (docs/records.md: new keys may be added), and so are the records of types it does not
list, which the report names; only a number beyond a double's range (1e999) is refused anywhere,
since no file the report writes could hold it.

Adding a key is one line here and one row in docs/records.md's table of its record;
tests/report/test_contract.py holds the two to each other (keys, types, presence, values).
"""

from pmu_spec import (Array, Bool, Enum, Hex, I64_MAX, I64_MIN, Int, Null, Num, Obj,
                      RecordType, Str, U64_MAX, optional)

# ---- the vocabulary of docs/records.md ----------------------------------------------------------

U64 = Int(0, U64_MAX)
U32 = Int(0, 2 ** 32 - 1)
I64 = Int(I64_MIN, I64_MAX)
TEXT = Str()
WORD = Str(r".+", "a string that is not empty")
BOOL = Bool()
HEX = Hex()
# Names that become file names and table headings (experiments, events, phases, schedulers,
# policies): printable, no spaces, no path separators, not starting with a dot.
NAME = Str(r"[A-Za-z0-9_{][A-Za-z0-9_.:,=+\-/{}]{0,127}",
           "a name (letters, digits and _.:,=+-/{}, at most 128)")
EXP_NAME = Str(r"[A-Za-z0-9_][A-Za-z0-9_.+\-]{0,63}",
               "an experiment name (letters, digits, _.+-, at most 64)")
# What a count programmed: "0x" and the unit mask and event select, two hex digits each.
CODE = Str(r"0x[0-9a-f]{4}", '"0x" and four lowercase hex digits')
COUNTER = Str(r"gp[0-7]|fixed[0-2]", "gp0-gp7 or fixed0-fixed2")
# XSU modes: off, on, and core-wide XSU (docs/records.md, `exp`), in the order tables show them.
XSU_MODES = ("off", "on", "core")
XSU = Enum(*XSU_MODES)
SCHED = Enum("greedy", "hk")
PHASE = Enum("measure", "baseline", "alone", "limit")
POLICY = Enum("off", "on-greedy", "on-hk", "on-limit", "core")
SKIP = Enum("no_smt", "no_erratum", "too_little_data", "no_pmu", "unsupported_event",
            "too_few_counters")
BACKEND = Enum("model", "hw")
THREAD = Int(0, 255)
REP = Int(0, 2 ** 32 - 1)
FRACTION = Num(0, 1)
PER_THREAD = Array(U64)
# Per thread, a figure with two decimals (register accesses per tick).
PER_THREAD_NUM = Array(Num(0))
# What the sibling's counter held in a leak survey's measurement (docs/records.md, `survey`);
# a record without the key is of a kernel before the two disabled states: "zero_event".
SIBLING_STATES = ("zero_event", "en_clear", "global_clear")


# A bundle of your own code (docs/records.md, `bench` and `bench_result`; docs/own-code.md).
BENCH_PARTS = ("one_time_init", "init", "late_init", "code", "sibling")
BENCH_AGGREGATES = ("avg", "median", "min", "max")
BENCH_OPTIONS = Obj({
    "unroll_count": U32, "loop_count": U32, "n_measurements": U32, "warm_up_count": U32,
    "initial_warm_up_count": U32, "alignment_offset": U32, "aggregate": Enum(*BENCH_AGGREGATES),
    "basic_mode": BOOL, "no_normalization": BOOL, "usr": BOOL, "os": BOOL,
    "fixed_counters": BOOL, "xsu": XSU, "ring": Int(0, 3),
    "sibling": Enum("none", "code", "work"), "sibling_work": Null(TEXT),
    "range": BOOL, "remove_empty_events": BOOL, "verbose": BOOL, "df": BOOL, "no_mem": BOOL})
# HT0's run set of one kind (the runs with N copies, or those with 2N): nanoBench's aggregate of
# their counts (hundredths of a count), the least and the most.
BENCH_RUN_SET = Obj({"agg": Num(0), "min": U64, "max": U64})
# What ends a bundle (tests/owncode/bench_exec.h): an exception the code raised, by its mnemonic
# (SDM vol. 3A, table 6-1), an NMI it made, a system call it attempted, or the time limit.
BENCH_VECTORS = ("#DE", "#DB", "#BP", "#OF", "#BR", "#UD", "#NM", "#DF", "#TS", "#NP", "#SS",
                 "#GP", "#PF", "#MF", "#AC", "#XM", "NMI", "syscall", "timeout")
BENCH_FAULT = Obj({"vector": Enum(*BENCH_VECTORS), "part": Enum(*BENCH_PARTS),
                   "offset": Null(U64)})


def xsu_key(xsu):
    """Sort key of an XSU mode: off, on, core, then anything else (None: a record without)."""
    return (XSU_MODES.index(xsu) if xsu in XSU_MODES else len(XSU_MODES), str(xsu))


# Every record of a run carries these (docs/records.md, "a run"); `policy` only in experiments
# that compare scheduling policies.
RUN = dict(exp=EXP_NAME, phase=PHASE, xsu=XSU, sched=SCHED, rep=REP, policy=optional(POLICY))
RUN_PLACE = ("exp", "phase", "xsu", "sched", "rep")

# ---- the records --------------------------------------------------------------------------------

RECORDS = {
    "boot": RecordType(dict(
        boot=Enum("multiboot2", "multiboot1", "uefi", "unknown"),
        loader=Null(TEXT),
        cmdline=TEXT,
        mem_mib=U64,
        acpi_rsdp=Null(HEX),
        memory_regions=U64,
        acpi_source=Enum("multiboot2-acpi1", "multiboot2-acpi2", "uefi", "bios-scan", "none"),
        uefi=BOOL,
        cpu=Obj(dict(vendor=TEXT, family=U32, model=U32, stepping=U32, brand=TEXT,
                     hypervisor=Null(TEXT), avx=BOOL)),
        microcode=Null(HEX),
        cpus=U32,
        topology_source=Enum("cpuid-0x0b", "cpuid-0x01-0x04", "none"),
        core_threads=Array(Array(U32)),
        smp=Enum("pair", "all"),
        packages=U32,
        cores=U32,
        threads_per_core=U32,
        core=Null(U32),
        threads=Array(U32),
        smt=BOOL,
        tsc_hz=U64,
        tsc_ref=Null(Enum("acpi_pm", "pit", "none")),
        apic_timer_hz=U64,
        apic_mode=Enum("xapic", "x2apic"),
        version=WORD,
        console=Obj(dict(serial=Null(HEX), baud=U32, vga=BOOL, screen=Null(TEXT))),
        config=Obj(dict(exp=Null(TEXT), xsu=TEXT, sched=TEXT, pmu=TEXT, mux_ms=U32,
                        dur_ms=U32, repeat=U32, exit=TEXT, selftest=TEXT, apic=TEXT,
                        ht0=Null(TEXT), ht1=Null(TEXT), work0=TEXT, work1=TEXT,
                        start1_ms=U32)),
        step=optional(TEXT),
        error=optional(WORD),
    ), shapes={"error": ("version", "boot", "error")}),
    "warn": RecordType(dict(
        key=TEXT,
        value=TEXT,
        accepted=TEXT,
        message=TEXT,
        used=Null(TEXT),
        source=WORD,
    )),
    "exception": RecordType(dict(
        vector=Int(0, 255),
        name=WORD,
        description=TEXT,
        error_code=Null(U64),
        rip=HEX,
        cr2=HEX,
        cpu=U32,
        cpu_index=U32,
        cpl=Int(0, 3),
        registers=Obj(others=HEX),
        backtrace=Array(HEX),
    )),
    "pmu": RecordType(dict(
        backend=Enum("hw", "model", "none"),
        reason=TEXT,
        version=Int(0, 255),
        gp=Int(0, 64),
        gp_width=Int(0, 64),
        fixed=Int(0, 64),
        fixed_width=Int(0, 64),
        full_width=BOOL,
        uarch=Enum("sandybridge", "ivybridge", "haswell", "broadwell", "skylake", "icelake",
                   "unknown"),
        erratum=Null(Enum("BJ122", "BV98", "HSD29")),
        hypervisor=Null(TEXT),
        smt=BOOL,
        tsx_force_abort=BOOL,
        firmware_counters=Null(Array(TEXT)),
        # What the PMU MSRs held when the kernel took over; a value is null where the MSR
        # faulted.
        msrs=Null(Obj(others=Null(HEX))),
        model=optional(Obj(dict(
            erratum_applied=BOOL,
            shares=Array(Obj(dict(event=TEXT, name=Null(TEXT), share=FRACTION)))))),
    )),
    "cpu": RecordType(dict(
        apic=U32,
        index=U32,
        started=BOOL,
        start_us=U64,
        core=Null(U32),
        initial_apic_id=optional(U32),
        x2apic_id=optional(U32),
    )),
    "tick": RecordType(dict(
        period_ms=U32,
        interval_ns=U64,
        expected=U64,
        ticks=PER_THREAD,
        error_pct=Array(Num()),
        held_us=optional(PER_THREAD),
        apic=Array(U32),
        tick_tsc_mean=PER_THREAD,
        tick_tsc_max=PER_THREAD,
        ticks_late=PER_THREAD,
        ticks_lost=PER_THREAD,
    )),
    "sibling": RecordType(dict(
        apic=Array(U32),
        results=Array(Obj(dict(thread=THREAD, cpl=Int(0, 3), expected=U64, sse=U64, avx=U64,
                               ok=BOOL))),
        skew_tsc=I64,
        skew_ns=I64,
    )),
    "pmu_check": RecordType(dict(
        backend=BACKEND,
        workload=TEXT,
        units=U64,
        events=Array(TEXT),
        skipped=Array(TEXT),
        # A count the check could not make (its counter is missing) is null.
        threads=Array(Obj(dict(thread=THREAD, apic=U32, status=TEXT, counts=Array(Null(U64)),
                               expected=Array(Null(U64)), wraps=U64, ok=BOOL))),
        ok=BOOL,
    )),
    "rdpmc": RecordType(dict(
        backend=BACKEND,
        emulated=BOOL,
        event=TEXT,
        units=U64,
        reads=U64,
        cycles=Null(Num(0)),
        median=Null(U64),
        min=Null(U64),
        max=Null(U64),
        reason=Null(TEXT),
        threads=Array(Obj(dict(thread=THREAD, apic=U32, status=TEXT, reads=U64,
                               emulated_reads=U64, cycles=Num(0), median=U64, min=U64,
                               max=U64, empty_tsc=U64, region_calls=U64,
                               region_instructions=U64, ok=BOOL))),
        ok=BOOL,
    )),
    "exp": RecordType(dict(
        RUN,
        lists=optional(NAME),
        repeat=Int(1, 2 ** 32),
        title=optional(TEXT),
        section=optional(TEXT),
        description=optional(TEXT),
        rule=optional(TEXT),
        threads=Array(Obj(dict(thread=THREAD, apic=U32, events=Array(NAME), offset_ns=U64,
                               workload=TEXT))),
        duration_ns=U64,
        mux_ms=U32,
        params=Obj(),
        tolerance=optional(Obj(dict(pct=Num(0), abs=Num(0)))),
        workload=optional(TEXT),
        zero_event=optional(NAME),
        events=optional(U32),
        measurements=optional(U32),
    ), place=RUN_PLACE, shapes={"zero_event": RUN_PLACE + (
        "repeat", "title", "section", "rule", "duration_ns", "mux_ms", "workload", "zero_event",
        "events", "measurements")}),
    "progress": RecordType(dict(
        RUN,
        done_pct=Int(0, 100),
        elapsed_ns=U64,
    ), place=RUN_PLACE),
    "count": RecordType(dict(
        RUN,
        thread=THREAD,
        apic=U32,
        event=NAME,
        code=Null(CODE),
        name=Null(WORD),
        corrupting=BOOL,
        counter=Null(COUNTER),
        raw=U64,
        enabled=U64,
        running=U64,
        scaled=Null(U64),
        interfered=BOOL,
        any_thread=BOOL,
        baseline=optional(U64),
        tolerance=optional(U64),
        leak=optional(U64),
        true=optional(Null(U64)),
    ), place=RUN_PLACE + ("thread", "event")),
    "exp_end": RecordType(dict(
        RUN,
        elapsed_ns=U64,
        ticks=PER_THREAD,
        exposure=Null(U64),
        skew_tsc=Null(I64),
        units=PER_THREAD,
        invariant_violations=U64,
        overlap_pct=Int(0, 100),
        joint_unanswered=optional(U64),
        joint_gap_pct=optional(Num(0, 100)),
        handovers=optional(U64),
        joint_retries=optional(U64),
        joint_send_failures=optional(U64),
        tick_tsc_mean=PER_THREAD,
        tick_tsc_max=PER_THREAD,
        tick_tsc_total=optional(PER_THREAD),
        ticks_late=PER_THREAD,
        ticks_lost=PER_THREAD,
        msr_writes_per_tick=optional(PER_THREAD_NUM),
        pace_pct=optional(PER_THREAD_NUM),
        msr_reads_per_tick=optional(PER_THREAD_NUM),
        smi_count=optional(Null(U64)),
    ), place=RUN_PLACE),
    "survey": RecordType(dict(
        exp=EXP_NAME,
        xsu=XSU,
        rep=REP,
        event=NAME,
        name=Null(WORD),
        corrupting=BOOL,
        control=BOOL,
        index=Int(0, 63),
        sibling_index=Int(0, 63),
        same_index=BOOL,
        count=U64,
        leak=U64,
        ratio=Null(FRACTION),
        overlap_pct=Int(0, 100),
        sibling_state=optional(Enum(*SIBLING_STATES)),
    ), place=("exp", "xsu", "rep", "event", "index", "sibling_index")),
    "verdict": RecordType(dict(
        exp=EXP_NAME,
        xsu=XSU,
        sched=Enum("greedy", "hk", "both"),
        result=Enum("pass", "fail", "skip"),
        reason=TEXT,
        exposure=U64,
        checked=U64,
        corrupted=U64,
        skip=optional(SKIP),
    ), place=("exp", "xsu", "result")),
    "bench": RecordType(dict(
        bench=U32,
        source=Enum("multiboot1", "multiboot2", "uefi"),
        name=Null(TEXT),
        size=U64,
        crc32=Null(HEX),
        version=Null(U32),
        error=Null(TEXT),
        options=Null(BENCH_OPTIONS),
        parts=Null(Obj(others=U64)),
        events=Null(Array(U32)),
        repetitions=Null(U64),
    ), place=("bench",)),
    "bench_result": RecordType(dict(
        bench=U32,
        thread=THREAD,
        index=U32,
        event=TEXT,
        name=TEXT,
        evtsel=Null(HEX),
        counter=Null(TEXT),
        **{"pass": Null(U32)},
        values=Array(Num(0)),
        value=Null(Num(0)),
        min=Null(Num(0)),
        max=Null(Num(0)),
        modelled=BOOL,
        reason=Null(TEXT),
        backwards=optional(U32),
        overlap_pct=optional(Null(Int(0, 100))),
        alone_again=optional(U32),
        runs=optional(Null(Obj({"short": BENCH_RUN_SET, "long": BENCH_RUN_SET}))),
        note=optional(Null(TEXT)),
        fault=Null(BENCH_FAULT),
    ), place=("bench", "thread", "index", "event", "name")),
    "bench_counts": RecordType(dict(
        bench=U32,
        thread=THREAD,
        index=U32,
        short=Array(U64),
        long=Array(U64),
    ), place=("bench", "thread", "index")),
    # selftest=profiles: a workload's code traced with the trap flag (tests/profiles/profiles.h).
    "trace": RecordType(dict(
        workload=WORD,
        units=U64,
        chunk_units=U64,
        chunks=U64,
        steps=U64,
        error=Null(TEXT),
        code=Obj(dict(start=HEX, end=HEX, crc32=HEX)),
        ledger=Array(Obj(dict(profile=TEXT, units=U64))),
        model=Obj(others=U64),
        base=HEX,
        edges=Array(I64),
    ), place=("workload", "units", "chunks", "code", "model", "base", "edges")),
    "end": RecordType(dict(
        records=U64,
        verdict=Enum("pass", "fail"),
        failures=U64,
        reason=Null(TEXT),
    ), place=("verdict",)),
}

# A type the table does not list: any keys, none required.
UNKNOWN_TYPE = RecordType({})


def validate(obj):
    """(clean record, problems, usable) of one record's JSON object (which has a string "type").
    A record the kernel cut short ({"type":..., "truncated": true}) has lost its keys: that is a
    problem, and the record is not usable. A record of a type this table does not know keeps its
    keys (but numbers beyond a double's range) and is usable: the report names it."""
    type_name = obj["type"]
    keys = dict(obj)
    del keys["type"]
    if keys.get("truncated") is True:
        return obj, ["truncated by the kernel (longer than a record's 4096 bytes): its keys are "
                     "lost"], False
    clean, problems, usable = RECORDS.get(type_name, UNKNOWN_TYPE).check(keys)
    clean["type"] = type_name
    return clean, problems, usable



# ---- comparison.json: pmu-report with several logs (docs/report.md, "comparison.json") -----------
# Its objects by name, each a table of keys as a record's; COMPARISON_TREE says which key of which
# object holds objects of which name, so that the whole file can be checked (comparison_problems).

COUNT_OF = Obj(others=U64)
FIGURE = Null(Num())
COMPARISON = {
    "comparison": RecordType(dict(
        logs=Array(Obj()), machines=Array(Obj()), differences=Array(Obj()),
        experiments=Array(Obj()), single_experiments=Array(Obj()), surveys=Array(Obj()),
        findings=Array(TEXT), plots=Array(Obj()), summary=Obj())),
    "comparison_log": RecordType(dict(
        source=TEXT, machine=Null(TEXT), use=Enum("whole", "partial", "left out", "duplicate"),
        reason=Null(TEXT), state=Enum("intact", "not to contract", "damaged", "no records"),
        complete=BOOL, records=U64, lost=Array(Array(U64)), problems=COUNT_OF,
        version=Null(TEXT), exit=Int(0, 5), passed=BOOL, verdict=Null(Enum("pass", "fail")),
        verdicts=COUNT_OF,
        failures=Array(TEXT))),
    "comparison_machine": RecordType(dict(
        label=TEXT, logs=Array(TEXT), cpu=Null(Obj()), microcode=Null(HEX),
        backend=Null(Enum("model", "hw", "none")), model=BOOL, uarch=Null(TEXT),
        erratum=Null(TEXT), pmu_version=Null(U32), gp=Null(U32), fixed=Null(U32),
        versions=Array(TEXT))),
    "comparison_difference": RecordType(dict(record=TEXT, key=Null(TEXT), lacking=Array(TEXT))),
    "comparison_experiment": RecordType(dict(
        exp=EXP_NAME, title=Null(TEXT), section=Null(TEXT), rule=Null(TEXT),
        machines=Array(TEXT), runs=Array(Obj()), verdicts=Array(Obj()), excess=Array(Obj()))),
    "comparison_run": RecordType(dict(label=TEXT, phase=PHASE, xsu=XSU, sched=Null(SCHED),
                                      policy=Null(POLICY))),
    "comparison_verdict": RecordType(dict(
        machine=TEXT, xsu=Null(XSU), sched=Null(TEXT), policy=Null(POLICY), label=TEXT,
        result=Enum("pass", "fail", "skip"), skips=Array(TEXT), logs=U32, results=COUNT_OF)),
    "comparison_excess": RecordType(dict(
        machine=TEXT, run=TEXT, phase=PHASE, xsu=XSU, sched=Null(SCHED), policy=Null(POLICY),
        thread=THREAD, event=NAME, mean=Num(), rsd_pct=FIGURE, n=U32, baseline=Num(),
        pct=FIGURE, corrupted=U32)),
    "comparison_survey": RecordType(dict(
        xsu=XSU, machines=Array(TEXT), columns=Array(TEXT), rows=Array(Obj()),
        names=Obj(others=Obj(others=TEXT)), corrupting=Obj(others=Array(TEXT)),
        no_leak=Array(TEXT), nothing_counted=Array(TEXT), single=Array(Obj()))),
    "comparison_row": RecordType(dict(event=NAME, column=TEXT, cells=Obj(others=Obj()),
                                      marked=Array(TEXT))),
    "comparison_cell": RecordType(dict(value=FIGURE, spread=FIGURE, n=U32, rsd_pct=FIGURE,
                                       uncertainty=FIGURE, unreliable=Null(TEXT))),
    "comparison_plot": RecordType(dict(file=TEXT, kind=Enum("leak_map", "excess"),
                                       exp=Null(TEXT), xsu=Null(XSU), panels=U32, bars=U32)),
    "comparison_summary": RecordType(dict(
        machines=U32, logs=U32, compared=U32, left_out=U32, partial=BOOL, model=BOOL,
        exit=Int(0, 5))),
}
# How an object holds others: a list of them, a map of names to them, or one.
LIST, MAP, ONE = "list", "map", "one"
COMPARISON_TREE = {
    "comparison": {"logs": ("comparison_log", LIST), "machines": ("comparison_machine", LIST),
                   "differences": ("comparison_difference", LIST),
                   "experiments": ("comparison_experiment", LIST),
                   "surveys": ("comparison_survey", LIST), "plots": ("comparison_plot", LIST),
                   "summary": ("comparison_summary", ONE)},
    "comparison_experiment": {"runs": ("comparison_run", LIST),
                              "verdicts": ("comparison_verdict", LIST),
                              "excess": ("comparison_excess", LIST)},
    "comparison_survey": {"rows": ("comparison_row", LIST)},
    "comparison_row": {"cells": ("comparison_cell", MAP)},
}


def comparison_problems(obj, name="comparison", path="comparison"):
    """Each key of a comparison.json object (and of the objects in it) missing or of the wrong
    type, a sentence each; [] for a file to docs/report.md."""
    clean, problems, _ = COMPARISON[name].check(obj)
    found = ["%s: %s" % (path, p) for p in problems]
    for key, (part, how) in COMPARISON_TREE.get(name, {}).items():
        value = clean.get(key)
        if value is None:
            continue
        where = "%s.%s" % (path, key)
        items = {LIST: lambda: [("%s[%d]" % (where, i), v) for i, v in enumerate(value)],
                 MAP: lambda: [("%s.%s" % (where, k), v) for k, v in value.items()],
                 ONE: lambda: [(where, value)]}[how]()
        for item_path, item in items:
            found.extend(comparison_problems(item, part, item_path))
    return found
