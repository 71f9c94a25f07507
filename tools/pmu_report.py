"""From a checked record stream to what pmu-report shows: the experiments with their runs, counts
and verdicts, the per-thread tables, the summary, the CSV and JSON files and the exit status.

The record types and keys are defined in docs/records.md; this module reads them leniently (a key
that is missing gives "-" in a table, never a crash) because it must also make sense of a log that
lost records, or of a kernel older or newer than itself. Plots live in pmu_plots.py, the command
line in pmu-report.
"""

import collections
import csv
import json
import os
import re

import pmu_records

# Exit status of pmu-report (README, docs/records.md). The worst applicable one wins, in the order
# NO_RECORDS, DAMAGED, FAIL.
EXIT_OK = 0          # complete, intact log; every verdict pass or skip; end verdict pass
EXIT_FAIL = 1        # intact log, but a verdict failed, one is missing, an exception, end says fail
EXIT_USAGE = 2       # bad arguments, unreadable log, unwritable results folder
EXIT_DAMAGED = 3     # records lost, garbled, out of order or repeated; no end record; end count
EXIT_NO_RECORDS = 4  # not a single record: not a pmu-testkernel log, or the wrong serial port

# Fallback titles when a log lost (or never had) the experiment's `exp` record.
KNOWN_EXPERIMENTS = {
    "ch4-branch-misses": ("4.2", "Branch mispredictions (0x00c5) against the sibling's loads"),
    "ch4-lbr-inserts": ("4.2", "LBR inserts (0x20cc, must be 0) against the sibling's loads"),
    "ch7-aligned": ("7.1", "Identical lists started together: no corruption even with XSU off"),
    "ch7-three-events": ("7.1", "Three events, lists in another order, started apart"),
    "ch7-five-events": ("7.1", "0x81d0 with four non-corrupting events"),
    "ch7-ten-events": ("7.1", "Four corrupting and six non-corrupting events"),
    "ch8-corrupting-loss": ("8", "Corrupting events lose counts to unused sibling counters"),
    "ch8-starvation": ("8", "Four corrupting events on one thread starve the sibling"),
    "xsu-hk-vs-greedy": ("7.2", "Greedy against Hopcroft-Karp under XSU"),
}

RESULT_RANK = {"pass": 0, "skip": 1, "fail": 2}
XSU_ORDER = {"off": 0, "on": 1}
SCHED_ORDER = {"greedy": 0, "hk": 1}
RAW_EVENT_RE = re.compile(r"^r([0-9a-fA-F]{2})?([0-9a-fA-F]{2})(?::|$)")
CORRUPTING_EVENT_CODES = (0xD0, 0xD1, 0xD2, 0xD3)


# ---- the model of a log -------------------------------------------------------------------------

def _int_or_none(value):
    """Counts are JSON integers; accept a float or a numeric string from a sloppy emitter."""
    if value is None or isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def event_is_corrupting(event):
    """For a count record without "corrupting": raw events rUUEE with EE in 0xD0-0xD3."""
    m = RAW_EVENT_RE.match(event or "")
    return bool(m) and int(m.group(2), 16) in CORRUPTING_EVENT_CODES


class Count:
    """One `count` record: one event on one thread in one run."""

    def __init__(self, record):
        o = record.obj
        self.seq = record.seq
        self.exp = str(o["exp"])
        self.phase = o.get("phase") or "measure"
        self.xsu = o.get("xsu")
        self.sched = o.get("sched")
        self.thread = int(o["thread"])
        self.apic = o.get("apic")
        self.event = str(o["event"])
        self.code = o.get("code")
        self.name = o.get("name")
        corrupting = o.get("corrupting")
        self.corrupting = event_is_corrupting(self.event) if corrupting is None else bool(
            corrupting)
        self.raw = _int_or_none(o.get("raw"))
        self.enabled = _int_or_none(o.get("enabled"))
        self.running = _int_or_none(o.get("running"))
        self.scaled = _int_or_none(o.get("scaled"))
        self.baseline = _int_or_none(o.get("baseline"))
        self.tolerance = _int_or_none(o.get("tolerance")) or 0

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

    def scaled_mismatch(self):
        """The kernel's scaled value, when it is not raw * enabled / running (rounding aside)."""
        if None in (self.scaled, self.raw, self.enabled) or not self.running:
            return None
        expected = self.raw * self.enabled / self.running
        return None if abs(self.scaled - expected) <= max(1.0, expected * 1e-9) else expected


