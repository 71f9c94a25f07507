"""The text of a comparison (pmu-report A.log B.log ...; docs/comparing.md): each log's check,
the machine table (a row per log), the keys some logs lack, each experiment across machines
(verdicts, then the excess over baseline with its runs side by side), the leak survey across
machines, the findings, and the summary with the exit status. Every table names a model log's
machine "(model)"."""

import pmu_compare
import pmu_compare_findings
import pmu_compare_runs
import pmu_compare_survey
import pmu_format
import pmu_survey_stats
import pmu_text
from pmu_format import count_text

Figure = pmu_compare_survey.Figure


def table(rows, indent="   ", right=()):
    """Rows of cells as aligned columns (the columns in `right` aligned right), the first row
    being the heading."""
    widths = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [("%*s" if i in right else "%-*s") % (w, c) for i, (w, c) in
                 enumerate(zip(widths, r))]
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines


# ---- each log -----------------------------------------------------------------------------------

def log_check(report):
    """A log's check as the single report prints it (the contract's problems grouped by key: an
    older kernel's log lacks the same keys in every record) and its overall line."""
    lines = pmu_text.render_log_check(report, grouped=True)
    lines.append("  " + pmu_text.overall_line(report))
    lines.extend("    - " + reason for reason in report.failures())
    return lines


# ---- the machines -------------------------------------------------------------------------------

def _microcode(boot):
    if "microcode" not in boot:
        return "-"
    value = boot["microcode"]
    return pmu_format.hex_text(value) if value is not None else "unknown"


def _cpu_cells(e):
    boot = e.boot or {}
    cpu = boot.get("cpu") or {}
    pmu = e.pmu or {}
    model = cpu.get("model")
    fms = "%s/%s/%s" % (cpu.get("family", "-"), "0x%x" % model if isinstance(model, int) else "-",
                        cpu.get("stepping", "-"))
    uarch = pmu.get("uarch", "-")
    if pmu.get("erratum"):
        uarch += " (%s)" % pmu["erratum"]
    counters = "v%s %s GP %s fixed" % (pmu.get("version", "-"), pmu.get("gp", "-"),
                                       pmu.get("fixed", "-")) if pmu else "-"
    backend = {"model": "model PMU", "hw": "hardware", "none": "none"}.get(
        e.backend, "unknown" if e.measured_unknown else "-")
    return [cpu.get("brand", "-"), fms, _microcode(boot), uarch, counters,
            cpu.get("hypervisor") or "-", backend]


def _log_state(e):
    if e.state == "damaged":
        lost = sum(b - a + 1 for a, b in e.lost)
        return "damaged, %d lost%s" % (lost, "" if e.complete else ", no end")
    if e.state == "not to contract":
        return "intact, not to contract"
    return e.state if e.complete or e.state == "no records" else e.state + ", no end"


def _verdict(e):
    """The kernel's verdict (its verdict and end records), whatever the log's state says."""
    if e.verdict is None:
        return "- (no end)" if e.records else "-"
    text = e.verdict.upper()
    if e.nothing_measured:
        text += " (%s)" % e.nothing_measured
    elif e.measured_unknown:
        text += " (model or real: unknown, pmu record lost)"
    return text


USE_WORDS = {pmu_compare.WHOLE: "yes", pmu_compare.PARTIAL: "partial",
             pmu_compare.LEFT_OUT: "no: left out", pmu_compare.DUPLICATE: "no: duplicate"}


def _log_row(e, machine):
    return [machine, e.source] + _cpu_cells(e) + [
        e.version or "-", _log_state(e), _verdict(e), str(e.exit_code), USE_WORDS[e.use]]


def _config_words(differences):
    """'dur_ms 100 (a.log, b.log), 60 (c.log)', keys apart by '; '."""
    return "; ".join("%s %s" % (key, ", ".join("%s (%s)" % (value, ", ".join(sources))
                                               for value, sources in values))
                     for key, values in differences)


