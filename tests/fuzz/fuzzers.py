#!/usr/bin/python3
"""Run the libFuzzer harnesses of tests/fuzz/ and say what each did: executions, corpus, coverage,
and the inputs that crashed it (findings), with the command that reproduces each.

    tests/fuzz/fuzzers.py [--build DIR] [--seconds N] [--jobs N] [NAME ...]
    tests/fuzz/fuzzers.py --minimize [--build DIR] [NAME ...]

`make fuzz` runs this (FUZZ_SECONDS=N sets --seconds, 60 by default). A fuzzer keeps what it
learnt in DIR/fuzz/corpus/NAME (the committed seeds in tests/fuzz/seeds/NAME are read too) and
writes a crashing input to DIR/fuzz/findings/NAME/. The exit status is 1 when anything was
found. tests/fuzz/test_fuzz.py runs each for a few seconds in `make test` with this module.

--minimize rewrites the committed seeds of each fuzzer to the fewest inputs that reach the same
edges (libFuzzer's -merge=1 with -use_counters=0, so an input that only runs a loop more often is
not kept); add what a fuzzer found to tests/fuzz/seeds/NAME first, then minimize.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
FUZZERS = ["cmdline", "config", "event_parse", "acpi", "multiboot", "load_options", "bundle"]

EXECUTED_RE = re.compile(r"stat::number_of_executed_units: (\d+)")
DONE_RE = re.compile(r"#(\d+)\s+DONE\s+cov: (\d+) ft: (\d+) corp: (\d+)/")
ARTIFACT_RE = re.compile(r"Test unit written to (\S+)")


class Result:
    def __init__(self, name, seconds, code, output):
        self.name = name
        self.seconds = seconds
        self.code = code
        self.output = output
        executed = EXECUTED_RE.search(output)
        done = DONE_RE.search(output)
        self.executions = int(executed.group(1)) if executed else None
        self.coverage = int(done.group(2)) if done else None
        self.corpus = int(done.group(4)) if done else None
        self.findings = ARTIFACT_RE.findall(output)

    @property
    def ok(self):
        return self.code == 0 and not self.findings

    def line(self):
        rate = "%s executions in %d s (%s/s)" % (
            _n(self.executions), self.seconds,
            _n(self.executions // self.seconds if self.executions and self.seconds else None))
        found = ("none" if self.ok else ", ".join(self.findings) or
                 "exit status %d without an input (see its output)" % self.code)
        return "%-13s %s, corpus %s inputs, coverage %s edges; findings: %s" % (
            self.name, rate, _n(self.corpus), _n(self.coverage), found)

    def reproduce(self, build):
        return ["%s %s" % (binary(build, self.name), path) for path in self.findings]


def _n(value):
    return "?" if value is None else "{:,}".format(value)


def binary(build, name):
    return os.path.join(build, "fuzz", "bin", "fuzz_" + name)


def run(name, build, seconds, corpus=None, seed=None):
    """Run one fuzzer for `seconds` on `corpus` (a folder it adds to; a fresh temporary one when
    None) and the committed seeds; returns its Result."""
    findings = os.path.join(build, "fuzz", "findings", name)
    os.makedirs(findings, exist_ok=True)
    temporary = corpus is None
    corpus = tempfile.mkdtemp(prefix="fuzz-%s-" % name) if temporary else corpus
    os.makedirs(corpus, exist_ok=True)
    command = [binary(build, name), "-max_total_time=%d" % seconds, "-print_final_stats=1",
               "-timeout=10", "-rss_limit_mb=2048", "-artifact_prefix=%s/" % findings]
    dictionary = os.path.join(HERE, name + ".dict")
    if os.path.exists(dictionary):
        command.append("-dict=" + dictionary)
    if seed is not None:
        command.append("-seed=%d" % seed)
    command += [corpus, os.path.join(HERE, "seeds", name)]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, errors="replace",
                              timeout=seconds + 120)
        code, output = proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as e:
        code, output = -1, "did not stop within %d s of its time\n%s" % (
            seconds + 120, (e.stderr or b"").decode("utf-8", "replace"))
    finally:
        if temporary:
            shutil.rmtree(corpus, ignore_errors=True)
    return Result(name, seconds, code, output)


def minimize(name, build):
    """Rewrite tests/fuzz/seeds/name to the inputs that add edges; returns (before, after)."""
    seeds = os.path.join(HERE, "seeds", name)
    kept = tempfile.mkdtemp(prefix="fuzz-min-%s-" % name)
    try:
        before = len(os.listdir(seeds))
        subprocess.run([binary(build, name), "-merge=1", "-use_counters=0", kept, seeds],
                       capture_output=True, check=True)
        for f in os.listdir(seeds):
            os.remove(os.path.join(seeds, f))
        for f in os.listdir(kept):
            shutil.copy(os.path.join(kept, f), seeds)
        return before, len(os.listdir(seeds))
    finally:
        shutil.rmtree(kept, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(TOP, "build"))
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=2, help="fuzzers at once")
    parser.add_argument("--minimize", action="store_true",
                        help="rewrite the committed seeds to the inputs that add coverage")
    parser.add_argument("names", nargs="*", default=FUZZERS, metavar="NAME")
    args = parser.parse_args()
    unknown = set(args.names) - set(FUZZERS)
    if unknown:
        parser.error("unknown fuzzer(s): %s (known: %s)" % (", ".join(sorted(unknown)),
                                                             ", ".join(FUZZERS)))
    if args.minimize:
        for name in args.names:
            print("%-13s seeds: %d -> %d" % ((name,) + minimize(name, args.build)))
        return 0
    print("fuzz: %s, %d s each, %d at once" % (", ".join(args.names), args.seconds, args.jobs),
          flush=True)
    corpus = lambda name: os.path.join(args.build, "fuzz", "corpus", name)  # noqa: E731
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda n: run(n, args.build, args.seconds, corpus(n)),
                                args.names))
    for r in results:
        print(r.line())
    failed = [r for r in results if not r.ok]
    for r in failed:
        print("\n--- %s: exit status %d; reproduce with:\n  %s\n%s" % (
            r.name, r.code, "\n  ".join(r.reproduce(args.build)) or "(no input written)",
            r.output[-3000:]))
    print("\nfuzz: %d fuzzers, %d with findings" % (len(results), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