class Verdict:
    def __init__(self, record):
        o = record.obj
        self.seq = record.seq
        self.exp = str(o["exp"])
        self.xsu = o.get("xsu")
        self.sched = o.get("sched")
        self.result = str(o.get("result", "fail"))
        self.reason = o.get("reason") or ""
        self.skip = o.get("skip")


class Run:
    """One run of an experiment: one phase, one XSU mode, one scheduler."""

    def __init__(self, phase, xsu, sched):
        self.phase = phase
        self.xsu = xsu
        self.sched = sched
        self.start = None     # the `exp` record's object
        self.end = None       # the `exp_end` record's object
        self.counts = []
        self.label = None     # set by Experiment.columns()

    @property
    def key(self):
        return (self.phase, self.xsu, self.sched)

    @property
    def exposure(self):
        return _int_or_none(self.end.get("exposure")) if self.end else None

    def count(self, thread, event):
        for c in self.counts:
            if c.thread == thread and c.event == event:
                return c
        return None

    def thread_setup(self, thread):
        """The `exp` record's entry for a thread, or {}."""
        for t in (self.start or {}).get("threads") or []:
            if isinstance(t, dict) and t.get("thread") == thread:
                return t
        return {}

    def mean_running(self, thread):
        fractions = [c.running_fraction for c in self.counts if c.thread == thread]
        return sum(fractions) / len(fractions) if fractions else None


class Experiment:
    def __init__(self, name):
        self.name = name
        section, title = KNOWN_EXPERIMENTS.get(name, (None, None))
        self.section = section
        self.title = title
        self.description = None
        self.rule = None
        self.runs = collections.OrderedDict()
        self.verdicts = []

    def run(self, phase, xsu, sched):
        key = (phase, xsu, sched)
        if key not in self.runs:
            self.runs[key] = Run(phase, xsu, sched)
        return self.runs[key]

    def take_start(self, obj):
        """Titles from the kernel's `exp` record win over the built-in fallbacks."""
        for attr in ("title", "section", "description", "rule"):
            if obj.get(attr):
                setattr(self, attr, str(obj[attr]))

    def columns(self):
        """The runs as table columns: other phases (baseline, alone...) first in log order, then
        the measurements, XSU off before on, greedy before hk. Labels name only what varies."""
        others = [r for r in self.runs.values() if r.phase != "measure"]
        measured = sorted((r for r in self.runs.values() if r.phase == "measure"),
                          key=lambda r: (XSU_ORDER.get(r.xsu, 2), str(r.xsu),
                                         SCHED_ORDER.get(r.sched, 2), str(r.sched)))
        runs = others + measured
        for r in runs:
            r.label = self._label(r, runs)
        return runs

    @staticmethod
    def _label(run, runs):
        same_phase = [r for r in runs if r.phase == run.phase]
        if run.phase == "measure":
            label = "XSU %s" % run.xsu
        else:
            label = run.phase
            if len({r.xsu for r in same_phase}) > 1:
                label += " XSU %s" % run.xsu
        if len({r.sched for r in same_phase if r.xsu == run.xsu}) > 1:
            label += " %s" % run.sched
        return label

    def threads(self):
        found = set()
        for r in self.runs.values():
            found.update(c.thread for c in r.counts)
            for t in (r.start or {}).get("threads") or []:
                if isinstance(t, dict) and isinstance(t.get("thread"), int) and t.get("events"):
                    found.add(t["thread"])
        return sorted(found)

    def events(self, thread):
        """The thread's events in list order, over every run (the `exp` lists, then counts)."""
        seen = []
        for r in self.columns():
            for e in r.thread_setup(thread).get("events") or []:
                if e not in seen:
                    seen.append(e)
            for c in r.counts:
                if c.thread == thread and c.event not in seen:
                    seen.append(c.event)
        return seen

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
        """The XSU modes this experiment measured, in table order."""
        modes = []
        for r in self.columns():
            if r.phase == "measure" and r.xsu not in modes:
                modes.append(r.xsu)
        for v in self.verdicts:
            if v.xsu not in modes:
                modes.append(v.xsu)
        return sorted(modes, key=lambda m: (XSU_ORDER.get(m, 2), str(m)))

    def mode_summary(self, xsu):
        """What the summary shows for one XSU mode: the combined verdict, how many checked counts
        were corrupted, the model's exposure, how many counts were <not counted>."""
        runs = [r for r in self.runs.values() if r.phase == "measure" and r.xsu == xsu]
        verdicts = [v for v in self.verdicts if v.xsu == xsu]
        counts = [c for r in runs for c in r.counts]
        checked = [c for c in counts if c.checked]
        exposures = [r.exposure for r in runs if r.exposure is not None]
        result = None
        if verdicts:
            result = max((v.result for v in verdicts), key=lambda x: RESULT_RANK.get(x, 2))
        return {
            "xsu": xsu,
            "verdict": result,
            "verdicts": len(verdicts),
            "checked": len(checked),
            "corrupted": sum(1 for c in checked if c.corrupted),
            "exposure": sum(exposures) if exposures else None,
            "not_counted": sum(1 for c in counts if c.not_counted),
        }

    def sched_comparison(self):
        """For runs that differ only in the scheduler: mean running fraction per thread."""
        by_sched = collections.OrderedDict()
        for r in self.columns():
            if r.phase == "measure":
                by_sched.setdefault((r.xsu, r.sched), r)
        scheds = {sched for (_, sched) in by_sched}
        if len(scheds) < 2:
            return []
        rows = []
        for (xsu, sched), r in by_sched.items():
            rows.append({"xsu": xsu, "sched": sched,
                         "threads": {t: r.mean_running(t) for t in self.threads()}})
        return rows


