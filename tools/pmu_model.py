"""The log model: what a checked record stream says, as experiments with their runs, counts and
verdicts, the boot and PMU records, and the exit status of pmu-report.

Every record reaching this module has kept the contract of docs/records.md (pmu_records.py checks
each against pmu_schema.py and drops the keys that break it), so a value here has its documented
type; a key may still be absent (an older kernel, a record that lost a key), and then the model
says None. Nothing here knows an experiment by its name: titles, rules, runs and their columns
all come from the records.
"""

import collections
import math

import pmu_format
import pmu_schema
import pmu_survey

# Exit status of pmu-report (docs/report.md, docs/records.md). The worst applicable one wins, in
# the order NO_RECORDS, DAMAGED, CONTRACT, FAIL: a log that lost records or breaks the contract
# proves nothing, whatever its verdicts say.
EXIT_OK = 0          # complete, intact log to contract; every verdict pass or skip; end says pass
EXIT_FAIL = 1        # intact log, but a verdict failed, one is missing, an exception, end says fail
EXIT_USAGE = 2       # bad arguments, unreadable log, unwritable results folder
EXIT_DAMAGED = 3     # records lost, garbled, out of order, repeated; no end record
EXIT_NO_RECORDS = 4  # not a single record: not a pmu-testkernel log, or the wrong serial port
EXIT_CONTRACT = 5    # intact, but a record lacks a key or holds a value docs/records.md refuses
EXIT_STATUSES = (EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_DAMAGED, EXIT_NO_RECORDS, EXIT_CONTRACT)

RESULT_RANK = {"pass": 0, "skip": 1, "fail": 2}
# How a run's tick overhead was computed (Run.tick_overhead_from).
TICK_TOTAL = "tick_tsc_total"
TICK_MEAN = "ticks x tick_tsc_mean"
SCHED_ORDER = {"greedy": 0, "hk": 1}


class Count:
    """One `count` record: one event on one thread in one repetition of one run."""

    def __init__(self, record):
        o = record.obj
        self.seq = record.seq
        self.exp = o["exp"]
        self.run_key = run_key(o)
        self.phase, self.xsu, self.sched, self.policy = self.run_key
        self.rep = o.get("rep", 0)
        self.thread = o["thread"]
        self.apic = o.get("apic")
        self.event = o["event"]
        self.code = o.get("code")
        self.name = o.get("name")
        # Corrupting or not is the kernel's word (the record's key), never guessed from a code.
        self.corrupting = o.get("corrupting") is True
        self.counter = o.get("counter")
        self.raw = o.get("raw")
        self.enabled = o.get("enabled")
        self.running = o.get("running")
        self.scaled = o.get("scaled")
        self.baseline = o.get("baseline")
        self.tolerance = o.get("tolerance", 0)
        self.leak = o.get("leak")
        self.true = o.get("true")
        self.interfered = o.get("interfered") is True

    @property
    def not_counted(self):
        """perf's <not counted>: the event never ran on a counter."""
        return not self.running or self.value is None

    @property
    def value(self):
        """The count to show: the kernel's scaled value, else raw * enabled / running."""
        if self.scaled is not None:
            return self.scaled
        if self.raw is not None and self.enabled and self.running:
            return self.raw * self.enabled // self.running
        return None

    @property
    def running_fraction(self):
        if not self.enabled or self.running is None:
            return 0.0
        return self.running / self.enabled

    @property
    def checked(self):
        """Whether this count is compared to a baseline (non-corrupting events only: corrupting
        ones lose counts by design, chapter 8, and are never 'corrupted' by a sibling)."""
        return self.baseline is not None and not self.corrupting and not self.not_counted

    @property
    def corrupted(self):
        """True when more than its tolerance above its baseline; None when not checked."""
        if not self.checked:
            return None
        return self.value - self.baseline > self.tolerance

    @property
    def deviation_pct(self):
        if self.baseline is None or self.value is None or self.baseline == 0:
            return None
        return 100.0 * (self.value - self.baseline) / self.baseline

    @property
    def true_deviation_pct(self):
        """How far `scaled` is from the model's true count, percent of the true count."""
        if self.true is None or self.value is None or self.true == 0:
            return None
        return 100.0 * (self.value - self.true) / self.true

    def scaled_mismatch(self):
        """raw * enabled / running, when the kernel's scaled is not that (rounding aside)."""
        if None in (self.scaled, self.raw, self.enabled) or not self.running:
            return None
        expected = self.raw * self.enabled / self.running
        return None if abs(self.scaled - expected) <= max(1.0, expected * 1e-9) else expected


