"""The text pmu-report prints: the log check, the boot section (pmu_text_boot.py), one section
per experiment with a perf-stat-like table per thread and its runs side by side, the leak map of
a survey (pmu_text_survey.py), and the summary with the exit status."""

import pmu_format
import pmu_model
import pmu_records
import pmu_text_boot
import pmu_text_survey
from pmu_format import count_text, pct_text

PROBLEM_NAMES = {
    "crc": "CRC mismatch", "json": "bad JSON", "garbled": "garbled", "gap": "lost",
    "duplicate": "repeated", "order": "out of order",
    "no_records": "no records", "no_boot": "no boot record", "boot_again": "second boot",
    "no_end": "no end record", "end_count": "end count", "after_end": "end not last",
}


def render_text(report, quiet=False):
    lines = render_log_check(report)
    if not quiet:
        lines.append("")
        lines.extend(pmu_text_boot.render_boot(report))
        warnings = pmu_text_boot.render_warnings(report)
        if warnings:
            lines.append("")
            lines.extend(warnings)
        for e in report.experiments.values():
            lines.extend(render_experiment(e, report.tsc_hz))
        if report.other_types:
            lines.append("")
            lines.append("Other records: " + ", ".join(
                "%d %s" % (n, t) for t, n in sorted(report.other_types.items())))
    lines.extend(render_summary(report))
    return pmu_format.printable("\n".join(lines) + "\n")


# ---- the log check ------------------------------------------------------------------------------

def _problem_seq(p):
    if isinstance(p.seq, tuple):
        return "@%d" % p.seq[0] if p.seq[0] == p.seq[1] else "@%d-@%d" % p.seq
    if p.seq is None:
        return "@?" if p.kind in pmu_records.REJECTED_KINDS else "-"
    return "@%d" % p.seq


def render_log_check(report, grouped=False):
    """The log check; `grouped` gives each missing or wrong key once with how many records (a
    comparison of many logs, where an older kernel's log lacks the same keys in every record)."""
    s = report.stream
    received = sorted(s.received_seqs())
    span = " (@%d-@%d)" % (received[0], received[-1]) if received else ""
    lines = ["Log %s: %d records%s, %d lines of other text"
             % (report.source, len(received), span, s.text_lines)]
    if not s.problems:
        lines.append("  %s: every record %sfrom @0 to the end record @%d arrived once, in order, "
                     "with its CRC, and keeps the contract of docs/records.md"
                     % ("intact" if s.left_out else "complete and intact",
                        "the codes carry, " if s.left_out else "", s.end.seq))
    lines.extend(_left_out_lines(s))
    if report.damaged:
        lines.extend(_damage_lines(report))
    if report.off_contract:
        lines.extend(_grouped_contract_lines(report) if grouped else _contract_lines(report))
    lines.extend(_unknown_lines(report))
    lines.extend(_where_it_stops(report))
    return lines


def _left_out_lines(s):
    """The records the writer left out on purpose (the kernel's QR codes): named, not damage."""
    if not s.left_out:
        return []
    count = sum(last - first + 1 for first, last in s.left_out)
    return ["  left out by the kernel to fit its QR codes, not lost: %s (%s)%s" % (
        pmu_records.fmt_spans(s.left_out), pmu_format.plural(count, "record"),
        "; it says: " + s.left_out_note if s.left_out_note else "")]


def _damage_lines(report):
    s = report.stream
    damage = s.damage()
    lines = ["  DAMAGED: %s; the figures below come from the records that did arrive intact"
             % pmu_format.plural(len(damage), "problem")]
    for p in sorted(damage, key=lambda p: (p.line_no is None, p.line_no or 0)):
        where = "%-11s" % p.place if p.place else "line %6d" % p.line_no \
            if p.line_no is not None else "%11s" % "end of log"
        lines.append("  %s  %-9s %-14s %s" % (where, _problem_seq(p),
                                              PROBLEM_NAMES.get(p.kind, p.kind), p.detail))
    lines.append("  records lost or rejected: %s (%d)" % (pmu_records.fmt_spans(s.lost_spans()),
                                                           s.lost_count()))
    unknown = [p.line_no for p in s.rejected() if p.seq is None]
    if unknown:
        lines.append("  rejected lines whose record number is unknown: %s"
                     % ", ".join("line %d" % n for n in unknown))
    return lines