class Report:
    """Everything pmu-report knows about one log."""

    def __init__(self, stream, source):
        self.stream = stream
        self.source = source
        self.boot = None
        self.pmu = None
        self.warnings = []
        self.exceptions = []
        self.experiments = collections.OrderedDict()
        self.other_types = collections.Counter()
        self.last_activity = None   # the last exp/progress/count record: where a cut log stops
        self.notes = []             # records that parse but make no sense: kernel-side bugs
        self.plots = []             # filled in by pmu_plots, for report.json
        self.plot_note = None

    def experiment(self, name):
        if name not in self.experiments:
            self.experiments[name] = Experiment(name)
        return self.experiments[name]

    # ---- verdicts and exit status ---------------------------------------------------------------
    def verdicts(self):
        return [v for e in self.experiments.values() for v in e.verdicts]

    def missing_verdicts(self):
        """(experiment, xsu) pairs that were measured but have no verdict."""
        missing = []
        for e in self.experiments.values():
            judged = {v.xsu for v in e.verdicts}
            for xsu in e.measure_modes():
                if xsu not in judged:
                    missing.append((e.name, xsu))
        return missing

    @property
    def end(self):
        return self.stream.end

    @property
    def damaged(self):
        return bool(self.stream.problems)

    def failures(self):
        """Why the run did not pass, as sentences; empty when it passed."""
        reasons = []
        for v in self.verdicts():
            if v.result == "fail":
                reasons.append("%s XSU %s%s failed: %s" % (v.exp, v.xsu, _sched_suffix(v.sched),
                                                           v.reason or "no reason given"))
        # In a cut log the missing verdicts are just the lost tail, reported as damage already.
        if self.end is not None:
            for name, xsu in self.missing_verdicts():
                reasons.append("%s XSU %s has no verdict record" % (name, xsu))
        for x in self.exceptions:
            reasons.append("exception %s on CPU %s" % (x.get("name") or x.get("vector"),
                                                       x.get("cpu")))
        if self.end is not None and self.end.get("verdict") != "pass":
            reasons.append("the end record's verdict is %r" % self.end.get("verdict"))
        return reasons

    @property
    def passed(self):
        return not self.damaged and not self.failures()

    @property
    def exit_code(self):
        if not self.stream.received_seqs() and not self.stream.rejected():
            return EXIT_NO_RECORDS
        if self.damaged:
            return EXIT_DAMAGED
        if self.failures():
            return EXIT_FAIL
        return EXIT_OK

    def result_counts(self):
        tally = collections.Counter(v.result for v in self.verdicts())
        return {k: tally.get(k, 0) for k in ("pass", "fail", "skip")}


def _sched_suffix(sched):
    """How a run's or verdict's scheduler is named after "XSU on": greedy is the default."""
    if sched in (None, "", "greedy"):
        return ""
    return " (greedy vs hk)" if sched == "both" else " (%s)" % sched


# ---- building the model from the stream ---------------------------------------------------------

def build(stream, source="-"):
    """The Report of a parsed Stream."""
    report = Report(stream, source)
    for record in stream.usable_records():
        try:
            _take(report, record)
        except (KeyError, TypeError, ValueError) as e:
            report.notes.append("record @%d (%s, line %d) lacks or mangles a key (%s): ignored"
                                % (record.seq, record.type, record.line_no, e))
    _check_consistency(report)
    return report