def _entry(end, key, thread):
    """An exp_end per-thread array's entry for the thread, or None."""
    values = end.get(key)
    return values[thread] if values is not None and thread < len(values) else None


def run_key(o):
    """(phase, xsu, sched, policy) of any record of a run; an absent phase is "measure"."""
    return (o.get("phase", "measure"), o.get("xsu"), o.get("sched"), o.get("policy"))


def mean(values):
    return sum(values) / len(values)


def perf_rsd_pct(values):
    """The relative standard deviation `perf stat -r` prints as ( +- x% ): the sample standard
    deviation (n - 1 in the denominator) divided by sqrt(n), which is the standard deviation of
    the mean, relative to the mean (tools/perf/util/stat.c, stddev_stats and rel_stddev_stats).
    That is not the plain sample standard deviation over the mean: it is sqrt(n) times smaller.
    None for fewer than two values; 0 when the mean is 0, as perf says."""
    n = len(values)
    if n < 2:
        return None
    m = mean(values)
    variance = sum((v - m) ** 2 for v in values) / (n - 1)
    return 100.0 * math.sqrt(variance / n) / m if m else 0.0


class Cell:
    """One event on one thread in one run: its counts over the repetitions. With one repetition
    it is that count; with more, the mean of the scaled counts that were counted, and perf's
    relative standard deviation."""

    def __init__(self, counts):
        self.counts = sorted(counts, key=lambda c: (c.rep, c.seq))
        self.counted = [c for c in self.counts if not c.not_counted]

    @property
    def reps(self):
        return len(self.counts)

    @property
    def not_counted(self):
        return not self.counted

    @property
    def value(self):
        if not self.counted:
            return None
        if len(self.counted) == 1:
            return self.counted[0].value
        return mean([c.value for c in self.counted])

    @property
    def rsd_pct(self):
        return perf_rsd_pct([c.value for c in self.counted])

    @property
    def running_fraction(self):
        return mean([c.running_fraction for c in self.counts])

    @property
    def corrupted(self):
        """True when a repetition was corrupted; None when none was checked."""
        judged = [c.corrupted for c in self.counts if c.corrupted is not None]
        return any(judged) if judged else None

    @property
    def interfered(self):
        return any(c.interfered for c in self.counts)

    def _mean_of(self, attribute):
        """The mean over the repetitions of a count attribute, of those that have it."""
        values = [getattr(c, attribute) for c in self.counts]
        values = [v for v in values if v is not None]
        return mean(values) if values else None

    @property
    def baseline(self):
        return self._mean_of("baseline")

    @property
    def true(self):
        """The model's true count (mean over the repetitions), when every counted one has it."""
        if not self.counted or any(c.true is None for c in self.counted):
            return None
        return mean([c.true for c in self.counted])

    @property
    def leak(self):
        """The sibling's leak caught and added back (xsu=core), raw; mean of the repetitions."""
        return self._mean_of("leak")

    @property
    def raw(self):
        return self._mean_of("raw")


class Verdict:
    def __init__(self, record):
        o = record.obj
        self.seq = record.seq
        self.exp = o["exp"]
        self.xsu = o.get("xsu")
        self.sched = o.get("sched")
        self.policy = o.get("policy")
        self.result = o["result"]
        self.reason = o.get("reason") or ""
        self.skip = o.get("skip")


