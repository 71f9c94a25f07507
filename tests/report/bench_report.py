#!/usr/bin/python3
"""`make bench`: how pmu-report's time grows with the size of a log, for each kind of line end.

Logs of 0.375 to 3 MB (the suite's experiments over and over, tests/report/logfixture.py, with
the text the kernel prints after its end record), with LF, CRLF, CR alone (a capture whose line
feeds were lost) and a mixture; each is read, modelled and rendered as text (files and plots
aside), best of three, in CPU time (a busy machine changes it less). Linear time doubles with
the size; quadratic time quadruples.
"""

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools")]

import logfixture  # noqa: E402
import pmu_model  # noqa: E402
import pmu_records  # noqa: E402
import pmu_text  # noqa: E402

SIZES = [375_000, 750_000, 1_500_000, 3_000_000]
ENDS = {"LF": "\n", "CRLF": "\r\n", "CR": "\r", "mixed": None}


def log_of(size, newline):
    log = logfixture.Log()
    logfixture.boot_and_pmu(log)
    while sum(len(line.text) + 2 for line in log.lines) < size:
        logfixture.exp_three_events(log)
    log.end()
    log.text("RUN PASSED")
    if newline is not None:
        return log.render(newline=newline)
    # GRUB's CR-only redraws, CRLF from the kernel, LF from a capture tool, by turns.
    ends = ["\r\n", "\n", "\r"]
    return "".join(line.text + ends[i % 3] for i, line in enumerate(log.lines))


def seconds(text):
    best = None
    for _ in range(3):
        start = time.process_time()
        pmu_text.render_text(pmu_model.build(pmu_records.parse(text)))
        elapsed = time.process_time() - start
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    print("pmu-report: read, model and text of a log, CPU seconds, best of 3 (linear: x2 "
          "per doubling)")
    print("%-6s %s" % ("ends", "  ".join("%12s" % ("%.3g MB" % (s / 1e6)) for s in SIZES)))
    for name, newline in ENDS.items():
        times = [seconds(log_of(size, newline)) for size in SIZES]
        growth = [b / a for a, b in zip(times, times[1:])]
        print("%-6s %s   growth per doubling: %s" % (
            name, "  ".join("%10.3f s" % t for t in times),
            ", ".join("x%.1f" % g for g in growth)))


if __name__ == "__main__":
    main()