def _contract_lines(report):
    """Each key an intact record lacks or holds wrong, a line each, by the record's number."""
    breaches = report.stream.breaches()
    records = {p.seq for p in breaches}
    lines = ["  %sNOT TO CONTRACT: %s docs/records.md (%s); the tables leave out what %s"
             % ("" if report.damaged else "intact but ", _records_break(len(records)),
                pmu_format.plural(len(breaches), "problem"),
                "it lacks" if len(records) == 1 else "they lack")]
    for p in sorted(breaches, key=lambda p: p.seq):
        lines.append("  %s (line %d)" % (p.detail, p.line_no))
    return lines


def _grouped_contract_lines(report):
    """The contract's problems by record type and problem, each with its records' numbers."""
    breaches = report.stream.breaches()
    found = {}
    for p in breaches:
        # "record @12 (count): no key xsu" -> "count: no key xsu"
        what = p.detail.split(" ", 2)[2] if p.detail.startswith("record @") else p.detail
        found.setdefault(what.replace("): ", ": ", 1).lstrip("("), []).append(p.seq)
    lines = ["  %sNOT TO CONTRACT: %s docs/records.md (%s), %s; the tables leave out what "
             "they lack" % ("" if report.damaged else "intact but ",
                            _records_break(len({p.seq for p in breaches})),
                            pmu_format.plural(len(breaches), "problem"),
                            pmu_format.plural(len(found), "kind"))]
    for what, seqs in found.items():
        lines.append("    %s (%s: %s)" % (what, pmu_format.plural(len(seqs), "record"),
                                         pmu_records.fmt_spans(pmu_records.merge_spans(
                                             [(n, n) for n in seqs]))))
    return lines


def _unknown_lines(report):
    """Records of types docs/records.md does not list: named, and kept in report.json."""
    found = report.unknown_records()
    if not found:
        return []
    total = sum(len(records) for _, records in found)
    return ["  %s of a type this report does not know: %s (kept in report.json)" % (
        pmu_format.plural(total, "record"), "; ".join(
            "%s %s" % (type_name, ", ".join("@%d" % r.seq for r in records))
            for type_name, records in found))]


def _where_it_stops(report):
    if report.stream.end is not None or report.last_activity is None:
        return []
    a = report.last_activity.obj
    return ["  the log stops during %s %s%s, %s" % (
        a.get("exp"), pmu_format.xsu_text(a.get("xsu")), pmu_model.sched_suffix(a.get("sched")),
        "%s%% done" % a["done_pct"] if "done_pct" in a else "after a %s record"
        % report.last_activity.type)]


# ---- an experiment ------------------------------------------------------------------------------

def render_experiment(experiment, tsc_hz):
    runs = experiment.columns()
    section = " (thesis %s)" % experiment.section if experiment.section else ""
    lines = ["", "== %s: %s%s" % (experiment.name, experiment.title or "(no exp record)",
                                   section)]
    if experiment.description:
        lines.append("   " + experiment.description)
    lines.extend(_setup_lines(runs))
    if experiment.rule:
        lines.append("   %-14s %s" % ("rule:", experiment.rule))
    layout = TableLayout(experiment, runs)
    for thread in experiment.threads():
        lines.append("")
        lines.extend(render_thread_table(experiment, layout, thread))
    lines.extend(_run_lines(experiment, runs, tsc_hz))
    lines.extend(pmu_text_survey.render_survey(experiment))
    lines.extend(_verdict_lines(experiment))
    return lines


def _cell(cell, with_rsd):
    """(count text, running text, deviation text) of one table cell, perf stat style: `!` marks a
    corrupted count, `?` one whose counter firmware or SMM touched."""
    if cell is None:
        return ("-", "", "")
    if cell.not_counted:
        return ("<not counted>", "", "")
    mark = ("!" if cell.corrupted else "") + ("?" if cell.interfered else "")
    rsd = cell.rsd_pct if with_rsd else None
    return ((mark + " " if mark else "") + count_text(cell.value),
            pct_text(cell.running_fraction), pmu_format.rsd_text(rsd) if rsd is not None else "")