def _take(report, record):
    kind = record.type
    o = record.obj
    if kind == "boot":
        if report.boot is None:
            report.boot = o
    elif kind == "pmu":
        report.pmu = o
    elif kind == "warn":
        report.warnings.append(record)
    elif kind == "exception":
        report.exceptions.append(o)
    elif kind == "exp":
        e = report.experiment(str(o["exp"]))
        e.take_start(o)
        e.run(o.get("phase") or "measure", o.get("xsu"), o.get("sched")).start = o
        report.last_activity = record
    elif kind == "progress":
        report.last_activity = record
    elif kind == "count":
        c = Count(record)
        report.experiment(c.exp).run(c.phase, c.xsu, c.sched).counts.append(c)
        report.last_activity = record
    elif kind == "exp_end":
        e = report.experiment(str(o["exp"]))
        e.run(o.get("phase") or "measure", o.get("xsu"), o.get("sched")).end = o
    elif kind == "verdict":
        v = Verdict(record)
        report.experiment(v.exp).verdicts.append(v)
    elif kind != "end":
        report.other_types[kind] += 1


def _check_consistency(report):
    """What the kernel's records say that cannot all be true: worth a note, not a verdict."""
    for e in report.experiments.values():
        for r in e.runs.values():
            for c in r.counts:
                expected = c.scaled_mismatch()
                if expected is not None:
                    report.notes.append(
                        "count @%d (%s %s HT%d): scaled %d is not raw * enabled / running (%.0f)"
                        % (c.seq, e.name, c.event, c.thread, c.scaled, expected))
                if c.running is not None and c.enabled is not None and c.running > c.enabled:
                    report.notes.append("count @%d (%s %s HT%d): running %d > enabled %d"
                                        % (c.seq, e.name, c.event, c.thread, c.running,
                                           c.enabled))
    end = report.end
    if end is not None and end.get("verdict") == "pass":
        failed = [v for v in report.verdicts() if v.result == "fail"]
        if failed:
            report.notes.append("the end record says pass but %d verdict(s) failed" % len(failed))


# ---- text ---------------------------------------------------------------------------------------

PROBLEM_NAMES = {
    "crc": "CRC mismatch", "json": "bad JSON", "garbled": "garbled", "gap": "lost",
    "duplicate": "repeated", "order": "out of order", "no_records": "no records",
    "no_boot": "no boot record", "no_end": "no end record", "end_count": "end count",
    "after_end": "after end",
}


def fmt_count(n):
    return "{:,}".format(n)


def fmt_pct(fraction):
    return "[%6.2f%%]" % (100.0 * fraction)


def _problem_seq(p):
    if isinstance(p.seq, tuple):
        return "@%d" % p.seq[0] if p.seq[0] == p.seq[1] else "@%d-@%d" % p.seq
    if p.seq is None:
        return "@?" if p.kind in pmu_records.REJECTED_KINDS else "-"
    return "@%d" % p.seq


def render_log_check(report):
    s = report.stream
    lines = []
    received = sorted(s.received_seqs())
    span = " (@%d-@%d)" % (received[0], received[-1]) if received else ""
    lines.append("Log %s: %d records%s, %d lines of other text"
                 % (report.source, len(received), span, s.text_lines))
    if not s.problems:
        lines.append("  complete and intact: every record from @0 to the end record @%d arrived "
                     "once, in order, with its CRC" % s.end.seq)
        return lines
    lines.append("  DAMAGED: %d problem(s); the figures below come from the records that did "
                 "arrive intact" % len(s.problems))
    ordered = sorted(s.problems, key=lambda p: (p.line_no is None, p.line_no or 0))
    for p in ordered:
        where = "line %6d" % p.line_no if p.line_no is not None else "%11s" % "end of log"
        lines.append("  %s  %-9s %-14s %s" % (where, _problem_seq(p),
                                              PROBLEM_NAMES.get(p.kind, p.kind), p.detail))
    lost = s.lost_seqs()
    lines.append("  records lost or rejected: %s (%d)" % (pmu_records.fmt_seqs(lost), len(lost)))
    unknown = [p.line_no for p in s.rejected() if p.seq is None]
    if unknown:
        lines.append("  rejected lines whose record number is unknown: %s"
                     % ", ".join("line %d" % n for n in unknown))
    if s.end is None and report.last_activity is not None:
        a = report.last_activity.obj
        lines.append("  the log stops during %s XSU %s%s, %s" % (
            a.get("exp"), a.get("xsu"), _sched_suffix(a.get("sched")),
            "%s%% done" % a["done_pct"] if "done_pct" in a else "after a %s record"
            % report.last_activity.type))
    if any(p.kind == "duplicate" and p.seq == 0 for p in s.problems):
        lines.append("  a second record @0: the file holds more than one boot; cut it into one "
                     "file per boot")
    return lines


