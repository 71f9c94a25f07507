"""The files of a comparison besides its plots (pmu-report A.log B.log ...): comparison.json and a
CSV per table (comparison-machines.csv, comparison-verdicts.csv, comparison-excess.csv,
comparison-survey.csv). Their layout is in docs/report.md; comparison.json's is also data,
pmu_schema.COMPARISON. Every row that holds a machine's figure says whether the machine is the
model PMU (`model`), as every table of the text does."""

import json
import os

import pmu_compare_findings
import pmu_compare_runs
import pmu_compare_survey
import pmu_export

MACHINE_COLUMNS = ["machine", "model", "source", "use", "reason", "state", "complete", "records",
                   "version", "vendor", "family", "cpu_model", "stepping", "brand", "microcode",
                   "hypervisor", "backend", "uarch", "erratum", "pmu_version", "gp", "fixed",
                   "verdict", "passed", "exit"]
VERDICT_COLUMNS = ["exp", "machine", "model", "xsu", "sched", "policy", "label", "result",
                   "skips", "logs", "pass", "fail", "skip"]
EXCESS_COLUMNS = ["exp", "machine", "model", "run", "phase", "xsu", "sched", "policy", "thread",
                  "event", "mean", "rsd_pct", "n", "baseline", "pct", "corrupted"]
SURVEY_COLUMNS = ["xsu", "event", "column", "machine", "model", "name", "corrupting", "value",
                  "spread", "n", "rsd_pct", "uncertainty", "unreliable", "counted", "marked"]


def _round(value, digits=6):
    return None if value is None else round(value, digits)


# ---- comparison.json ----------------------------------------------------------------------------

def log_json(e):
    return {"source": e.source, "machine": e.machine.label if e.machine else None,
            "use": e.use, "reason": e.reason, "state": e.state, "complete": e.complete,
            "records": e.records, "lost": [list(s) for s in e.lost],
            "problems": dict(e.problems), "version": e.version, "exit": e.exit_code,
            "passed": e.passed, "verdict": e.verdict, "verdicts": e.tally,
            "failures": e.failures}


def machine_json(m):
    boot, pmu = m.first.boot or {}, m.first.pmu or {}
    return {"label": m.label, "logs": [e.source for e in m.logs], "cpu": boot.get("cpu"),
            "microcode": boot.get("microcode"), "backend": m.first.backend, "model": m.model,
            "uarch": pmu.get("uarch"), "erratum": pmu.get("erratum"),
            "pmu_version": pmu.get("version"), "gp": pmu.get("gp"), "fixed": pmu.get("fixed"),
            "versions": sorted({e.version or "-" for e in m.logs})}


def verdict_json(machine, key, v):
    xsu, sched, policy = key
    return {"machine": machine, "xsu": xsu, "sched": sched, "policy": policy,
            "label": pmu_compare_runs.verdict_label(key), "result": v.result,
            "skips": list(v.skips), "logs": v.logs,
            "results": {r: v.results.get(r, 0) for r in ("pass", "fail", "skip")}}


def excess_json(machine, key, label, thread, event, x):
    phase, xsu, sched, policy = key
    return {"machine": machine, "run": label, "phase": phase, "xsu": xsu, "sched": sched,
            "policy": policy, "thread": thread, "event": event, "mean": x.mean,
            "rsd_pct": x.rsd_pct, "n": len(x.values), "baseline": x.baseline, "pct": x.pct,
            "corrupted": x.corrupted}


def experiment_json(e):
    return {
        "exp": e.name, "title": e.title, "section": e.section, "rule": e.rule,
        "machines": e.machines,
        "runs": [{"label": label, "phase": k[0], "xsu": k[1], "sched": k[2], "policy": k[3]}
                 for k, label in e.runs],
        "verdicts": [verdict_json(m, k, e.verdict(m, k)) for m in e.machines
                     for k in e.verdict_keys if e.verdict(m, k) is not None],
        "excess": [excess_json(m, k, label, t, ev, e.excess(m, k, t, ev))
                   for t, ev in e.rows for k, label in e.runs for m in e.machines
                   if e.excess(m, k, t, ev) is not None],
    }


def cell_json(cell):
    """A survey cell; nothing counted is a cell of no measurement (value null, n 0)."""
    if isinstance(cell, pmu_compare_survey.Figure):
        return {"value": cell.value, "spread": cell.spread, "n": cell.n,
                "rsd_pct": cell.rsd_pct, "uncertainty": cell.uncertainty,
                "unreliable": cell.unreliable}
    return {"value": None, "spread": None, "n": 0, "rsd_pct": None, "uncertainty": None,
            "unreliable": None}