class TableLayout:
    """Column widths shared by every thread's table of one experiment, so that the runs' columns
    line up from one thread to the next."""

    def __init__(self, experiment, runs):
        self.runs = runs
        self.cells = {}
        with_rsd = [r.repeat > 1 for r in runs]
        for thread in experiment.threads():
            for ev in experiment.events(thread):
                self.cells[(thread, ev)] = [_cell(r.cell(thread, ev), with_rsd[i])
                                            for i, r in enumerate(runs)]
        rows = list(self.cells.values())
        self.count_w = [max([len(r.label)] + [len(row[i][0]) for row in rows])
                        for i, r in enumerate(runs)]
        self.rsd_w = [max([0] + [len(row[i][2]) for row in rows]) for i in range(len(runs))]
        heads = [len(_thread_head(experiment, t)) - 2 for t in experiment.threads()]
        self.event_w = max([len(ev) for (_, ev) in self.cells] + heads + [10])

    def _column(self, i, text, pct, rsd):
        column = "%*s %9s" % (self.count_w[i], text, pct)
        return column + (" %-*s" % (self.rsd_w[i], rsd) if self.rsd_w[i] else "")

    def row(self, first, cells):
        return ("     %-*s   %s" % (self.event_w, first, "   ".join(
            self._column(i, *cell) for i, cell in enumerate(cells)))).rstrip()

    def header(self, head):
        return ("   %-*s   %s" % (self.event_w + 2, head, "   ".join(
            self._column(i, r.label, "", "") for i, r in enumerate(self.runs)))).rstrip()


def _thread_head(experiment, thread):
    apic = experiment.apic(thread)
    return "HT%d" % thread + (" (APIC %d)" % apic if apic is not None else "")


def render_thread_table(experiment, layout, thread):
    """One thread's table: an event per row, a run per column (count, % running, and with
    repetitions perf's ( +- x% ))."""
    lines = [layout.header(_thread_head(experiment, thread))]
    for ev in experiment.events(thread):
        lines.append(layout.row(ev, layout.cells[(thread, ev)]))
    return lines


def _setup_lines(runs):
    """What was run: per column, each thread's event list and start offset; the run length."""
    lines = []
    for r in runs:
        parts = []
        for t in (r.start or {}).get("threads", []):
            if "thread" not in t:
                continue
            events = ",".join(t.get("events", [])) or "no events"
            offset = t.get("offset_ns", 0)
            parts.append("HT%d %s%s%s" % (t["thread"], events,
                                          " +%.3f ms" % (offset / 1e6) if offset else "",
                                          " (%s)" % t["workload"] if t.get("workload") else ""))
        if parts:
            lines.append("   %-14s %s" % (r.label + ":", "; ".join(parts)))
    first = next((r for r in runs if r.start), None)
    if first:
        lines.extend(_length_lines(first))
    return lines


def _length_lines(run):
    start = run.start
    extra = "".join(" %s=%s" % kv for kv in start.get("params", {}).items())
    repeat = ", %d repetitions (mean, perf's ( +- x%% ))" % run.repeat if run.repeat > 1 else ""
    lines = ["   %-14s %s ms per run, mux %s ms%s%s" % (
        "length:", _ms(start.get("duration_ns")), start.get("mux_ms", "-"), extra, repeat)]
    tolerance = start.get("tolerance")
    if tolerance is not None:
        lines.append("   %-14s %g%% of the baseline or %s counts, whichever is larger" % (
            "tolerance:", tolerance.get("pct", 0), count_text(tolerance.get("abs", 0))))
    return lines


def _ms(ns):
    return "-" if ns is None else "%g" % (ns / 1e6)


# ---- the lines under the tables -----------------------------------------------------------------

def _run_lines(experiment, runs, tsc_hz):
    lines = []
    if any(r.counts or r.ends for r in runs):
        lines.append("")
        lines.append("   %-22s %s" % ("exposure (model):", ", ".join(
            "%s %s" % (r.label, count_text(r.exposure)) for r in runs)))
    lines.extend(_running_lines(experiment))
    lines.extend(_tick_lines(experiment, runs, tsc_hz))
    lines.extend(_access_lines(experiment, runs))
    lines.extend(_joint_lines(runs))
    lines.extend(_smi_lines(runs))
    lines.extend(_truth_lines(runs))
    lines.extend(_leak_lines(runs))
    if any(cell.corrupted for r in runs for _, _, cell in r.cells()):
        lines.append("   ! = more than its tolerance above its baseline: corrupted")
    lines.extend(_interfered_lines(runs))
    return lines


def _running_lines(experiment):
    """Each run's mean and minimum running fraction per thread, where the runs compare
    schedulers or policies."""
    lines = []
    for run, threads in experiment.running_comparison():
        parts = ["HT%d %s" % (t, "-" if f is None else "mean %.2f%% min %.2f%%"
                              % (100 * f[0], 100 * f[1])) for t, f in threads.items()]
        lines.append("   %-22s %s" % ("running %s:" % run.label, ", ".join(parts)))
    return lines


