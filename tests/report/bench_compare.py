#!/usr/bin/python3
"""`make bench`: how long pmu-report takes to compare 20 logs, as their size grows to 5 MB each.

The logs are the kernel's own (tests/report/data/compare: Sandy Bridge, Ivy Bridge, Haswell twice
and Skylake-Client under QEMU, each with the leak survey, ch4-lbr-inserts and ch7-three-events),
each with its runs repeated as `repeat=N` writes them (logfixture.repeated) until it is 1.25, 2.5
or 5 MB, four of each machine: 20 logs, 25 to 100 MB in all. tools/pmu-report compares them as a
user runs it, every file and plot written; the time is the wall clock (what the user waits) and
the CPU time of the tool. Linear time doubles with the total size; the acceptance is 20 logs of
5 MB in under 10 s.
"""

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [HERE, os.path.join(TOP, "tools")]

import logfixture  # noqa: E402
import pmu_compare_cli  # noqa: E402

DATA = os.path.join(HERE, "data", "compare")
MACHINES = ["sandybridge.log", "ivybridge.log", "haswell.log", "skylake-client.log"]
COPIES = 5          # logs of each machine: 20 in all
SIZES = [1_250_000, 2_500_000, 5_000_000]
LIMIT_S = 10.0      # the acceptance: 20 logs of 5 MB


def write_logs(folder, size):
    """COPIES logs of each machine of about `size` bytes each; their paths."""
    paths = []
    for name in MACHINES:
        with open(os.path.join(DATA, name), encoding="utf-8") as f:
            text = f.read()
        one, two = (len(logfixture.repeated(text, n).render()) for n in (1, 2))
        n = 1 + max(0, -(-(size - one) // (two - one)))  # repetitions for at least `size` bytes
        for copy in range(COPIES):
            path = os.path.join(folder, "%s-%d.log" % (name[:-4], copy))
            # A line of its own makes each copy another log (the same log twice counts once).
            logfixture.repeated(text, n, note="copy %d of %s" % (copy, name)).write(path)
            paths.append(path)
    return paths


def timed(paths, out):
    """(wall seconds, CPU seconds, exit status) of one pmu-report comparison."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run([os.path.join(TOP, "tools", "pmu-report"), "--out", out] + paths,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env=dict(os.environ, MPLCONFIGDIR=os.path.join(out, "mpl")))
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if proc.returncode != 0:
        sys.exit("pmu-report exit %d: %s" % (proc.returncode, proc.stderr[-2000:]))
    return wall, cpu


def main():
    print("pmu-report: a comparison of %d logs (files and plots written), seconds; linear: x2 "
          "per doubling; up to %d processes read the logs" % (
              len(MACHINES) * COPIES, pmu_compare_cli.cpus()))
    rows = []
    folder = tempfile.mkdtemp(prefix="pmu-compare-bench-")
    try:
        for size in SIZES:
            logs = os.path.join(folder, "logs")
            shutil.rmtree(logs, ignore_errors=True)
            os.makedirs(logs)
            paths = write_logs(logs, size)
            total = sum(os.path.getsize(p) for p in paths)
            wall, cpu = timed(paths, os.path.join(folder, "results"))
            rows.append((size, total, wall, cpu))
            print("  %2d logs of %4.2f MB (%5.1f MB in all): %6.2f s wall, %6.2f s CPU" % (
                len(paths), size / 1e6, total / 1e6, wall, cpu), flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    growth = [b[3] / a[3] for a, b in zip(rows, rows[1:])]
    print("  CPU growth per doubling: %s" % ", ".join("x%.1f" % g for g in growth))
    wall = rows[-1][2]
    print("  20 logs of 5 MB: %.2f s, %s the %.0f s of the acceptance" % (
        wall, "within" if wall < LIMIT_S else "OVER", LIMIT_S))


if __name__ == "__main__":
    main()
