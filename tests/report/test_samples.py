"""The logs under tests/report/data: the samples a user can try pmu-report on (made by
logfixture.py; these tests keep them in step with it), and logs the kernel wrote (kernel-*.log,
QEMU boots of tests/qemu's cases), which must keep the contract of docs/records.md."""

import os
import unittest

from reporttest import DATA, lost
import logfixture
import pmu_model
import pmu_records
import pmu_schema
import pmu_text


def read(name):
    with open(os.path.join(DATA, name), encoding="utf-8", newline="") as f:
        return f.read()


# Each log the kernel wrote, its exit status and why.
KERNEL_LOGS = {
    "kernel-bad-cmdline.log": (pmu_model.EXIT_OK, "bad command-line words, each a warn"),
    "kernel-core-skylake.log": (pmu_model.EXIT_OK, "core-wide XSU on a CPU without erratum"),
    "kernel-custom-repeat.log": (pmu_model.EXIT_OK, "a custom run, three repetitions"),
    "kernel-survey.log": (pmu_model.EXIT_OK, "the leak survey on Haswell"),
    "kernel-bench.log": (pmu_model.EXIT_OK, "three bundles of your own code: traced (-verbose, "
                                            "-range), #UD, core"),
    "kernel-profiles.log": (pmu_model.EXIT_OK, "selftest=profiles: each workload's code traced"),
    "kernel-exception.log": (pmu_model.EXIT_FAIL, "a page fault: the run fails"),
    "kernel-no-local-apic.log": (pmu_model.EXIT_FAIL, "bring-up stops: no local APIC"),
    "kernel-no-long-mode.log": (pmu_model.EXIT_FAIL, "a 486: the short boot record"),
}


class KernelLogs(unittest.TestCase):
    def test_every_log_is_listed(self):
        self.assertEqual(sorted(n for n in os.listdir(DATA) if n.startswith("kernel-")),
                         sorted(KERNEL_LOGS))

    def test_the_kernels_records_keep_the_contract(self):
        types = set()
        for name, (status, why) in KERNEL_LOGS.items():
            r = pmu_model.build(pmu_records.parse(read(name)))
            self.assertEqual(r.stream.problems, [], name)
            self.assertEqual(r.exit_code, status, "%s: %s" % (name, why))
            self.assertIn("keeps the contract of docs/records.md", pmu_text.render_text(r))
            types.update(rec.type for rec in r.stream.records)
        # Together they hold every record type the kernel writes today.
        self.assertEqual(types, set(pmu_schema.RECORDS) - {"progress"})


class Samples(unittest.TestCase):
    def test_samples_are_what_the_fixture_writes(self):
        for name, spec in logfixture.SAMPLES.items():
            expected = logfixture.sample(name).render(newline=spec["newline"], ansi=spec["ansi"])
            self.assertEqual(read(name), expected,
                             "%s is stale: run tests/report/logfixture.py --write-samples" % name)

    def test_good_sample_passes(self):
        r = pmu_model.build(pmu_records.parse(read("sample-good.log")))
        self.assertEqual(r.stream.problems, [])
        self.assertIn("\r\n", read("sample-good.log"))
        self.assertEqual(r.exit_code, pmu_model.EXIT_OK)

    def test_damaged_sample_names_its_damage(self):
        r = pmu_model.build(pmu_records.parse(read("sample-damaged.log")))
        self.assertEqual(lost(r.stream), [10, 20, 70])
        self.assertEqual(sorted(p.kind for p in r.stream.problems),
                         ["crc", "gap", "garbled", "no_end"])
        self.assertEqual(r.exit_code, pmu_model.EXIT_DAMAGED)
        self.assertIn("the log stops during xsu-hk-vs-greedy XSU on (hk), after a count record",
                      pmu_text.render_text(r, quiet=True))


if __name__ == "__main__":
    unittest.main()