def _tick_lines(experiment, runs, tsc_hz):
    """The tick handler's share of each run per thread, its longest tick, and late or lost
    ticks (exp_end's tick_tsc_total, or in an older log ticks times tick_tsc_mean; tick_tsc_max,
    ticks_late, ticks_lost), and which of the two the shares come from."""
    threads = experiment.threads()
    used = {found[1] for r in runs for t in threads
            for found in [r.tick_overhead_from(t, tsc_hz)] if found is not None}
    parts = []
    for r in runs:
        text = _tick_text(r, threads, tsc_hz, mark=len(used) > 1)
        if text:
            parts.append("%s %s" % (r.label, text))
    if not parts:
        return []
    line = "   %-22s %s" % ("tick handler:", "; ".join(parts))
    if used == {pmu_model.TICK_TOTAL}:
        line += " (share: tick_tsc_total over the run)"
    elif used == {pmu_model.TICK_MEAN}:
        core = any(r.xsu == "core" for r in runs)
        line += " (share: %s over the run: no tick_tsc_total in this log%s)" % (
            pmu_model.TICK_MEAN, "; under XSU core that is about half the handler's time, "
            "ticks counting one per handover" if core else "")
    elif used:
        line += " (share: tick_tsc_total over the run; *: %s, where a repetition has no " \
            "tick_tsc_total)" % pmu_model.TICK_MEAN
    return [line]


def _tick_text(run, threads, tsc_hz, mark):
    shares, extremes, missed = [], [], []
    for t in threads:
        found = run.tick_overhead_from(t, tsc_hz)
        if found is not None:
            share, how = found
            shares.append("HT%d %.2f%%%s" % (t, 100 * share,
                                             "*" if mark and how == pmu_model.TICK_MEAN else ""))
        longest = run.per_thread_max("tick_tsc_max", t)
        if longest is not None:
            extremes.append(longest)
        late, lost = run.per_thread_total("ticks_late", t), run.per_thread_total("ticks_lost", t)
        if late or lost:
            missed.append("HT%d %s late, %s lost" % (t, late or 0, lost or 0))
    text = " ".join(shares)
    if extremes:
        text += "%slongest %s TSC ticks" % (", " if text else "", count_text(max(extremes)))
    if missed:
        text += "%s%s" % (", " if text else "", ", ".join(missed))
    elif any(key in e for e in run.ends for key in ("ticks_late", "ticks_lost")):
        text += "%sno tick late or lost" % (", " if text else "")
    return text


def _access_lines(experiment, runs):
    """Each run's PMU register writes and reads per tick, per thread (exp_end's
    msr_writes_per_tick and msr_reads_per_tick): the cost of counting that carries to real
    hardware."""
    parts = []
    for r in runs:
        figures = []
        for t in experiment.threads():
            writes, reads = r.per_tick("msr_writes_per_tick", t), r.per_tick(
                "msr_reads_per_tick", t)
            if writes is not None or reads is not None:
                figures.append("HT%d %s/%s" % (t, _decimals(writes), _decimals(reads)))
        if figures:
            parts.append("%s %s" % (r.label, " ".join(figures)))
    if not parts:
        return []
    return ["   %-22s %s (PMU registers: WRMSR / RDMSR and RDPMC)" % (
        "writes/reads per tick:", "; ".join(parts))]


def _decimals(value):
    return "-" if value is None else "%.2f" % value


def _joint_lines(runs):
    """Under core-wide XSU: the joint schedules handed over, the handover IPIs sent again and
    those that stayed pending, the handovers still unanswered at a run's end, and the share of
    the run a thread was stopped."""
    parts = []
    for r in runs:
        found = []
        handovers, retries = r.total("handovers"), r.total("joint_retries")
        unanswered, gap = r.total("joint_unanswered"), r.mean_of("joint_gap_pct")
        pending = r.total("joint_send_failures")
        if handovers is not None:
            found.append(_counted(handovers, "handover"))
        if retries is not None:
            found.append("%s sent again" % _counted(retries, "IPI"))
        if pending:
            found.append("%s left pending" % _counted(pending, "IPI"))
        if unanswered is not None:
            found.append("%s unanswered" % _counted(unanswered, "handover"))
        if gap is not None:
            found.append("%.1f%% of the run stopped" % gap)
        if found:
            parts.append("%s %s" % (r.label, ", ".join(found)))
    return ["   %-22s %s" % ("joint schedules:", "; ".join(parts))] if parts else []