def survey_json(s):
    return {
        "xsu": s.xsu, "machines": s.machines, "columns": [str(c) for c in s.columns],
        "rows": [{"event": r.event, "column": str(r.column),
                  "cells": {m: cell_json(c) for m, c in r.cells.items() if c is not None},
                  "marked": [m for m in s.machines if m in r.marked]} for r in s.rows],
        "names": {ev: s.names(ev) for ev in s.events + s.no_leak},
        "corrupting": {ev: s.corrupting_on(ev) for ev in s.events + s.no_leak},
        "no_leak": s.no_leak, "nothing_counted": s.nothing_counted,
        "single": [{"event": ev, "machine": m} for ev, m in s.single],
    }


def comparison_json(c):
    machines = list(c.machines.values())
    return {
        "logs": [log_json(e) for e in c.logs],
        "machines": [machine_json(m) for m in machines],
        "differences": [{"record": t, "key": k, "lacking": lacking}
                        for t, k, lacking in c.differences],
        "experiments": [experiment_json(e) for e in c.experiments],
        "single_experiments": [{"exp": n, "machine": m} for n, m in c.single_experiments],
        "surveys": [survey_json(s) for s in c.surveys],
        "findings": pmu_compare_findings.findings(c),
        "plots": c.plots,
        "summary": {"machines": len(machines), "logs": len(c.logs),
                    "compared": len(c.compared_logs()), "left_out": len(c.left_out()),
                    "partial": c.partial, "model": bool(machines) and all(
                        m.model for m in machines), "exit": c.exit_code},
    }


def write_json(c, out_dir):
    path = os.path.join(out_dir, "comparison.json")
    with open(path, "w", encoding="utf-8", errors="backslashreplace") as f:
        json.dump(comparison_json(c), f, indent=1)
        f.write("\n")
    return path


# ---- CSV ----------------------------------------------------------------------------------------

def machine_rows(c):
    rows = []
    for e in [e for m in c.machines.values() for e in m.logs] + c.left_out():
        cpu = (e.boot or {}).get("cpu") or {}
        pmu = e.pmu or {}
        rows.append({
            "machine": e.machine.label if e.machine else None,
            "model": e.backend == "model", "source": e.source, "use": e.use,
            "reason": e.reason, "state": e.state, "complete": e.complete,
            "records": e.records, "version": e.version, "vendor": cpu.get("vendor"),
            "family": cpu.get("family"), "cpu_model": cpu.get("model"),
            "stepping": cpu.get("stepping"), "brand": cpu.get("brand"),
            "microcode": (e.boot or {}).get("microcode"), "hypervisor": cpu.get("hypervisor"),
            "backend": e.backend, "uarch": pmu.get("uarch"), "erratum": pmu.get("erratum"),
            "pmu_version": pmu.get("version"), "gp": pmu.get("gp"), "fixed": pmu.get("fixed"),
            "verdict": e.verdict, "passed": e.passed, "exit": e.exit_code})
    return rows


def write_csv_files(c, out_dir):
    models = {m.label: m.model for m in c.machines.values()}
    verdicts, excess, survey = [], [], []
    for e in c.experiments:
        for v in experiment_json(e)["verdicts"]:
            v.update(exp=e.name, model=models[v["machine"]], skips=" ".join(v["skips"]),
                     **v.pop("results"))
            verdicts.append(v)
        for x in experiment_json(e)["excess"]:
            x.update(exp=e.name, model=models[x["machine"]], mean=_round(x["mean"]),
                     rsd_pct=_round(x["rsd_pct"]), pct=_round(x["pct"]))
            excess.append(x)
    for s in c.surveys:
        survey.extend(survey_rows(s, models))
    files = [("comparison-machines.csv", MACHINE_COLUMNS, machine_rows(c)),
             ("comparison-verdicts.csv", VERDICT_COLUMNS, verdicts),
             ("comparison-excess.csv", EXCESS_COLUMNS, excess),
             ("comparison-survey.csv", SURVEY_COLUMNS, survey)]
    paths = []
    for name, columns, rows in files:
        paths.append(os.path.join(out_dir, name))
        pmu_export.write_csv(paths[-1], columns, rows)
    return paths


def survey_rows(s, models):
    rows = []
    for r in s.rows:
        names = s.names(r.event)
        corrupting = s.corrupting_on(r.event)
        for m, cell in r.cells.items():
            if cell is None:
                continue
            figure = cell if isinstance(cell, pmu_compare_survey.Figure) else None
            rows.append({"xsu": s.xsu, "event": r.event, "column": r.column, "machine": m,
                         "model": models[m], "name": names.get(m), "corrupting": m in corrupting,
                         "value": _round(figure.value) if figure else None,
                         "spread": _round(figure.spread) if figure else None,
                         "n": figure.n if figure else 0,
                         "rsd_pct": _round(figure.rsd_pct) if figure else None,
                         "uncertainty": _round(figure.uncertainty) if figure else None,
                         "unreliable": figure.unreliable if figure else None,
                         "counted": figure is not None, "marked": m in r.marked})
    return rows