class Run:
    """One run of an experiment: one phase, XSU mode, scheduler and policy, over its
    repetitions. Its counts are indexed by (thread, event) as they come, so that a table of any
    size is read in one pass."""

    def __init__(self, key):
        self.key = key
        self.phase, self.xsu, self.sched, self.policy = key
        self.starts = []      # the `exp` records' objects, one per repetition
        self.ends = []        # the `exp_end` records' objects
        self.counts = []
        self.label = None     # set by Experiment.columns()
        self._by_cell = collections.OrderedDict()   # (thread, event) -> [Count]
        self._cells = {}                            # (thread, event) -> Cell, made on demand

    def add_count(self, count):
        self.counts.append(count)
        self._by_cell.setdefault((count.thread, count.event), []).append(count)
        self._cells.pop((count.thread, count.event), None)

    @property
    def start(self):
        return self.starts[0] if self.starts else None

    @property
    def declared_repeat(self):
        """The `exp` records' `repeat` (1 when absent)."""
        return max([s.get("repeat", 1) for s in self.starts] + [1])

    @property
    def repeat(self):
        """How many repetitions the run has: the `exp` record's `repeat`, or as many as came."""
        return max([self.declared_repeat] + [c.rep + 1 for c in self.counts])

    @property
    def exposure(self):
        exposures = [e["exposure"] for e in self.ends if e.get("exposure") is not None]
        return sum(exposures) if exposures else None

    def cell(self, thread, event):
        key = (thread, event)
        if key not in self._by_cell:
            return None
        if key not in self._cells:
            self._cells[key] = Cell(self._by_cell[key])
        return self._cells[key]

    def cells(self, thread=None):
        """(thread, event, Cell) of every event counted in the run (or on one thread), in the
        order the counts came."""
        return [(t, e, self.cell(t, e)) for (t, e) in self._by_cell
                if thread is None or t == thread]

    def thread_setup(self, thread):
        """The `exp` record's entry for a thread, or {}."""
        for t in (self.start or {}).get("threads", []):
            if t.get("thread") == thread:
                return t
        return {}

    def running_fractions(self, thread):
        """(mean, minimum) running fraction of the thread's events, or None."""
        fractions = [cell.running_fraction for _, _, cell in self.cells(thread)]
        return (mean(fractions), min(fractions)) if fractions else None

    def tick_overhead(self, thread, tsc_hz):
        """The share of the run the thread spent in the tick handler, summed over the
        repetitions; None when a key it needs is absent (tick_overhead_from says how)."""
        found = self.tick_overhead_from(thread, tsc_hz)
        return found[0] if found else None

    def tick_overhead_from(self, thread, tsc_hz):
        """(share, how) of the thread's tick handler time over the run's length in TSC ticks
        (elapsed_ns with boot.tsc_hz), summed over the repetitions, or None. `how` is
        TICK_TOTAL: the handler's total cycles (exp_end.tick_tsc_total, every call counted);
        only in a log without it, TICK_MEAN: ticks times the handler's mean, which under core-wide
        XSU (ticks one per handover, the mean over every call) gives about half (issue 16)."""
        if not self.ends or not tsc_hz or any(e.get("elapsed_ns") is None for e in self.ends):
            return None
        elapsed = sum(e["elapsed_ns"] for e in self.ends) * tsc_hz / 1e9
        totals = [_entry(e, "tick_tsc_total", thread) for e in self.ends]
        if None not in totals:
            spent, how = sum(totals), TICK_TOTAL
        else:
            ticks = [_entry(e, "ticks", thread) for e in self.ends]
            means = [_entry(e, "tick_tsc_mean", thread) for e in self.ends]
            if None in ticks or None in means:
                return None
            spent, how = sum(t * m for t, m in zip(ticks, means)), TICK_MEAN
        return (spent / elapsed, how) if elapsed else None

    def per_tick(self, key, thread):
        """An exp_end figure per tick (msr_writes_per_tick, msr_reads_per_tick) over the
        repetitions: their mean weighted by each one's ticks of the thread, which is the accesses
        of every repetition over all their ticks; None when no exp_end has it."""
        pairs = [(_entry(e, key, thread), _entry(e, "ticks", thread)) for e in self.ends]
        pairs = [(v, t) for v, t in pairs if v is not None]
        if not pairs:
            return None
        values = [v for v, _ in pairs]
        ticks = sum(t for _, t in pairs) if all(t is not None for _, t in pairs) else 0
        if ticks:
            found = sum(v * (t / ticks) for v, t in pairs)
        else:
            found = sum(v / len(values) for v in values)
        # A mean lies within its values; one near a double's limit must not round to infinity,
        # which no JSON file could hold.
        return min(max(found, min(values)), max(values))

    def total(self, key):
        """The sum over the repetitions of an exp_end integer (smi_count, handovers,
        joint_retries, joint_unanswered), of those that have one; None when none has."""
        values = [e[key] for e in self.ends if isinstance(e.get(key), int)]
        return sum(values) if values else None

    def mean_of(self, key):
        """The mean over the repetitions of an exp_end number (joint_gap_pct), or None."""
        values = [e[key] for e in self.ends if e.get(key) is not None]
        return mean(values) if values else None

    def per_thread_total(self, key, thread):
        """The sum over the repetitions of an exp_end per-thread array's entry, or None."""
        values = [e[key][thread] for e in self.ends if thread < len(e.get(key, []))]
        return sum(values) if values else None

    def per_thread_max(self, key, thread):
        values = [e[key][thread] for e in self.ends if thread < len(e.get(key, []))]
        return max(values) if values else None