def plural(n, word):
    if n is None:
        return "? %ss" % word
    return "%s %s%s" % (n, word, "" if n == 1 else "s")


def _hex(value):
    if isinstance(value, int):
        return "0x%x" % value
    return str(value)


def render_boot(report):
    b = report.boot
    if b is None:
        return ["Boot: no boot record"]
    lines = ["Boot"]
    loader = " (%s)" % b["loader"] if b.get("loader") else ""
    lines.append("  path       %s%s, command line %s"
                 % (b.get("boot", "-"), loader, json.dumps(b.get("cmdline", ""))))
    rsdp = b.get("acpi_rsdp")
    lines.append("  memory     %s MiB, ACPI RSDP %s"
                 % (b.get("mem_mib", "-"), _hex(rsdp) if rsdp is not None else "not found"))
    cpu = b.get("cpu") or {}
    model = cpu.get("model")
    hv = cpu.get("hypervisor")
    lines.append("  CPU        %s family %s model %s stepping %s: %s%s" % (
        cpu.get("vendor", "-"), cpu.get("family", "-"),
        "0x%x" % model if isinstance(model, int) else model, cpu.get("stepping", "-"),
        cpu.get("brand", "-"), "; hypervisor %s" % hv if hv else ""))
    lines.extend(_render_topology(b))
    tsc = b.get("tsc_hz")
    if tsc:
        ref = " (calibrated against %s)" % b["tsc_ref"] if b.get("tsc_ref") else ""
        lines.append("  TSC        %.3f GHz%s" % (tsc / 1e9, ref))
    lines.extend(render_pmu(report))
    return lines


def _render_topology(b):
    if "cpus" not in b:
        return []
    threads = b.get("threads") or []
    lines = ["  topology   %s, %s, %s, %s per core; core %s with %s" % (
        plural(b.get("cpus"), "CPU"), plural(b.get("packages"), "package"),
        plural(b.get("cores"), "core"), plural(b.get("threads_per_core"), "thread"),
        b.get("core", "-"), "threads APIC " + " and ".join(str(t) for t in threads)
        if threads else "no threads")]
    if len(threads) < 2 or b.get("smt") is False:
        lines.append("             no SMT sibling: the erratum needs two threads of one core, so "
                     "the experiments cannot show it here")
    return lines


def render_pmu(report):
    p = report.pmu
    if p is None:
        b = report.boot or {}
        if b.get("pmu") or b.get("erratum"):
            return ["  PMU        %s, erratum %s (from the boot record; no pmu record)"
                    % (b.get("pmu", "-"), b.get("erratum") or "none")]
        return ["  PMU        no pmu record"]
    lines = ["  PMU        %s backend: %s" % (p.get("backend", "-"), p.get("reason", "-"))]
    lines.append("             version %s, %s GP counters of %s bits, %s fixed" % (
        p.get("version", "-"), p.get("gp", "-"), p.get("gp_width", "-"), p.get("fixed", "-")))
    erratum = p.get("erratum")
    lines.append("  uarch      %s, %s" % (p.get("uarch", "-"),
                                          "erratum %s" % erratum if erratum
                                          else "no cross-thread erratum"))
    lines.append("  modelled   " + modelled_text(p))
    return lines


def modelled_text(p):
    if p.get("backend") != "model":
        return "nothing: counts come from the hardware counters"
    model = p.get("model") or {}
    text = "counts come from the model PMU, not from hardware counters"
    shares = model.get("shares") or []
    if model.get("erratum_applied", bool(p.get("erratum"))) and shares:
        text += "; the erratum moves %s to the sibling's counter" % ", ".join(
            "%.1f%% of %s" % (100.0 * s.get("share", 0), s.get("event")) for s in shares)
    elif not p.get("erratum"):
        text += "; no erratum on this microarchitecture, so none is modelled"
    return text + "; scheduling, XSU, multiplexing and SMP are the real code"


