"""The findings of a comparison in words (pmu-report A.log B.log ...; docs/comparing.md): each
sentence computed from the figures the tables show, none written by hand.

- where the counts come from: the model PMU stands in for a machine's counters under QEMU, and
  its figures are the model's;
- per event of the leak survey that leaks on some machine: its share at its own index per machine,
  and the machines where it does not leak (with their erratum, or none);
- the events that leak nowhere, and the pairs of different indices (the erratum's leak stays at
  the same index, thesis 4.2);
- which machines' cells differ from the others' by more than K times their combined standard
  uncertainty (pmu_survey_stats), and where the kept shares (EN clear, GLOBAL_CTRL clear) cannot
  be read;
- per experiment: on which machines XSU off corrupts the counts its rule checks, and whether XSU on
  and core-wide XSU remove it there; a verdict that failed.
"""

import collections

import pmu_compare_runs
import pmu_compare_survey
import pmu_format
import pmu_survey_stats

Figure = pmu_compare_survey.Figure


def share_text(value):
    """A leak share as the tables print it; a share that rounds to 0 but is not 0 says so."""
    if 0 < value < 0.00005:
        return "<0.01%"
    return "%.2f%%" % (100.0 * value)


def words(items):
    """['a'] -> 'a'; ['a', 'b', 'c'] -> 'a, b and c'."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def all_of(n):
    return {1: "it", 2: "both"}.get(n, "all %d" % n)


def findings(c):
    """The sentences of a finished pmu_compare.Comparison."""
    found = model_findings(c)
    for s in c.surveys:
        found.extend(survey_findings(c, s))
    for e in c.experiments:
        found.extend(experiment_findings(e))
    return found


def model_findings(c):
    machines = list(c.machines.values())
    models = [m.label for m in machines if m.model]
    if not models:
        return []
    if len(models) == len(machines):
        return ["Every machine here is QEMU's model PMU: the figures are the model's "
                "(docs/model.md), not measurements of the CPUs named."]
    return ["%s the model PMU (%s): %s the model's, shown beside the measured ones and never "
            "averaged with them." % (
                "%d of %d machines are" % (len(models), len(machines)) if len(models) > 1
                else "1 of %d machines is" % len(machines), words(models),
                "their figures are" if len(models) > 1 else "its figures are")]


def _erratum(c, label):
    erratum = (c.machine(label).first.pmu or {}).get("erratum")
    return "erratum %s" % erratum if erratum else "no erratum"


def survey_findings(c, s):
    """The leak survey's sentences, one per event that leaks somewhere."""
    found, quiet = [], list(s.no_leak)
    for event in s.events:
        shares = {m: t.leak_share(event) for m, t in s.tallies.items()}
        figures = {m: f for m, f in shares.items() if isinstance(f, Figure)}
        leaking = [m for m, f in figures.items() if f.value > 0]
        if not leaking:
            if figures:
                quiet.append(event)
            continue
        names = s.names(event)
        name = names.get(leaking[0], "")
        text = "%s%s leaks %s" % (event, " (%s)" % name if name else "", ", ".join(
            "%s on %s" % (share_text(figures[m].value), m) for m in leaking))
        clean = [m for m, f in figures.items() if f.value == 0]
        if clean:
            text += "; no leak on %s" % ", ".join(
                "%s (%s)" % (m, _erratum(c, m)) for m in clean)
        uncounted = [m for m, f in shares.items() if f == pmu_compare_survey.NA]
        if uncounted:
            text += "; nothing counted on %s" % ", ".join(uncounted)
        found.append(text + ".")
    if quiet:
        found.append("No leak on any machine: %s." % ", ".join(quiet))
    found.extend(_control_findings(c, s))
    found.extend(_other_index_findings(s))
    found.extend(_marked_findings(s))
    found.extend(_unreliable_findings(s))
    return found


def _control_findings(c, s):
    """A machine on which nothing leaks at all, at any index (the control: a part without the
    erratum)."""
    found = []
    for m, t in s.tallies.items():
        shares = [t.leak_share(ev) for ev in t.info]
        figures = [f for f in shares if isinstance(f, Figure)]
        if figures and all(f.value == 0 for f in figures):
            found.append("Nothing leaks on %s (%s): no event at any index, %s surveyed." % (
                m, _erratum(c, m), pmu_format.plural(len(figures), "event")))
    return found


def _other_index_findings(s):
    """The erratum's leak reaches only the sibling's counter of the same index (thesis 4.2)."""
    other = [r for r in s.rows if r.column == pmu_compare_survey.OTHER]
    leaking = collections.OrderedDict()
    for r in other:
        for m, f in r.cells.items():
            if isinstance(f, Figure) and f.value > 0:
                leaking.setdefault(m, []).append(r.event)
    if not other:
        return []
    if not leaking:
        return ["No machine leaks into the sibling's counter of another index."]
    return ["%s leaks into the sibling's counter of another index: %s." % (m, ", ".join(events))
            for m, events in leaking.items()]


