"""Many machines in one report (issue 26) from logs the kernel writes now: `make run`-style boots
with -cpu SandyBridge, IvyBridge, Haswell (twice: one machine's repetitions) and Skylake-Client
(the control without the erratum), each with exp=leak-survey,ch4-lbr-inserts,ch7-three-events.
Each boot is a case of its own, run beside the others as any case is (and booted again where its
host disturbed it); each keeps its log, and the case that keeps the last one runs the
comparison:

- `pmu-report` of the five logs: exit status 0; the machine table (4 machines, Haswell's with 2
  logs), the verdicts of the three experiments per machine, the leak survey side by side, nothing
  leaking on Skylake-Client, the files and plots written, comparison.json to its schema;
- the same with the Ivy Bridge log cut in the middle and a log of a kernel before the leak survey
  (tests/report/data/compare/haswell-kernel-5d3ed0c.log): both named, the comparison made from
  the rest, the exit status the cut log's (3);
- the marks both ways (docs/comparing.md#uncertainty-and-marks): the two Haswell boots compared
  as two machines (the second's boot record given another stepping) show no mark, and the same
  log beside itself so relabelled none either; among the four, Sandy Bridge's r02d1 share (44%
  against 2.4%) is marked at every index; an EN clear or GLOBAL_CTRL clear share above 100% is
  `unreliable` with its reason, never marked.

Run alone (`make test T=qemu/compare/haswell`), a case boots and keeps its log, and says that the
comparison waits for the others.
"""

import json
import os
import subprocess
import tempfile
import threading

import pmu_schema
from qemu_boot import PAIR
from tests.qemu.driver import Case
from tests.report import logfixture

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(TOP, "tools", "pmu-report")
OLD_KERNEL = os.path.join(TOP, "tests", "report", "data", "compare",
                          "haswell-kernel-5d3ed0c.log")
CMDLINE = "exit=qemu exp=leak-survey,ch4-lbr-inserts,ch7-three-events dur_ms=60"
BOOTS = [("sandybridge", "SandyBridge"), ("ivybridge", "IvyBridge"), ("haswell", "Haswell"),
         ("haswell-2", "Haswell"), ("skylake-client", "Skylake-Client")]
MACHINES = ["sandybridge (model)", "ivybridge (model)", "haswell (model)", "skylake (model)"]

_kept = {}
_lock = threading.Lock()


def keep_for_comparison(name):
    """Keep this boot's log; the boot that completes the five compares them."""
    def check(result, stream):
        with _lock:
            _kept[name] = result.log
            ready = dict(_kept) if len(_kept) == len(BOOTS) else None
        if ready is None:
            return "log kept; the comparison waits for %d more" % (len(BOOTS) - len(_kept))
        return compare(ready)
    return check


def run_report(folder, out, *logs):
    proc = subprocess.run([TOOL, "--out", os.path.join(folder, out)] + list(logs),
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, MPLCONFIGDIR=os.path.join(folder, "mpl")))
    with open(os.path.join(folder, out, "comparison.json")) as f:
        return proc, json.load(f)