def render_warnings(report):
    lines = []
    if report.warnings:
        lines.append("Warnings")
        for r in report.warnings:
            o = r.obj
            accepted = o.get("accepted")
            if isinstance(accepted, list):
                accepted = ", ".join(str(a) for a in accepted) or "(none)"
            lines.append("  @%d %s=%s: %s (accepted: %s)" % (
                r.seq, o.get("key", "?"), o.get("value", ""), o.get("message", ""),
                accepted if accepted else "-"))
    if report.exceptions:
        lines.append("Exceptions")
        for o in report.exceptions:
            lines.append("  CPU %s: %s (vector %s), error code %s, RIP %s, CR2 %s" % (
                o.get("cpu", "?"), o.get("name", "?"), o.get("vector", "?"),
                _hex(o.get("error_code", "-")), _hex(o.get("rip", "-")), _hex(o.get("cr2", "-"))))
            regs = o.get("registers") or {}
            items = ["%s=%s" % (k, _hex(v)) for k, v in regs.items()]
            for i in range(0, len(items), 4):
                lines.append("      " + "  ".join(items[i:i + 4]))
    if report.notes:
        lines.append("Notes on the records")
        lines.extend("  " + n for n in report.notes)
    return lines


def _cell(count):
    """(count text, running text) of one table cell, perf stat style."""
    if count is None:
        return ("-", "")
    if count.not_counted:
        return ("<not counted>", "")
    mark = "! " if count.corrupted else ""
    return (mark + fmt_count(count.value), fmt_pct(count.running_fraction))


class TableLayout:
    """Column widths shared by every thread's table of one experiment, so that the XSU off and
    XSU on columns line up from one thread to the next."""

    def __init__(self, experiment, runs):
        self.runs = runs
        self.cells = {}
        for thread in experiment.threads():
            for ev in experiment.events(thread):
                self.cells[(thread, ev)] = [_cell(r.count(thread, ev)) for r in runs]
        self.count_w = [max([len(r.label)] + [len(row[i][0]) for row in self.cells.values()])
                        for i, r in enumerate(runs)]
        heads = [len(_thread_head(experiment, t)) - 2 for t in experiment.threads()]
        self.event_w = max([len(ev) for (_, ev) in self.cells] + heads + [10])

    def row(self, first, cells):
        return ("     %-*s   %s" % (self.event_w, first, "   ".join(
            "%*s %9s" % (self.count_w[i], text, pct) for i, (text, pct) in enumerate(cells))
        )).rstrip()


def _thread_head(experiment, thread):
    apic = experiment.apic(thread)
    return "HT%d (APIC %s)" % (thread, apic if apic is not None else "?")


def render_thread_table(experiment, layout, thread):
    """One thread's table: an event per row, a run per column pair (count, % running)."""
    head = _thread_head(experiment, thread)
    lines = [("   %-*s   %s" % (layout.event_w + 2, head, "   ".join(
        "%*s %9s" % (layout.count_w[i], r.label, "") for i, r in enumerate(layout.runs))
    )).rstrip()]
    for ev in experiment.events(thread):
        lines.append(layout.row(ev, layout.cells[(thread, ev)]))
    return lines


def _setup_lines(experiment, runs):
    """What was run: per column, each thread's event list and start offset; the run length."""
    lines = []
    for r in runs:
        threads = (r.start or {}).get("threads") or []
        parts = []
        for t in threads:
            if not isinstance(t, dict):
                continue
            events = ",".join(t.get("events") or []) or "no events"
            offset = t.get("offset_ns") or 0
            parts.append("HT%s %s%s%s" % (t.get("thread", "?"), events,
                                          " +%.3f ms" % (offset / 1e6) if offset else "",
                                          " (%s)" % t["workload"] if t.get("workload") else ""))
        if parts:
            lines.append("   %-14s %s" % (r.label + ":", "; ".join(parts)))
    first = next((r.start for r in runs if r.start), None)
    if first:
        params = first.get("params") or {}
        extra = "".join(" %s=%s" % kv for kv in params.items())
        lines.append("   %-14s %s ms per run, mux %s ms%s" % (
            "length:", _ms(first.get("duration_ns")), first.get("mux_ms", "-"), extra))
        tolerance = first.get("tolerance")
        if isinstance(tolerance, dict):
            lines.append("   %-14s %s%% of the baseline or %s counts, whichever is larger" % (
                "tolerance:", tolerance.get("pct", 0), fmt_count(tolerance.get("abs", 0))))
    return lines


def _ms(ns):
    return "-" if ns is None else "%g" % (ns / 1e6)