def _counted(n, word):
    """'1 handover', '3,000 handovers'."""
    return "%s %s%s" % (count_text(n), word, "" if n == 1 else "s")


def _smi_lines(runs):
    """The SMIs during each run, where there were any (exp_end.smi_count; null where
    MSR_SMI_COUNT faults): firmware that took the CPU away while it counted."""
    parts = ["%s %s" % (r.label, count_text(r.total("smi_count"))) for r in runs
             if r.total("smi_count")]
    if not parts:
        return []
    return ["   %-22s %s (MSR_SMI_COUNT: firmware held the CPU in SMM while it counted)"
            % ("SMIs:", ", ".join(parts))]


def _truth_lines(runs):
    """Under the model PMU, how far each run's worst scaled count is from the model's true
    count."""
    parts = []
    for r in runs:
        worst = None
        for thread, event, cell in r.cells():
            if cell.true is None or cell.value is None:
                continue
            off = abs(cell.value - cell.true) / cell.true if cell.true else (
                float("inf") if cell.value else 0.0)
            if worst is None or off > worst[0]:
                worst = (off, thread, event, cell)
        if worst is not None:
            parts.append("%s %s" % (r.label, _truth_text(*worst)))
    return ["   %-22s %s" % ("vs the model's truth:", "; ".join(parts))] if parts else []


def _truth_text(off, thread, event, cell):
    if off == 0:
        return "every count exact"
    if cell.true == 0:
        return "worst HT%d %s %s against a true 0" % (thread, event, count_text(cell.value))
    return "worst HT%d %s %+.2f%% (%s, true %s)" % (
        thread, event, 100.0 * (cell.value - cell.true) / cell.true, count_text(cell.value),
        count_text(cell.true))


def _leak_lines(runs):
    """Under core-wide XSU: the counts the sibling's counter caught and the kernel added back."""
    parts = []
    for r in runs:
        leaked = [(thread, event, cell) for thread, event, cell in r.cells() if cell.leak]
        if not leaked:
            continue
        thread, event, cell = max(leaked, key=lambda x: x[2].leak)
        share = " (%.2f%% of its raw count)" % (100.0 * cell.leak / cell.raw) if cell.raw else ""
        parts.append("%s %s, largest HT%d %s %s%s" % (
            r.label, pmu_format.plural(len(leaked), "count"), thread, event,
            count_text(cell.leak), share))
    return ["   %-22s %s" % ("leaks added back:", "; ".join(parts))] if parts else []


def _interfered_lines(runs):
    found = []
    for r in runs:
        repeated = r.repeat > 1
        for c in r.counts:
            if c.interfered:
                found.append("%s HT%d %s%s" % (r.label, c.thread, c.event,
                                               " (repetition %d)" % c.rep if repeated else ""))
    if not found:
        return []
    return ["   ? = the counter went down without an overflow: firmware or SMM changed it, so "
            "the count cannot be trusted: " + ", ".join(found)]


def _verdict_lines(experiment):
    lines = []
    modes = ["%s%s:" % (pmu_format.xsu_text(v.xsu), pmu_model.sched_suffix(v.sched))
             for v in experiment.verdicts]
    width = max([len(m) for m in modes] + [0])
    for v, mode in zip(experiment.verdicts, modes):
        skip = " (%s)" % v.skip if v.result == "skip" and v.skip else ""
        lines.append("   verdict %-*s %s%s  %s" % (width, mode, v.result.upper(), skip, v.reason))
    if not experiment.verdicts:
        lines.append("   verdict: none in the log")
    return lines


# ---- the summary --------------------------------------------------------------------------------

def _summary_cell(m):
    verdict = m["verdict"] or "-"
    corrupted = "%d/%d" % (m["corrupted"], m["checked"]) if m["checked"] else "-"
    return "%-7s %-9s %-9s" % (verdict, corrupted, count_text(m["exposure"]))