class Experiment:
    def __init__(self, name):
        self.name = name
        self.title = None
        self.section = None
        self.description = None
        self.rule = None
        self.runs = collections.OrderedDict()
        self.verdicts = []
        self.survey = []      # pmu_survey.Point of its `survey` records

    def run(self, key):
        if key not in self.runs:
            self.runs[key] = Run(key)
        return self.runs[key]

    def take_start(self, obj):
        """Titles come from the kernel's `exp` records only."""
        for attr in ("title", "section", "description", "rule"):
            if obj.get(attr):
                setattr(self, attr, obj[attr])

    def columns(self):
        """The runs as table columns: other phases (baseline, alone...) first in log order, then
        the measurements, XSU off, on, core, greedy before hk. Labels name only what varies, or
        the run's policy where the runs have one."""
        others = [r for r in self.runs.values() if r.phase != "measure"]
        measured = sorted((r for r in self.runs.values() if r.phase == "measure"),
                          key=column_order)
        runs = others + measured
        xsus, scheds = collections.defaultdict(set), collections.defaultdict(set)
        for r in runs:
            xsus[r.phase].add(r.xsu)
            scheds[(r.phase, r.xsu)].add(r.sched)
        for r in runs:
            r.label = _label(r, len(xsus[r.phase]) > 1, len(scheds[(r.phase, r.xsu)]) > 1)
        return runs

    def threads(self):
        found = set()
        for r in self.runs.values():
            found.update(c.thread for c in r.counts)
            for t in (r.start or {}).get("threads", []):
                if "thread" in t and t.get("events"):
                    found.add(t["thread"])
        return sorted(found)

    def events(self, thread):
        """The thread's events in list order, over every run (the `exp` lists, then counts)."""
        seen = collections.OrderedDict()
        for r in self.columns():
            for e in r.thread_setup(thread).get("events", []):
                seen[e] = True
            for t, e, _ in r.cells(thread):
                seen[e] = True
        return list(seen)

    def apic(self, thread):
        for r in self.runs.values():
            for c in r.counts:
                if c.thread == thread and c.apic is not None:
                    return c.apic
            apic = r.thread_setup(thread).get("apic")
            if apic is not None:
                return apic
        return None

    def measure_modes(self):
        """The XSU modes this experiment measured or judged, in table order."""
        modes = {r.xsu for r in self.runs.values() if r.phase == "measure"}
        modes |= {v.xsu for v in self.verdicts}
        return sorted(modes, key=pmu_schema.xsu_key)

    def mode_summary(self, xsu):
        """What the summary shows for one XSU mode: the combined verdict, how many checked counts
        were corrupted, the model's exposure, how many cells were <not counted>."""
        runs = [r for r in self.runs.values() if r.phase == "measure" and r.xsu == xsu]
        verdicts = [v for v in self.verdicts if v.xsu == xsu]
        counts = [c for r in runs for c in r.counts]
        checked = [c for c in counts if c.checked]
        exposures = [r.exposure for r in runs if r.exposure is not None]
        result = None
        if verdicts:
            result = max((v.result for v in verdicts), key=lambda x: RESULT_RANK[x])
        return {
            "xsu": xsu,
            "verdict": result,
            "verdicts": len(verdicts),
            "checked": len(checked),
            "corrupted": sum(1 for c in checked if c.corrupted),
            "exposure": sum(exposures) if exposures else None,
            "not_counted": sum(1 for r in runs for _, _, cell in r.cells() if cell.not_counted),
        }

    def running_comparison(self):
        """When the measured runs differ in scheduler or policy: each run's mean and minimum
        running fraction per thread (what a scheduling comparison is about)."""
        measured = [r for r in self.columns() if r.phase == "measure"]
        if len({(r.sched, r.policy) for r in measured}) < 2:
            return []
        return [(r, {t: r.running_fractions(t) for t in self.threads()}) for r in measured]


