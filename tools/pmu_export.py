"""The files pmu-report writes besides its plots: counts.csv, verdicts.csv, survey.csv (when the
log has a leak survey) and report.json. Their columns are in docs/report.md."""

import csv
import json
import os

import pmu_survey

COUNT_COLUMNS = ["exp", "phase", "xsu", "sched", "policy", "rep", "thread", "apic", "event",
                 "code", "name", "corrupting", "counter", "raw", "enabled", "running",
                 "running_pct", "scaled", "not_counted", "baseline", "tolerance",
                 "deviation_pct", "corrupted", "leak", "true", "true_deviation_pct",
                 "interfered", "seq"]
VERDICT_COLUMNS = ["exp", "xsu", "sched", "policy", "result", "skip", "reason", "exposure",
                   "corrupted", "checked", "seq"]
SURVEY_COLUMNS = ["exp", "xsu", "rep", "event", "name", "corrupting", "index", "sibling_index",
                  "same_index", "sibling_state", "count", "leak", "ratio", "seq"]


def _round(value, digits=4):
    return None if value is None else round(value, digits)


def count_row(c):
    return {
        "exp": c.exp, "phase": c.phase, "xsu": c.xsu, "sched": c.sched, "policy": c.policy,
        "rep": c.rep, "thread": c.thread, "apic": c.apic, "event": c.event, "code": c.code,
        "name": c.name, "corrupting": c.corrupting, "counter": c.counter, "raw": c.raw,
        "enabled": c.enabled, "running": c.running,
        "running_pct": round(100.0 * c.running_fraction, 4), "scaled": c.value,
        "not_counted": c.not_counted, "baseline": c.baseline,
        "tolerance": c.tolerance if c.baseline is not None else None,
        "deviation_pct": _round(c.deviation_pct), "corrupted": c.corrupted, "leak": c.leak,
        "true": c.true, "true_deviation_pct": _round(c.true_deviation_pct),
        "interfered": c.interfered, "seq": c.seq,
    }


def verdict_row(v, m):
    """A verdict with its XSU mode's summary m (Experiment.mode_summary)."""
    return {"exp": v.exp, "xsu": v.xsu, "sched": v.sched, "policy": v.policy,
            "result": v.result, "skip": v.skip, "reason": v.reason, "exposure": m["exposure"],
            "corrupted": m["corrupted"], "checked": m["checked"], "seq": v.seq}


def survey_row(p):
    return {"exp": p.exp, "xsu": p.xsu, "rep": p.rep, "event": p.event, "name": p.name,
            "corrupting": p.corrupting, "index": p.index, "sibling_index": p.sibling_index,
            "same_index": p.same_index, "sibling_state": p.sibling_state, "count": p.count,
            "leak": p.leak, "ratio": p.ratio, "seq": p.seq}


def all_counts(report):
    return [c for e in report.experiments.values() for r in e.columns() for c in r.counts]


def all_survey_points(report):
    return [p for e in report.experiments.values() for p in e.survey]