def machine_table(c):
    """A row per log: its machine, the CPU, PMU and kernel, its integrity and verdict, and what
    the comparison made of it."""
    rows = [["machine", "log", "CPU", "fam/model/step", "microcode", "uarch (erratum)", "PMU",
             "hypervisor", "counters", "kernel", "log check", "verdict", "exit", "compared"]]
    for m in c.machines.values():
        for i, e in enumerate(m.logs):
            # A repetition's row says ditto for its machine.
            rows.append(_log_row(e, m.label if i == 0 else '"'))
    rows.extend(_log_row(e, "-") for e in c.left_out())
    lines = ["", "Machines: %s of %s (a row per log)" % (
        pmu_format.plural(len(c.machines), "machine"), pmu_format.plural(len(c.logs), "log"))]
    lines.extend(table(rows, indent="  "))
    for m in c.machines.values():
        if len(m.logs) > 1:
            other = pmu_compare.config_differences(m.logs)
            lines.append("  %s: %d logs of the same CPU, microcode%s and run settings, "
                         "combined as repetitions%s" % (
                             m.label, len(m.logs), ", kernel" if m.model else "",
                             "; their command lines differ in %s, which choose%s the runs, not "
                             "their figures" % (_config_words(other), "s" if len(other) == 1
                                                else "") if other else ""))
    figures = pmu_compare.config_differences(c.compared_logs(), pmu_compare.FIGURE_KEYS)
    if figures:
        lines.append("  command lines differ in keys that change the figures: %s; logs of one "
                     "CPU that differ in them are not combined as repetitions (the key is in "
                     "their labels), and their counts differ with it" % _config_words(
                         figures))
    for e in c.left_out():
        lines.append("  %s %s: %s" % ("left out" if e.use == pmu_compare.LEFT_OUT
                                      else "not counted twice", e.source, e.reason))
    for e in c.compared_logs():
        if e.use == pmu_compare.PARTIAL:
            lines.append("  %s: %s" % (e.source, e.reason))
    return lines


def differences(c):
    """The keys (and record types) some compared logs carry and others do not, by the logs that
    lack them."""
    versions = {}
    for e in c.compared_logs():
        versions.setdefault(e.version or "-", []).append(e.source)
    lines = []
    if len(versions) > 1:
        lines.extend(["", "Kernel versions: %s" % "; ".join(
            "%s (%s)" % (v, ", ".join(s)) for v, s in versions.items())])
    if not c.differences:
        return lines
    by_lacking = {}
    for type_name, key, lacking in c.differences:
        what = "%s records" % type_name if key is None else "%s.%s" % (type_name, key)
        by_lacking.setdefault(tuple(lacking), []).append(what)
    lines.extend(["", "Compared on the keys every log carries; these are in some logs only "
                  "(their figures are shown where present, never compared with a log that "
                  "lacks them):"])
    for lacking, what in by_lacking.items():
        lines.append("  not in %s: %s" % (", ".join(lacking), ", ".join(what)))
    return lines


# ---- experiments --------------------------------------------------------------------------------

def verdict_cell(v):
    if v is None:
        return "-"
    text = v.result.upper()
    if v.result == "skip" and v.skips:
        text += " (%s)" % ", ".join(v.skips)
    if v.logs > 1:
        n = v.results[v.result]
        text += " (%d logs)" % n if n == v.logs else " (%d of %d logs)" % (n, v.logs)
    return text


def excess_cell(x):
    if x is None:
        return "-"
    text = ("! " if x.corrupted else "") + count_text(x.mean)
    if x.pct is not None:
        text += " (%s%%)" % ("{:+,.0f}" if abs(x.pct) >= 1000 else "{:+.1f}").format(x.pct)
    if x.rsd_pct is not None:
        text += " " + pmu_format.rsd_text(x.rsd_pct)
    if x.corrupted and x.corrupted < len(x.values):
        text += " (! %d of %d)" % (x.corrupted, len(x.values))
    return text