def column_order(run):
    """XSU off, on, core; within a mode greedy before hk, but runs with a policy in log order
    (sorted() keeps it)."""
    if run.policy is not None:
        return (pmu_schema.xsu_key(run.xsu), 0, "")
    return (pmu_schema.xsu_key(run.xsu), SCHED_ORDER.get(run.sched, 2), str(run.sched))


def _label(run, xsu_varies, sched_varies):
    """A column's heading: the policy where the run has one; else the phase (but for the
    measurements) and the XSU mode and scheduler where they vary within the phase."""
    if run.policy is not None:
        return run.policy if run.phase == "measure" else "%s %s" % (run.phase, run.policy)
    if run.phase == "measure":
        label = pmu_format.xsu_text(run.xsu)
    else:
        label = run.phase + (" " + pmu_format.xsu_text(run.xsu) if xsu_varies else "")
    return label + (" %s" % run.sched if sched_varies else "")


class Report:
    """Everything pmu-report knows about one log."""

    def __init__(self, stream, source):
        self.stream = stream
        self.source = source
        self.boot = None
        self.pmu = None
        self.rdpmc = []
        self.warnings = []
        self.exceptions = []
        self.experiments = collections.OrderedDict()
        self.other_types = collections.Counter()
        self.last_activity = None   # the last exp/progress/count record: where a cut log stops
        self.notes = []             # records that keep the contract but make no sense together
        self.plots = []             # filled in by pmu_plots, for report.json
        self.plot_note = None
        # What other records say of the backend, for a log whose pmu record is lost:
        # {backend: [what says so, ...]} (Report.backend_evidence).
        self.backend_clues = collections.OrderedDict()

    def experiment(self, name):
        if name not in self.experiments:
            self.experiments[name] = Experiment(name)
        return self.experiments[name]

    @property
    def tsc_hz(self):
        return (self.boot or {}).get("tsc_hz") or None

    @property
    def backend(self):
        """The pmu record's backend ("hw", "model", "none"); without one (lost), what the other
        records say of it (backend_evidence), or None when they say nothing or disagree."""
        if self.pmu is not None:
            return self.pmu.get("backend")
        return next(iter(self.backend_clues)) if len(self.backend_clues) == 1 else None

    @property
    def backend_evidence(self):
        """Where the pmu record is lost and other records tell the backend: what tells it, in
        words ("its count records' true counts, which only the model writes"); else None."""
        if self.pmu is not None or self.backend is None:
            return None
        return "; ".join(self.backend_clues[self.backend])

    @property
    def model(self):
        """The model PMU stood in for the counters: no count is a measurement of a CPU."""
        return self.backend == "model"

    @property
    def nothing_measured(self):
        """Why no count of the log is a measurement, in two words ("model PMU", "no PMU"), or
        None when the counts came from real counters (or nothing tells the backend). Issue 16:
        a run that measured nothing must never read like one that did."""
        return {"model": "model PMU", "none": "no PMU"}.get(self.backend)

    @property
    def measured_unknown(self):
        """The pmu record is lost and nothing else tells whether the counts are a measurement,
        while the log has experiments or verdicts: the sentence that says so, else None. A bare
        PASS would read as a measurement (issue 26's review)."""
        if self.pmu is not None or self.backend is not None:
            return None
        if not self.experiments and not self.verdicts():
            return None
        return ("whether this was measured on real counters is unknown: the pmu record is lost"
                + (" and the other records disagree" if self.backend_clues else ""))

    def no_pmu_skips(self):
        """The verdicts skipped because there was no usable PMU (skip code no_pmu)."""
        return [v for v in self.verdicts() if v.result == "skip" and v.skip == "no_pmu"]

    def xsu_modes(self):
        """The XSU modes of the whole log, for the summary: off and on at least."""
        modes = {"off", "on"}
        for e in self.experiments.values():
            modes.update(e.measure_modes())
        return sorted(modes, key=pmu_schema.xsu_key)

    # ---- verdicts and exit status ---------------------------------------------------------------
    def verdicts(self):
        return [v for e in self.experiments.values() for v in e.verdicts]

    def missing_verdicts(self):
        """(experiment, xsu) pairs that were measured but have no verdict."""
        missing = []
        for e in self.experiments.values():
            judged = {v.xsu for v in e.verdicts}
            missing.extend((e.name, xsu) for xsu in e.measure_modes() if xsu not in judged)
        return missing

    @property
    def end(self):
        return self.stream.end

    @property
    def damaged(self):
        """Records lost, changed, repeated or misplaced, or no end record."""
        return bool(self.stream.damage())

    @property
    def off_contract(self):
        """An intact record lacks a key or holds a value the contract refuses."""
        return bool(self.stream.breaches())

    def unknown_records(self):
        """The records of types docs/records.md does not list, by type in order of appearance:
        [(type, [record, ...]), ...]."""
        by_type = collections.OrderedDict()
        for r in self.stream.unknown():
            by_type.setdefault(r.type, []).append(r)
        return list(by_type.items())

    def failures(self):
        """Why the run did not pass, as sentences; empty when it passed."""
        reasons = []
        for v in self.verdicts():
            if v.result == "fail":
                reasons.append("%s %s%s failed: %s" % (v.exp, pmu_format.xsu_text(v.xsu),
                                                       sched_suffix(v.sched),
                                                       v.reason or "no reason given"))
        # In a cut log the missing verdicts are just the lost tail, reported as damage already.
        if self.end is not None:
            for name, xsu in self.missing_verdicts():
                reasons.append("%s %s has no verdict record" % (name, pmu_format.xsu_text(xsu)))
        for x in self.exceptions:
            reasons.append("exception %s on CPU %s" % (x.get("name", x.get("vector", "-")),
                                                       x.get("cpu", "-")))
        if self.end is not None and self.end.get("verdict") != "pass":
            reasons.append("the end record's verdict is %s" % self.end.get("verdict"))
        return reasons

    @property
    def passed(self):
        """The log proves a pass: intact, to contract, and nothing failed."""
        return not self.stream.problems and not self.failures()

    @property
    def result(self):
        """The run's result from its verdicts and end record, whatever the log's state: "fail"
        when a verdict failed (or is missing beside an end record), an exception, or the end
        record says so; else "pass" with an end record, None without one (not known)."""
        if self.failures():
            return "fail"
        return "pass" if self.end is not None else None

    @property
    def exit_code(self):
        if not self.stream.envelopes:
            return EXIT_NO_RECORDS
        if self.damaged:
            return EXIT_DAMAGED
        if self.off_contract:
            return EXIT_CONTRACT
        if self.failures():
            return EXIT_FAIL
        return EXIT_OK

    def result_counts(self):
        tally = collections.Counter(v.result for v in self.verdicts())
        return {k: tally.get(k, 0) for k in ("pass", "fail", "skip")}