def _csv_value(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    return v


def write_csv(path, columns, rows):
    # backslashreplace: a string of a record may hold a lone surrogate (\ud800 is valid JSON).
    with open(path, "w", newline="", encoding="utf-8", errors="backslashreplace") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        w.writeheader()
        for row in rows:
            w.writerow({k: _csv_value(row.get(k)) for k in columns})


def write_csv_files(report, out_dir):
    """counts.csv and verdicts.csv always, survey.csv when there is a survey; returns the
    paths."""
    paths = [os.path.join(out_dir, "counts.csv"), os.path.join(out_dir, "verdicts.csv")]
    write_csv(paths[0], COUNT_COLUMNS, [count_row(c) for c in all_counts(report)])
    rows = []
    for e in report.experiments.values():
        summaries = {xsu: e.mode_summary(xsu) for xsu in {v.xsu for v in e.verdicts}}
        rows.extend(verdict_row(v, summaries[v.xsu]) for v in e.verdicts)
    write_csv(paths[1], VERDICT_COLUMNS, rows)
    points = all_survey_points(report)
    if points:
        paths.append(os.path.join(out_dir, "survey.csv"))
        write_csv(paths[2], SURVEY_COLUMNS, [survey_row(p) for p in points])
    return paths


# ---- report.json --------------------------------------------------------------------------------

def report_json(report):
    """The whole report as one JSON-able object (report.json; its layout is in docs/report.md)."""
    s = report.stream
    return {
        "source": report.source,
        "log": {
            "records": len(s.received_seqs()),
            "text_lines": s.text_lines,
            "complete": s.end is not None,
            "intact": not s.damage(),
            "to_contract": not s.breaches(),
            "lost": [list(span) for span in s.lost_spans()],
            "problems": [{"kind": p.kind, "line": p.line_no,
                          "seq": list(p.seq) if isinstance(p.seq, tuple) else p.seq,
                          "detail": p.detail} for p in s.problems],
        },
        "boot": report.boot,
        "pmu": report.pmu,
        "rdpmc": report.rdpmc,
        "warnings": [r.obj for r in report.warnings],
        "exceptions": report.exceptions,
        "notes": report.notes,
        "experiments": [experiment_json(e, report.tsc_hz) for e in report.experiments.values()],
        "other_records": dict(report.other_types),
        # Records of types docs/records.md does not list, whole, so that nothing is dropped.
        "unknown_records": [{"seq": r.seq, "line": r.line_no, "type": r.type, "record": r.obj}
                            for _, records in report.unknown_records() for r in records],
        "plots": report.plots,
        "summary": summary_json(report),
    }


def summary_json(report):
    s = report.stream
    return {
        "passed": report.passed,
        # Whether the counts came from the model PMU, and why none is a measurement (issue 16).
        "model": report.model,
        "nothing_measured": report.nothing_measured,
        # Without the pmu record: what told the backend, or that nothing did (a sentence).
        "backend_evidence": report.backend_evidence,
        "measured_unknown": report.measured_unknown,
        "no_pmu_skips": len(report.no_pmu_skips()),
        "exit": report.exit_code,
        "verdicts": report.result_counts(),
        "failures": report.failures(),
        "missing_verdicts": [{"exp": n, "xsu": x} for n, x in report.missing_verdicts()],
        "end": s.end.obj if s.end is not None else None,
    }


def experiment_json(e, tsc_hz):
    return {
        "exp": e.name, "title": e.title, "section": e.section, "description": e.description,
        "rule": e.rule,
        "runs": [run_json(r, e.threads(), tsc_hz) for r in e.columns()],
        "verdicts": [{"xsu": v.xsu, "sched": v.sched, "policy": v.policy, "result": v.result,
                      "skip": v.skip, "reason": v.reason, "seq": v.seq} for v in e.verdicts],
        "summary": {xsu: e.mode_summary(xsu) for xsu in e.measure_modes() if xsu is not None},
        "running_comparison": [
            {"label": r.label, "xsu": r.xsu, "sched": r.sched, "policy": r.policy,
             "running": {str(t): None if f is None else {"mean": f[0], "min": f[1]}
                         for t, f in threads.items()}}
            for r, threads in e.running_comparison()],
        "survey": [survey_row(p) for p in e.survey],
        "leak_maps": [leak_map_json(m) for m in pmu_survey.leak_maps(e.survey)],
    }


def run_json(r, threads, tsc_hz):
    return {
        "label": r.label, "phase": r.phase, "xsu": r.xsu, "sched": r.sched,
        "policy": r.policy, "repeat": r.repeat, "exposure": r.exposure,
        "start": r.start, "ends": r.ends,
        "tick_overhead": {str(t): r.tick_overhead(t, tsc_hz) if tsc_hz else None
                          for t in threads},
        "tick_overhead_from": {str(t): _how(r.tick_overhead_from(t, tsc_hz)) for t in threads},
        "msr_writes_per_tick": {str(t): r.per_tick("msr_writes_per_tick", t) for t in threads},
        "msr_reads_per_tick": {str(t): r.per_tick("msr_reads_per_tick", t) for t in threads},
        "smi_count": r.total("smi_count"),
        "handovers": r.total("handovers"),
        "joint_retries": r.total("joint_retries"),
        "joint_unanswered": r.total("joint_unanswered"),
        "joint_send_failures": r.total("joint_send_failures"),
        "joint_gap_pct": r.mean_of("joint_gap_pct"),
        "cells": [{"thread": t, "event": ev, "reps": cell.reps, "mean": cell.value,
                   "rsd_pct": cell.rsd_pct, "running_pct": 100.0 * cell.running_fraction,
                   "not_counted": cell.not_counted, "corrupted": cell.corrupted,
                   "interfered": cell.interfered, "true": cell.true, "leak": cell.leak}
                  for t, ev, cell in r.cells()],
        "counts": [count_row(c) for c in r.counts],
    }


def _how(found):
    """Which figures a tick overhead came from (pmu_model.TICK_TOTAL or TICK_MEAN), or None."""
    return found[1] if found else None


def leak_map_json(m):
    """A leak map: its cells by column, and what HT0 kept with the sibling's counter disabled
    (`kept`, by state; pmu_survey.LeakMap.kept), with its standard uncertainty and why it cannot
    be read (`kept_uncertainty`, `kept_unreliable`)."""
    return {"xsu": m.xsu, "columns": [str(c) for c in m.columns], "states": m.states,
            "rows": [{"event": ev, "cells": {str(c): m.cell(ev, c) for c in m.columns},
                      "kept": {s: m.kept(ev, s) for s in m.states},
                      "kept_uncertainty": {s: m.kept_uncertainty(ev, s) for s in m.states},
                      "kept_unreliable": {s: m.kept_unreliable(ev, s) for s in m.states}}
                     for ev in m.events]}


def write_json(report, out_dir):
    path = os.path.join(out_dir, "report.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(report_json(report), f, indent=1, sort_keys=False)
        f.write("\n")
    return path
