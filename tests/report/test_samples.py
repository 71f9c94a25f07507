"""The sample logs under tests/report/data: what a user can try pmu-report on before the kernel
prints real experiments. They are made by logfixture.py; these tests keep them in step with it."""

import os
import unittest

from reporttest import DATA, lost
import logfixture
import pmu_model
import pmu_records
import pmu_text


def read(name):
    with open(os.path.join(DATA, name), encoding="utf-8", newline="") as f:
        return f.read()


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