def sched_suffix(sched):
    """How a run's or verdict's scheduler is named after "XSU on": greedy is the default."""
    if sched in (None, "", "greedy"):
        return ""
    return " (greedy vs hk)" if sched == "both" else " (%s)" % sched


# ---- building the model from the stream ---------------------------------------------------------

def build(stream, source="-"):
    """The Report of a parsed Stream."""
    report = Report(stream, source)
    for record in stream.usable_records():
        TAKE.get(record.type, _take_other)(report, record)
    _check_consistency(report)
    return report


def _take_boot(report, record):
    if report.boot is None:
        report.boot = record.obj


def _take_exp(report, record):
    e = report.experiment(record["exp"])
    e.take_start(record.obj)
    e.run(run_key(record.obj)).starts.append(record.obj)
    report.last_activity = record


def _clue(report, backend, what):
    """Another record than the pmu record says what the backend was (Report.backend_evidence)."""
    clues = report.backend_clues.setdefault(backend, [])
    if what not in clues:
        clues.append(what)


def _take_count(report, record):
    c = Count(record)
    if "true" in record.obj:
        # docs/records.md: `true` only under the model PMU, absent on real hardware.
        _clue(report, "model", "its count records' true counts, which only the model writes")
    report.experiment(c.exp).run(c.run_key).add_count(c)
    report.last_activity = record