def render_summary(report):
    modes = report.xsu_modes()
    lines = ["", "Summary",
             "  corrupted: counts more than their tolerance above their baseline, of those "
             "checked",
             "  exposure:  ticks in which the model saw a corrupting event share a counter "
             "index with another event on the sibling (- on real hardware)"]
    name_w = max([len(n) for n in report.experiments] + [10])
    lines.append(("  %-*s  %s" % (name_w, "", "  ".join(
        "%-27s" % pmu_format.xsu_text(m) for m in modes))).rstrip())
    lines.append(("  %-*s  %s" % (name_w, "experiment", "  ".join(
        ["%-7s %-9s %-9s" % ("verdict", "corrupted", "exposure")] * len(modes)))).rstrip())
    for e in report.experiments.values():
        summaries = [e.mode_summary(xsu) for xsu in modes]
        extra = ["%d not counted with %s" % (m["not_counted"], pmu_format.xsu_text(m["xsu"]))
                 for m in summaries if m["not_counted"]]
        lines.append(("  %-*s  %s%s" % (name_w, e.name, "  ".join(
            _summary_cell(m) for m in summaries), "  (%s)" % "; ".join(extra) if extra else "")
                      ).rstrip())
    lines.extend(_overall_lines(report))
    return lines


def log_state(report):
    """The log in a few words, as the summary says it."""
    if report.damaged:
        return "DAMAGED"
    if report.off_contract:
        return "intact but NOT TO CONTRACT"
    if report.stream.left_out:
        return "intact, %s left out by the kernel" % pmu_format.plural(
            sum(last - first + 1 for first, last in report.stream.left_out), "record")
    return "complete and intact"


RESULT_WORDS = {"pass": "PASS", "fail": "FAIL", None: "UNKNOWN"}


def overall_result(report):
    """The run's result from its verdicts and end record (Report.result): PASS, FAIL or
    UNKNOWN (no end record), and in words when nothing was measured: "PASS (model PMU: nothing
    measured)" (issue 16: a model run must never read like a measurement). The log's state is
    said beside it, and the exit status says both."""
    why = ["no end record"] if report.result is None else []
    if report.nothing_measured:
        why.append("%s: nothing measured" % report.nothing_measured)
    elif report.measured_unknown:
        why.append(report.measured_unknown)
    return RESULT_WORDS[report.result] + (" (%s)" % "; ".join(why) if why else "")


def overall_line(report):
    """'Overall: PASS. 5 verdicts: ... Exit status 0.'"""
    tally = report.result_counts()
    return "Overall: %s. %d verdicts: %d pass, %d fail, %d skip. Log %s. Exit status %d." % (
        overall_result(report), sum(tally.values()), tally["pass"], tally["fail"],
        tally["skip"], log_state(report), report.exit_code)


def _overall_lines(report):
    lines = ["", overall_line(report)]
    if report.backend_evidence:
        lines.append("  - the pmu record is lost; the counters were %s (known from %s)" % (
            {"model": "the model PMU's", "hw": "real"}[report.backend],
            report.backend_evidence))
    lines.extend(_no_pmu_lines(report))
    lines.extend("  - " + reason for reason in report.failures())
    s = report.stream
    if report.exit_code == pmu_model.EXIT_NO_RECORDS:
        lines.append("  - not a single record: not a pmu-testkernel log, or the wrong serial "
                     "port or speed")
    elif report.damaged:
        lines.append("  - the log is damaged (%s; lost or rejected: %s): %s" % (
            pmu_format.plural(len(s.damage()), "problem"), pmu_records.fmt_spans(s.lost_spans()),
            "the tables lack what was lost" if report.result
            else "without its end record the run's result is unknown"))
    if report.off_contract:
        seqs = sorted({p.seq for p in s.breaches()})
        lines.append("  - %s the contract of docs/records.md (%s): the log cannot prove a pass"
                     % (_records_break(len(seqs)), pmu_records.fmt_spans(
                         pmu_records.merge_spans([(n, n) for n in seqs]))))
    return lines


def _no_pmu_lines(report):
    """With no PMU, the summary says so plainly: nothing was measured, and why."""
    if report.backend != "none":
        return []
    skipped = len(report.no_pmu_skips())
    if skipped and skipped == len(report.verdicts()):
        what = "; every experiment was skipped (%s, no_pmu)" % pmu_format.plural(skipped,
                                                                                 "verdict")
    else:
        what = "; %s skipped (no_pmu)" % pmu_format.plural(skipped, "verdict") if skipped else ""
    return ["  - nothing was measured: no usable PMU (%s)%s" % (
        report.pmu.get("reason") or "the pmu record gives no reason", what)]


def _records_break(n):
    return "%s %s" % (pmu_format.plural(n, "record"), "breaks" if n == 1 else "break")