def _marked_findings(s):
    marks = collections.Counter(m for r in s.rows for m in r.marked)
    yardstick = "%g times their combined standard uncertainty" % pmu_survey_stats.K
    if not marks:
        return ["No cell of the leak survey differs between machines by more than %s."
                % yardstick]
    return ["Cells of the leak survey that differ from the other machines' by more than %s "
            "(#): %s." % (yardstick, ", ".join("%d on %s" % (n, m)
                                               for m, n in marks.most_common()))]


def _unreliable_findings(s):
    """The kept shares that cannot be read, by machine, and how many of them are above 100%:
    shown as such, never compared."""
    unreliable = collections.OrderedDict((m, [0, 0]) for m in s.machines)
    for r in s.rows:
        for m, f in r.cells.items():
            if isinstance(f, Figure) and f.unreliable not in (None, pmu_survey_stats.NO_LEAK):
                unreliable[m][0] += 1
                unreliable[m][1] += f.value > 1
    unreliable = [(m, n, above) for m, (n, above) in unreliable.items() if n]
    if not unreliable:
        return []
    return ["EN clear and GLOBAL_CTRL clear shares that cannot be read (a ratio of two runs' "
            "counts, which did too different amounts of work to tell keeping from losing; above "
            "100%% HT0 would have kept more than happened), not compared: %s." % ", ".join(
                "%d on %s%s" % (n, m, " (%d above 100%%)" % above if above else "")
                for m, n, above in unreliable)]


def experiment_findings(e):
    """Per experiment: where XSU off corrupts, what XSU on and core make of it there, and the
    verdicts that failed."""
    off = [k for k, _ in e.runs if k[1] == "off"]
    corrupting = collections.OrderedDict()   # machine -> ["HTn event", ...] under XSU off
    for m in e.machines:
        found = [c for k in off for c in e.corrupted(m, k)]
        if found:
            corrupting[m] = found
    found = [_off_sentence(e, corrupting)] if off and e.rows else []
    if corrupting:
        found.extend(_removed_sentence(e, k, label, list(corrupting))
                     for k, label in e.runs if k[1] != "off")
    for m in e.machines:
        for key in e.verdict_keys:
            v = e.verdict(m, key)
            if v is not None and v.result == "fail":
                found.append("%s %s fails on %s: %s" % (
                    e.name, pmu_compare_runs.verdict_label(key), m, v.reasons[0]))
    return found


def _off_sentence(e, corrupting):
    if not corrupting:
        return "%s: XSU off corrupts no checked count on any machine." % e.name
    counts = sorted({c for cs in corrupting.values() for c in cs})
    clean = [m for m in e.machines if m not in corrupting]
    return "%s: XSU off corrupts %s on %s%s." % (
        e.name, words(counts), words(corrupting),
        "; not on %s" % words(clean) if clean else "")


def _removed_sentence(e, key, label, machines):
    """What a run with XSU (on, core) shows on the machines where XSU off corrupts, from the
    machines whose verdict judged it: where every verdict of the run skipped (too_little_data:
    a sibling that lost its ticks), the counts claim nothing, and the sentence says so."""
    ran = [m for m in machines if e.ran(m, key)]
    if not ran:
        return "%s: %s did not run where XSU off corrupts." % (e.name, label)
    skipped = collections.OrderedDict((m, _skips(e.verdict(m, key[1:]))) for m in ran)
    by_codes = collections.OrderedDict()
    for m, codes in skipped.items():
        if codes:
            by_codes.setdefault(", ".join(codes), []).append(m)
    why = "; ".join("skip %s on %s" % (codes, words(ms)) for codes, ms in by_codes.items())
    judged = [m for m in ran if not skipped[m]]
    if not judged:
        return "%s: %s was not judged where XSU off corrupts: its verdicts said %s." % (
            e.name, label, why)
    left = [m for m in judged if e.corrupted(m, key)]
    note = ["not judged: " + why] if why else []
    if len(ran) < len(machines):
        note.append("it did not run on %s" % words(m for m in machines if m not in ran))
    note = " (%s)" % "; ".join(note) if note else ""
    if left:
        return "%s: %s leaves corrupted counts on %s%s." % (e.name, label, words(left), note)
    return "%s: %s removes it on %s%s." % (
        e.name, label, words(judged) if note or len(judged) == 1 else all_of(len(judged)), note)


def _skips(v):
    """The skip codes of a verdict every log skipped (too_little_data, ...), else []: a run
    whose verdicts all skipped was not judged, whatever its counts say."""
    if v is None or not v.results or set(v.results) != {"skip"}:
        return []
    return list(v.skips) or ["(no code)"]