def render_experiment(e):
    section = " (thesis %s)" % e.section if e.section else ""
    lines = ["", "== %s: %s%s, on %s" % (e.name, e.title or "(no exp record)", section,
                                         pmu_format.plural(len(e.machines), "machine"))]
    if e.rule:
        lines.append("   rule: %s" % e.rule)
    if e.verdict_keys:
        rows = [["verdicts"] + [pmu_compare_runs.verdict_label(k) for k in e.verdict_keys]]
        rows += [["  " + m] + [verdict_cell(e.verdict(m, k)) for k in e.verdict_keys]
                 for m in e.machines]
        lines.extend(table(rows))
    if e.rows:
        lines.append("   excess over baseline: the count less its baseline, of the counts the "
                     "rule checks (! corrupted; over every repetition and log: the mean, perf's "
                     "( +- ))")
    for thread, event in e.rows:
        rows = [["  HT%d %s" % (thread, event)] + [label for _, label in e.runs]]
        rows += [["    " + m] + [excess_cell(e.excess(m, k, thread, event)) for k, _ in e.runs]
                 for m in e.machines]
        lines.extend(table(rows, right=range(1, len(e.runs) + 1)))
    return lines


# ---- the leak survey ----------------------------------------------------------------------------

COLUMN_NAMES = {pmu_compare_survey.OTHER: "other index", "en_clear": "EN clear",
                "global_clear": "GLOBAL_CTRL clear"}


def column_name(column):
    return COLUMN_NAMES.get(column, "index %s" % column)


def survey_cell(cell, marked):
    if cell is None:
        return "-"
    if not isinstance(cell, Figure):
        return cell
    if cell.unreliable is not None:
        return "no leak" if cell.unreliable == pmu_survey_stats.NO_LEAK else "unreliable"
    text = ("# " if marked else "") + "%.2f%%" % (100.0 * cell.value)
    if cell.rsd_pct is not None:
        text += " " + pmu_format.rsd_text(cell.rsd_pct)
    return text


def render_survey(c, s):
    lines = ["", "Leak survey, %s, on %s: the share of each event's count that the sibling's "
             "counter of a zero event caught, by HT0's counter index" % (
                 pmu_format.xsu_text(s.xsu), pmu_format.plural(len(s.machines), "machine")),
             "   # differs from the largest group of machines that agree in its row by more than "
             "%g times the two cells' combined standard" % pmu_survey_stats.K,
             "     uncertainty (each: the standard error of its mean, at least %g%% of the "
             "share; docs/comparing.md); n/a nothing counted;" % (
                 100 * pmu_survey_stats.FLOOR_REL),
             "     - not measured; ( +- ) perf's, over the repetitions",
             "   EN clear, GLOBAL_CTRL clear: what HT0 kept with the sibling's counter of its "
             "index disabled, as a share of its count + leak;",
             "     unreliable: above 100%, or too unsure to tell keeping (100%) from losing "
             "(100% less the leak share): a ratio of",
             "     two runs' counts, which did different amounts of work; no leak: nothing to keep "
             "or lose; neither is marked"]
    rows = [["event"] + s.machines]
    for event in s.events:
        rows.append([_event_heading(s, event)])
        for r in s.rows_of(event):
            rows.append(["  " + column_name(r.column)] + [
                survey_cell(r.cells.get(m), m in r.marked) for m in s.machines])
    lines.extend(_survey_table(rows))
    lines.extend(_single_measurement_lines(s))
    absent = [m.label for m in c.machines.values() if m.label not in s.machines]
    if absent:
        lines.append("   not surveyed (no survey records of XSU %s): %s" % (s.xsu,
                                                                           ", ".join(absent)))
    if s.single:
        lines.append("   surveyed on one machine only: %s" % ", ".join(
            "%s (%s)" % (event, m) for event, m in s.single))
    if s.no_leak:
        lines.append("   no leak at any index on any machine: %s" % ", ".join(
            "%s (%s)" % (event, "; ".join(dict.fromkeys(s.names(event).values())) or "-")
            for event in s.no_leak))
    if s.nothing_counted:
        lines.append("   nothing counted on any machine: %s" % ", ".join(s.nothing_counted))
    return lines