def render_experiment(experiment):
    runs = experiment.columns()
    title = experiment.title or "(no title)"
    section = " (thesis %s)" % experiment.section if experiment.section else ""
    lines = ["", "== %s: %s%s" % (experiment.name, title, section)]
    if experiment.description:
        lines.append("   " + experiment.description)
    lines.extend(_setup_lines(experiment, runs))
    if experiment.rule:
        lines.append("   %-14s %s" % ("rule:", experiment.rule))
    layout = TableLayout(experiment, runs)
    for thread in experiment.threads():
        lines.append("")
        lines.extend(render_thread_table(experiment, layout, thread))
    if runs:
        lines.append("")
        lines.append("   %-22s %s" % ("exposure (model):", ", ".join(
            "%s %s" % (r.label, fmt_count(r.exposure) if r.exposure is not None else "-")
            for r in runs)))
    for row in experiment.sched_comparison():
        lines.append("   %-22s %s" % ("mean running %s:" % row["sched"], ", ".join(
            "HT%d %s" % (t, "-" if f is None else "%.2f%%" % (100 * f))
            for t, f in row["threads"].items())))
    if any(c.corrupted for r in runs for c in r.counts):
        lines.append("   ! = more than its tolerance above its baseline: corrupted")
    lines.extend(_verdict_lines(experiment))
    return lines


def _verdict_lines(experiment):
    lines = []
    modes = ["XSU %s%s:" % (v.xsu, _sched_suffix(v.sched)) for v in experiment.verdicts]
    width = max([len(m) for m in modes] + [0])
    for v, mode in zip(experiment.verdicts, modes):
        skip = " (%s)" % v.skip if v.result == "skip" and v.skip else ""
        lines.append("   verdict %-*s %s%s  %s" % (width, mode, v.result.upper(), skip, v.reason))
    if not experiment.verdicts:
        lines.append("   verdict: none in the log")
    return lines


def _summary_cell(m):
    verdict = m["verdict"] or "-"
    corrupted = "%d/%d" % (m["corrupted"], m["checked"]) if m["checked"] else "-"
    exposure = fmt_count(m["exposure"]) if m["exposure"] is not None else "-"
    return "%-7s %-9s %-9s" % (verdict, corrupted, exposure)


def render_summary(report):
    lines = ["", "Summary",
             "  corrupted: counts more than their tolerance above their baseline, of those "
             "checked",
             "  exposure:  ticks in which the model saw a corrupting event share a counter "
             "index with another event on the sibling (- on real hardware)"]
    name_w = max([len(n) for n in report.experiments] + [10])
    lines.append(("  %-*s  %-27s  %-27s" % (name_w, "", "XSU off", "XSU on")).rstrip())
    lines.append(("  %-*s  %s  %s" % (name_w, "experiment", *(["%-7s %-9s %-9s" % (
        "verdict", "corrupted", "exposure")] * 2))).rstrip())
    for e in report.experiments.values():
        cells = [_summary_cell(e.mode_summary(xsu)) for xsu in ("off", "on")]
        extra = []
        for xsu in ("off", "on"):
            nc = e.mode_summary(xsu)["not_counted"]
            if nc:
                extra.append("%d not counted with XSU %s" % (nc, xsu))
        lines.append(("  %-*s  %s  %s%s" % (name_w, e.name, cells[0], cells[1],
                                            "  (%s)" % "; ".join(extra) if extra else "")
                      ).rstrip())
    tally = report.result_counts()
    lines.append("")
    lines.append("Overall: %s. %d verdicts: %d pass, %d fail, %d skip. Log %s. Exit status %d." % (
        "PASS" if report.passed else "FAIL", sum(tally.values()), tally["pass"], tally["fail"],
        tally["skip"], "complete and intact" if not report.damaged else "DAMAGED",
        report.exit_code))
    for reason in report.failures():
        lines.append("  - " + reason)
    if report.damaged:
        lost = report.stream.lost_seqs()
        lines.append("  - the log is damaged (%d problem(s); lost or rejected: %s): it cannot "
                     "prove a pass" % (len(report.stream.problems), pmu_records.fmt_seqs(lost)))
    return lines


def render_text(report, quiet=False):
    lines = render_log_check(report)
    if not quiet:
        lines.append("")
        lines.extend(render_boot(report))
        warnings = render_warnings(report)
        if warnings:
            lines.append("")
            lines.extend(warnings)
        for e in report.experiments.values():
            lines.extend(render_experiment(e))
        if report.other_types:
            lines.append("")
            lines.append("Other records: " + ", ".join(
                "%d %s" % (n, t) for t, n in sorted(report.other_types.items())))
    lines.extend(render_summary(report))
    return "\n".join(lines) + "\n"


# ---- files --------------------------------------------------------------------------------------

COUNT_COLUMNS = ["exp", "phase", "xsu", "sched", "thread", "apic", "event", "code", "name",
                 "corrupting", "raw", "enabled", "running", "running_pct", "scaled",
                 "not_counted", "baseline", "tolerance", "deviation_pct", "corrupted", "seq"]
