#!/usr/bin/python3
"""Run every test of the project and print one summary line.

    tests/run.py [--build DIR] [--filter REGEX] [--jobs N] [--only host|python|qemu ...]

Three kinds of tests, each counted test by test:
  host    the cmocka programs $BUILD/host/tests/* (unit tests of the pure C code), read as TAP;
  python  the unittest suites under tests/*/ for the Python tools (tests/report, ...);
  qemu    boots of the kernel in QEMU (tests/qemu/cases.py), checked through the record stream.
The last line is "N passed, N failed" (", N skipped" when some are); the exit status is 1 when
anything failed.
"""

import argparse
import concurrent.futures
import io
import os
import re
import subprocess
import sys
import time
import traceback
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tools"))
sys.path.insert(0, TOP)

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"


class Outcome:
    def __init__(self, name, status, seconds=0.0, detail=""):
        self.name = name
        self.status = status
        self.seconds = seconds
        self.detail = detail
        self.figures = ""  # what a passing test measured, shown on its line


def report(outcome, stream=sys.stdout):
    line = "%s %s" % (outcome.status, outcome.name)
    if outcome.seconds >= 0.05:
        line += " (%.1fs)" % outcome.seconds
    if outcome.status == SKIP and outcome.detail:
        line += ": " + outcome.detail.splitlines()[0]
    elif outcome.status == PASS and outcome.figures:
        line += ": " + outcome.figures
    print(line, file=stream, flush=True)


# ---- host: cmocka programs, TAP on stdout -------------------------------------------------------

TAP_LINE = re.compile(r"^(not ok|ok) (\d+)(?: - (.*?))?(?: # SKIP ?(.*))?$")


def run_host_program(path, selected):
    name = os.path.basename(path)
    env = dict(os.environ, CMOCKA_MESSAGE_OUTPUT="TAP")
    start = time.monotonic()
    try:
        proc = subprocess.run([path], capture_output=True, text=True, env=env, timeout=600)
        output, code = proc.stdout + proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as e:
        output, code = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (
            e.stdout or ""), None
    elapsed = time.monotonic() - start
    outcomes = []
    current = None
    for line in output.splitlines():
        m = TAP_LINE.match(line)
        if m:
            ok, _, title, skip = m.groups()
            # cmocka writes a skipped test as "not ok N # SKIP name".
            title = (title or skip or "").strip()
            status = SKIP if skip is not None else (PASS if ok == "ok" else FAIL)
            current = Outcome("host/%s/%s" % (name, title), status)
            outcomes.append(current)
        elif line.startswith("#") and current is not None and current.status == FAIL:
            if not line.startswith("# not ok - ") and not line.startswith("# ok - "):
                current.detail += line[1:].strip() + "\n"
    if outcomes:
        for o in outcomes:
            o.seconds = elapsed / len(outcomes)
    if code is None or (code != 0 and not any(o.status == FAIL for o in outcomes)):
        # The program crashed (a sanitizer report, a signal) or hung: that is a failure too.
        outcomes.append(Outcome("host/%s" % name, FAIL, elapsed,
                                "exit status %s\n%s" % (code, output[-3000:])))
    return [o for o in outcomes if selected(o.name)]


def host_tests(build, selected):
    directory = os.path.join(build, "host", "tests")
    if not os.path.isdir(directory):
        return [Outcome("host", FAIL, 0, "no host tests built in %s (run make)" % directory)]
    outcomes = []
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            if not may_contain_host_tests(selected, name):
                continue
            for o in run_host_program(path, selected):
                report(o)
                outcomes.append(o)
    return outcomes


def may_contain_host_tests(selected, program):
    """A filter may name single cases, which are only known once the program runs; skip the
    program only when the filter is clearly about another kind of test."""
    pattern = selected.pattern
    if not pattern or selected("host/%s/" % program):
        return True
    return not pattern.startswith(("qemu", "python", "^qemu", "^python"))


# ---- python: unittest suites of the tools -------------------------------------------------------