def _take_exp_end(report, record):
    if record.obj.get("exposure") is not None:
        # docs/records.md: the model's exposure counter, null with the hw backend.
        _clue(report, "model", "its exp_end records' exposure, which only the model counts")
    report.experiment(record["exp"]).run(run_key(record.obj)).ends.append(record.obj)


def _take_verdict(report, record):
    v = Verdict(record)
    report.experiment(v.exp).verdicts.append(v)


def _take_survey(report, record):
    report.experiment(record["exp"]).survey.append(pmu_survey.Point(record))
    report.last_activity = record


def _take_progress(report, record):
    report.last_activity = record


def _take_other(report, record):
    """A record the report shows nothing of: a boot check it does not draw (counted), or one of a
    type the contract does not list (Report.unknown_records names those). The boot checks
    pmu_check and rdpmc name the backend they ran on."""
    if record.type in ("pmu_check", "rdpmc") and record.get("backend") in ("model", "hw"):
        _clue(report, record["backend"], "its %s record's backend" % record.type)
    if record.type in pmu_schema.RECORDS:
        report.other_types[record.type] += 1


TAKE = {
    "boot": _take_boot,
    "pmu": lambda report, record: setattr(report, "pmu", record.obj),
    "rdpmc": lambda report, record: report.rdpmc.append(record.obj),
    "warn": lambda report, record: report.warnings.append(record),
    "exception": lambda report, record: report.exceptions.append(record.obj),
    "exp": _take_exp,
    "progress": _take_progress,
    "count": _take_count,
    "exp_end": _take_exp_end,
    "verdict": _take_verdict,
    "survey": _take_survey,
    "end": lambda report, record: None,
}


def _check_consistency(report):
    """What the kernel's records say that cannot all be true: worth a note, not a verdict."""
    for e in report.experiments.values():
        for r in e.runs.values():
            declared = r.declared_repeat
            for c in r.counts:
                report.notes.extend(_count_notes(e, r, c, declared))
    end = report.end
    if end is not None and end.get("verdict") == "pass":
        failed = [v for v in report.verdicts() if v.result == "fail"]
        if failed:
            report.notes.append("the end record says pass but %s failed" % pmu_format.plural(
                len(failed), "verdict"))


def _count_notes(e, run, c, declared):
    where = "count @%d (%s %s HT%d)" % (c.seq, e.name, c.event, c.thread)
    notes = []
    expected = c.scaled_mismatch()
    if expected is not None:
        notes.append("%s: scaled %d is not raw * enabled / running (%.0f)"
                     % (where, c.scaled, expected))
    if c.running is not None and c.enabled is not None and c.running > c.enabled:
        notes.append("%s: running %d > enabled %d" % (where, c.running, c.enabled))
    if run.starts and c.rep >= declared:
        notes.append("%s: repetition %d of a run of %d" % (where, c.rep, declared))
    return notes