VERDICT_COLUMNS = ["exp", "xsu", "sched", "result", "skip", "reason", "exposure", "corrupted",
                   "checked", "seq"]


def count_row(c):
    return {
        "exp": c.exp, "phase": c.phase, "xsu": c.xsu, "sched": c.sched, "thread": c.thread,
        "apic": c.apic, "event": c.event, "code": c.code, "name": c.name,
        "corrupting": c.corrupting, "raw": c.raw, "enabled": c.enabled, "running": c.running,
        "running_pct": round(100.0 * c.running_fraction, 4), "scaled": c.value,
        "not_counted": c.not_counted, "baseline": c.baseline,
        "tolerance": c.tolerance if c.baseline is not None else None,
        "deviation_pct": None if c.deviation_pct is None else round(c.deviation_pct, 4),
        "corrupted": c.corrupted, "seq": c.seq,
    }


def verdict_row(e, v):
    m = e.mode_summary(v.xsu)
    return {"exp": v.exp, "xsu": v.xsu, "sched": v.sched, "result": v.result, "skip": v.skip,
            "reason": v.reason, "exposure": m["exposure"], "corrupted": m["corrupted"],
            "checked": m["checked"], "seq": v.seq}


def all_counts(report):
    return [c for e in report.experiments.values() for r in e.columns() for c in r.counts]


def _csv_value(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    return v


def write_csv(path, columns, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        w.writeheader()
        for row in rows:
            w.writerow({k: _csv_value(row.get(k)) for k in columns})


def write_counts_csv(report, out_dir):
    path = os.path.join(out_dir, "counts.csv")
    write_csv(path, COUNT_COLUMNS, [count_row(c) for c in all_counts(report)])
    return path


def write_verdicts_csv(report, out_dir):
    path = os.path.join(out_dir, "verdicts.csv")
    rows = [verdict_row(e, v) for e in report.experiments.values() for v in e.verdicts]
    write_csv(path, VERDICT_COLUMNS, rows)
    return path


def report_json(report):
    """The whole report as one JSON-able object (report.json; its layout is in the README)."""
    s = report.stream
    return {
        "source": report.source,
        "log": {
            "records": len(s.received_seqs()),
            "text_lines": s.text_lines,
            "complete": s.end is not None,
            "intact": not s.problems,
            "lost": s.lost_seqs(),
            "problems": [{"kind": p.kind, "line": p.line_no,
                          "seq": list(p.seq) if isinstance(p.seq, tuple) else p.seq,
                          "detail": p.detail} for p in s.problems],
        },
        "boot": report.boot,
        "pmu": report.pmu,
        "warnings": [r.obj for r in report.warnings],
        "exceptions": report.exceptions,
        "notes": report.notes,
        "experiments": [experiment_json(e) for e in report.experiments.values()],
        "other_records": dict(report.other_types),
        "plots": report.plots,
        "summary": {
            "passed": report.passed,
            "exit": report.exit_code,
            "verdicts": report.result_counts(),
            "failures": report.failures(),
            "missing_verdicts": [{"exp": n, "xsu": x} for n, x in report.missing_verdicts()],
            "end": s.end.obj if s.end is not None else None,
        },
    }


def experiment_json(e):
    return {
        "exp": e.name, "title": e.title, "section": e.section, "description": e.description,
        "rule": e.rule,
        "runs": [{
            "label": r.label, "phase": r.phase, "xsu": r.xsu, "sched": r.sched,
            "exposure": r.exposure, "start": r.start, "end": r.end,
            "counts": [count_row(c) for c in r.counts],
        } for r in e.columns()],
        "verdicts": [{"xsu": v.xsu, "sched": v.sched, "result": v.result, "skip": v.skip,
                      "reason": v.reason, "seq": v.seq} for v in e.verdicts],
        "summary": {xsu: e.mode_summary(xsu) for xsu in ("off", "on")},
        "sched_comparison": [{"xsu": row["xsu"], "sched": row["sched"],
                              "mean_running": {str(t): f for t, f in row["threads"].items()}}
                             for row in e.sched_comparison()],
    }


def write_json(report, out_dir):
    path = os.path.join(out_dir, "report.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(report_json(report), f, indent=1, sort_keys=False)
        f.write("\n")
    return path


def parse_log(path):
    """Read a log file, or standard input for "-"."""
    if path == "-":
        import sys
        return pmu_records.parse(sys.stdin.buffer.read().decode("utf-8", "replace"))
    return pmu_records.parse_file(path)