def _single_measurement_lines(s):
    """The machines whose leak shares rest on one measurement each: no spread of their own."""
    single = [m for m in s.machines if any(
        isinstance(r.cells.get(m), Figure) and r.cells[m].n == 1 and
        r.column not in pmu_compare_survey.DISABLED_STATES for r in s.rows)]
    if not single:
        return []
    return ["   one measurement per cell on %s: no spread of its own; its uncertainty is"
            % ", ".join(single),
            "     the scatter of the event's shares over the indices of that boot, at least the "
            "floor (%g%% of the share: how far boots" % (100 * pmu_survey_stats.FLOOR_REL),
            "     of one part have read apart under QEMU, docs/comparing.md)"]


def _event_heading(s, event):
    """The event, Intel's name for it on most machines (and the others' where a part names the
    code otherwise), and where it is corrupting."""
    by_name = {}
    for m, name in s.names(event).items():
        by_name.setdefault(name, []).append(m)
    text = event
    if by_name:
        common = max(by_name, key=lambda n: len(by_name[n]))
        text += "  " + common + "".join("; %s on %s" % (n, ", ".join(ms))
                                        for n, ms in by_name.items() if n != common)
    surveyed = [m for m, t in s.tallies.items() if event in t.info]
    corrupting = s.corrupting_on(event)
    if corrupting and len(corrupting) == len(surveyed):
        text += "  (corrupting)"
    elif 2 * len(corrupting) > len(surveyed):
        text += "  (corrupting; not on %s)" % ", ".join(m for m in surveyed
                                                        if m not in corrupting)
    elif corrupting:
        text += "  (corrupting on %s)" % ", ".join(corrupting)
    return text


def _survey_table(rows):
    """The survey's table: an event's heading line runs across the columns."""
    cells = [r for r in rows if len(r) > 1]
    widths = [max(len(r[i]) for r in cells) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        if len(r) == 1:
            lines.append("   " + r[0])
            continue
        lines.append(("   " + "  ".join([r[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(r[1:], widths[1:])])).rstrip())
    return lines


# ---- findings and summary -----------------------------------------------------------------------

def render_findings(c):
    found = pmu_compare_findings.findings(c)
    if not found:
        return []
    return ["", "Findings"] + ["  - " + f for f in found]


def render_summary(c):
    left = c.left_out()
    compared = c.compared_logs()
    partial = [e.source for e in compared if e.use == pmu_compare.PARTIAL]
    lines = ["", "Comparison: %s from %s compared%s%s. Exit status %d%s." % (
        pmu_format.plural(len(c.machines), "machine"), pmu_format.plural(len(compared), "log"),
        " (%s: only the intact runs)" % ", ".join(partial) if partial else "",
        "; %d left out (%s)" % (len(left), ", ".join(e.source for e in left)) if left else "",
        c.exit_code, "" if c.exit_code == 0 else
        ": the worst of the logs' own (%s)" % ", ".join(
            "%s %d" % (e.source, e.exit_code) for e in c.logs if e.exit_code))]
    if len(c.machines) < 2:
        lone = list(c.machines.values())
        lines.append("  - fewer than two machines: nothing is compared across machines%s" % (
            "; above: %s's %d logs combined as repetitions, with their spread" % (
                lone[0].label, len(lone[0].logs)) if lone and len(lone[0].logs) > 1 else ""))
    return lines


def render_comparison(c, quiet=False):
    """Everything after the logs' checks."""
    lines = machine_table(c) + differences(c)
    if not quiet:
        for e in c.experiments:
            lines.extend(render_experiment(e))
        if c.single_experiments:
            lines.extend(["", "On one machine only: %s" % ", ".join(
                "%s (%s)" % (name, m) for name, m in c.single_experiments)])
        for s in c.surveys:
            lines.extend(render_survey(c, s))
    lines.extend(render_findings(c))
    lines.extend(render_summary(c))
    return pmu_format.printable("\n".join(lines) + "\n")
