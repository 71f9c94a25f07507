"""The smoke run of every fuzzer in `make test`: each runs SMOKE_SECONDS from its committed seeds
(two at once), and must execute inputs and find nothing. A finding fails its test with the path
of the input and the command that reproduces it. `make fuzz` runs them for longer."""

import concurrent.futures
import os
import unittest

from tests.fuzz import fuzzers

SMOKE_SECONDS = 3
BUILD = os.path.join(fuzzers.TOP, "build")


class Smoke(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        present = [n for n in fuzzers.FUZZERS if os.path.exists(fuzzers.binary(BUILD, n))]
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            cls.results = dict(zip(present, pool.map(
                lambda n: fuzzers.run(n, BUILD, SMOKE_SECONDS, seed=1), present)))

    def check(self, name):
        if name not in self.results:
            self.fail("%s is not built (make test builds the fuzzers with clang)"
                      % fuzzers.binary(BUILD, name))
        r = self.results[name]
        self.assertTrue(r.ok, "%s\nreproduce with: %s\n%s" % (
            r.line(), "; ".join(r.reproduce(BUILD)) or "(no input written)", r.output[-3000:]))
        self.assertGreater(r.executions or 0, 0, r.output[-3000:])


def _case(name):
    return lambda self: self.check(name)


for _name in fuzzers.FUZZERS:
    setattr(Smoke, "test_" + _name, _case(_name))


class Reading(unittest.TestCase):
    """What the runner reads in libFuzzer's output (its last lines, as libFuzzer 14 prints
    them)."""

    CRASH = ("==1==ERROR: AddressSanitizer: SEGV on unknown address\n"
             "artifact_prefix='b/fuzz/findings/acpi/'; Test unit written to "
             "b/fuzz/findings/acpi/crash-56b1f0d8\n"
             "stat::number_of_executed_units: 31484\n")
    DONE = ("#2097152\tDONE   cov: 325 ft: 1210 corp: 222/9848b lim: 4096 exec/s: 9699 rss: 60Mb\n"
            "Done 2097152 runs in 216 second(s)\nstat::number_of_executed_units: 2097152\n")

    def test_a_finding_is_its_input(self):
        r = fuzzers.Result("acpi", 3, 1, self.CRASH)
        self.assertFalse(r.ok)
        self.assertEqual(r.findings, ["b/fuzz/findings/acpi/crash-56b1f0d8"])
        self.assertEqual(r.reproduce("b"), ["b/fuzz/bin/fuzz_acpi "
                                            "b/fuzz/findings/acpi/crash-56b1f0d8"])
        self.assertIn("findings: b/fuzz/findings/acpi/crash-56b1f0d8", r.line())

    def test_a_clean_run_and_its_figures(self):
        r = fuzzers.Result("event_parse", 216, 0, self.DONE)
        self.assertTrue(r.ok)
        self.assertEqual((r.executions, r.coverage, r.corpus), (2097152, 325, 222))
        self.assertEqual(r.line(), "event_parse   2,097,152 executions in 216 s (9,709/s), "
                         "corpus 222 inputs, coverage 325 edges; findings: none")

    def test_a_failure_without_an_input_is_no_pass(self):
        r = fuzzers.Result("cmdline", 3, 1, "ParseDictionaryFile: error in line 48\n")
        self.assertFalse(r.ok)
        self.assertIn("exit status 1 without an input", r.line())