class _Collector(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.outcomes = []
        self._start = {}

    def startTest(self, test):
        super().startTest(test)
        self._start[test.id()] = time.monotonic()

    def _add(self, test, status, detail=""):
        seconds = time.monotonic() - self._start.get(test.id(), time.monotonic())
        name = "python/" + test.id().replace("tests.", "", 1)
        self.outcomes.append(Outcome(name, status, seconds, detail))

    def addSuccess(self, test):
        self._add(test, PASS)

    def addFailure(self, test, err):
        self._add(test, FAIL, self._exc_info_to_string(err, test))

    def addError(self, test, err):
        self._add(test, FAIL, self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        self._add(test, SKIP, reason)

    def addExpectedFailure(self, test, err):
        self._add(test, PASS)

    def addUnexpectedSuccess(self, test):
        self._add(test, FAIL, "unexpected success")


def python_tests(selected):
    outcomes = []
    tests_dir = os.path.join(TOP, "tests")
    for sub in sorted(os.listdir(tests_dir)):
        directory = os.path.join(tests_dir, sub)
        if not os.path.isdir(directory):
            continue
        if not any(f.startswith("test_") and f.endswith(".py") for f in os.listdir(directory)):
            continue
        loader = unittest.TestLoader()
        try:
            suite = loader.discover(directory, pattern="test_*.py", top_level_dir=TOP)
        except Exception:
            o = Outcome("python/%s" % sub, FAIL, 0, traceback.format_exc())
            report(o)
            outcomes.append(o)
            continue
        collector = _Collector()
        filtered = unittest.TestSuite(
            t for t in _flatten(suite)
            if selected("python/" + t.id().replace("tests.", "", 1)))
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = io.StringIO()
        try:
            filtered.run(collector)
        finally:
            sys.stdout, sys.stderr = saved
        for o in collector.outcomes:
            report(o)
            outcomes.append(o)
    return outcomes


def _flatten(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from _flatten(t)
        else:
            yield t


# ---- qemu: boots checked through the record stream ----------------------------------------------

def qemu_tests(build, selected, jobs):
    from tests.qemu import driver
    from tests.qemu.cases import CASES

    cases = [c for c in CASES if selected("qemu/" + c.name)]
    if not cases:
        return []
    missing = driver.missing_tools()
    if missing:
        outcomes = [Outcome("qemu/" + c.name, FAIL, 0, missing) for c in cases]
        for o in outcomes:
            report(o)
        return outcomes
    outcomes = []
    # Cases marked exclusive measure time (ticks, skew) and run alone; the rest share the cores.
    shared = [c for c in cases if not c.exclusive]
    alone = [c for c in cases if c.exclusive]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for o in pool.map(lambda c: driver.run_case(c, build), shared):
            report(o)
            outcomes.append(o)
    for c in alone:
        o = driver.run_case(c, build)
        report(o)
        outcomes.append(o)
    return outcomes


# ---- main ---------------------------------------------------------------------------------------

class Selector:
    def __init__(self, pattern):
        self.pattern = pattern
        self.regex = re.compile(pattern) if pattern else None

    def __call__(self, name):
        return self.regex is None or bool(self.regex.search(name))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(TOP, "build"))
    parser.add_argument("--filter", default=None, help="regex over test names")
    parser.add_argument("--jobs", type=int, default=2, help="QEMU boots at once")
    parser.add_argument("--only", choices=["host", "python", "qemu"], action="append")
    args = parser.parse_args()

    selected = Selector(args.filter)
    kinds = args.only or ["host", "python", "qemu"]
    start = time.monotonic()
    outcomes = []
    if "host" in kinds:
        outcomes += host_tests(args.build, selected)
    if "python" in kinds:
        outcomes += python_tests(selected)
    if "qemu" in kinds:
        outcomes += qemu_tests(args.build, selected, args.jobs)

    failed = [o for o in outcomes if o.status == FAIL]
    if failed:
        print("\nFailures:")
        for o in failed:
            print("--- %s" % o.name)
            print(o.detail.rstrip() or "(no detail)")
    passed = sum(o.status == PASS for o in outcomes)
    skipped = sum(o.status == SKIP for o in outcomes)
    print("\n(%.0f s)" % (time.monotonic() - start))
    summary = "%d passed, %d failed" % (passed, len(failed))
    if skipped:
        summary += ", %d skipped" % skipped
    print(summary)
    return 1 if failed or not outcomes else 0


if __name__ == "__main__":
    sys.exit(main())