def compare(logs):
    with tempfile.TemporaryDirectory(prefix="pmu-compare-") as folder:
        paths = []
        for name, _ in BOOTS:
            paths.append(os.path.join(folder, name + ".log"))
            with open(paths[-1], "w", encoding="utf-8") as f:
                f.write(logs[name])
        proc, obj = run_report(folder, "four", *paths)
        said = "%s\n%s" % (proc.stdout[-6000:], proc.stderr[-2000:])
        assert proc.returncode == 0, "pmu-report exit %d:\n%s" % (proc.returncode, said)
        figures = four_models(proc.stdout, obj, folder, said)
        cut = os.path.join(folder, "ivybridge-cut.log")
        with open(cut, "w", encoding="utf-8") as f:
            f.write(logs["ivybridge"][:len(logs["ivybridge"]) // 2])
        proc, obj = run_report(folder, "bad", *paths, cut, OLD_KERNEL)
        bad_input(proc, obj, cut)
        for one, two in (("haswell", "haswell-2"), ("skylake-client", "skylake-client"),
                         ("sandybridge", "sandybridge")):
            same_machine(folder, logs, one, two)
    return figures


def same_machine(folder, logs, one, two):
    """Two logs of one machine, the second relabelled (another stepping) so that they are
    compared as two machines, not combined: no cell is marked."""
    other = os.path.join(folder, "%s-as-another.log" % two)
    with open(other, "w", encoding="utf-8") as f:
        f.write(logfixture.changed(logs[two], "boot",
                                   lambda o: o["cpu"].update(stepping=99)))
    proc, obj = run_report(folder, "same-%s" % one, os.path.join(folder, one + ".log"), other)
    said = "%s\n%s" % (proc.stdout[-6000:], proc.stderr[-2000:])
    assert proc.returncode == 0 and len(obj["machines"]) == 2, said
    found = [(r["event"], r["column"], r["marked"]) for r in obj["surveys"][0]["rows"]
             if r["marked"]]
    assert found == [], "%s beside %s marked: %r" % (one, two, found)


def four_models(text, obj, folder, said):
    """The acceptance's first call: what it prints and writes."""
    assert pmu_schema.comparison_problems(obj) == [], pmu_schema.comparison_problems(obj)
    assert [m["label"] for m in obj["machines"]] == MACHINES, said
    assert [len(m["logs"]) for m in obj["machines"]] == [1, 1, 2, 1], said
    for line in ("Machines: 4 machines of 5 logs (a row per log)",
                 "haswell (model): 2 logs of the same CPU, microcode, kernel and run settings",
                 "Leak survey, XSU off, on 4 machines", "Nothing leaks on skylake (model)"):
        assert line in text, "%r not in:\n%s" % (line, said)
    verdicts = {e["exp"]: {v["machine"] for v in e["verdicts"]} for e in obj["experiments"]}
    assert verdicts == {e: set(MACHINES) for e in ("ch4-lbr-inserts", "ch7-three-events",
                                                   "leak-survey")}, verdicts
    survey = obj["surveys"][0]
    skylake = [c["value"] for r in survey["rows"] for m, c in r["cells"].items()
               if m == "skylake (model)" and c["n"] and r["column"] in "0123"]
    assert skylake and set(skylake) == {0.0}, "Skylake-Client leaks: %r" % skylake
    leaks = {}
    for r in survey["rows"]:
        if r["event"] == "r81d0:u" and r["column"] == "1":
            leaks = {m: c["value"] for m, c in r["cells"].items()}
    assert all(leaks[m] > 0 for m in MACHINES[:3]), leaks
    marks_both_ways(survey)
    files = sorted(os.listdir(os.path.join(folder, "four")))
    assert [f for f in files if f.endswith(".png")] == [
        "comparison-ch4-lbr-inserts-excess.png", "comparison-ch7-three-events-excess.png",
        "comparison-leak-map-off.png"], files
    assert len([f for f in files if f.endswith(".csv")]) == 4, files
    return "r81d0:u on index 1: %s" % ", ".join(
        "%s %.2f%%" % (m.split()[0], 100 * leaks[m]) for m in MACHINES)


def marks_both_ways(survey):
    """Sandy Bridge's L2_HIT share (the model's 44%, 2.4% on the others) is marked at every
    index; a kept share above 100% is unreliable and unmarked."""
    rows = {(r["event"], r["column"]): r for r in survey["rows"]}
    for i in "0123":
        assert "sandybridge (model)" in rows[("r02d1:u", i)]["marked"], rows[("r02d1:u", i)]
    for r in survey["rows"]:
        if r["column"] not in ("en_clear", "global_clear"):
            continue
        for m, cell in r["cells"].items():
            if cell["value"] is not None and cell["value"] > 1:
                assert "above 100%" in cell["unreliable"] and m not in r["marked"], (m, r)


def bad_input(proc, obj, cut):
    """The acceptance's second call: the cut log and the older kernel's named, the rest
    compared."""
    said = "%s\n%s" % (proc.stdout[-6000:], proc.stderr[-2000:])
    assert proc.returncode == 3, "exit %d, expected 3 (the cut log):\n%s" % (proc.returncode,
                                                                             said)
    uses = {e["source"]: (e["use"], e["state"]) for e in obj["logs"]}
    assert uses[cut] == ("left out", "damaged"), uses
    assert uses[OLD_KERNEL] == ("whole", "not to contract"), uses
    assert "left out %s: damaged" % cut in proc.stdout, said
    assert {"record": "survey", "key": None, "lacking": [OLD_KERNEL]} in obj["differences"], \
        obj["differences"]
    assert len(obj["machines"]) == 5 and obj["surveys"][0]["machines"] == [
        "sandybridge (model)", "ivybridge (model)", "haswell kernel %s (model)" %
        obj["logs"][2]["version"], "skylake (model)"], said


CASES = [
    Case("compare/%s" % name, smp=PAIR, cpu=cpu, cmdline=CMDLINE, experiments=True,
         timeout=240, describe="one machine of the comparison of four CPU models (issue 26)",
         checks=[keep_for_comparison(name)])
    for name, cpu in BOOTS
]
