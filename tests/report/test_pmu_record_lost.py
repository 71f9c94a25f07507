"""A run on the model PMU never looks like a measurement, even when its `pmu` record is lost
(issue 26's review: the first records deleted, or page 1 of the QR photos missing, gave a bare
"Overall: PASS." and a comparison's verdict PASS). The other records tell the backend where they
can: pmu_check's and rdpmc's `backend`, a count's `true` and an exp_end's `exposure` (only the
model writes those, docs/records.md); where none does, the report says that it cannot know."""

import json
import os
import unittest

from reporttest import DATA, TempDirCase, build
import logfixture
import pmu_compare
import pmu_compare_text
import pmu_model
import pmu_records
import pmu_text

UNKNOWN = "whether this was measured on real counters is unknown: the pmu record is lost"


def overall_lines(report):
    lines = pmu_text.render_text(report).splitlines()
    i = [n for n, x in enumerate(lines) if x.startswith("Overall:")][0]
    return lines[i:i + 2]


def without_pmu(log):
    log.drop(log.seq_of("pmu"))
    return log


def real_counters_log():
    """The suite as the hw backend writes it: no exposure (null), no `true` on any count."""
    log = logfixture.suite()
    for line in log.lines:
        if line.seq is not None and '"type":"exp_end"' in line.text:
            obj = json.loads(line.text.split(" ", 2)[2])
            obj["exposure"] = None
            line.text = logfixture.record_text(line.seq, obj)
    return log


class PmuRecordLost(unittest.TestCase):
    def test_the_model_is_known_from_the_exposure(self):
        report = build(without_pmu(logfixture.suite()))
        first, why = overall_lines(report)
        self.assertTrue(first.startswith("Overall: PASS (model PMU: nothing measured). "), first)
        self.assertTrue(first.endswith("Log DAMAGED. Exit status 3."), first)
        self.assertEqual(why, "  - the pmu record is lost; the counters were the model PMU's "
                         "(known from its exp_end records' exposure, which only the model counts)")
        self.assertTrue(report.model)

    def test_the_model_is_known_from_true_counts(self):
        log = without_pmu(real_counters_log())
        log.substitute('"interfered":false', '"interfered":false,"true":1000')
        report = build(log)
        self.assertEqual(report.nothing_measured, "model PMU")
        self.assertIn("count records' true counts", report.backend_evidence)

    def test_unknown_when_nothing_tells(self):
        report = build(without_pmu(real_counters_log()))
        first, _ = overall_lines(report)
        self.assertTrue(first.startswith("Overall: PASS (%s). " % UNKNOWN), first)
        self.assertIsNone(report.nothing_measured)
        self.assertFalse(report.model)

    def test_a_boot_check_names_real_counters(self):
        log = without_pmu(real_counters_log())
        log.drop(log.seq_of("end"))
        log.record("pmu_check", backend="hw")
        log.end()
        report = build(log)
        self.assertEqual(report.backend, "hw")
        self.assertIsNone(report.measured_unknown)
        first, why = overall_lines(report)
        self.assertTrue(first.startswith("Overall: PASS. "), first)
        self.assertEqual(why, "  - the pmu record is lost; the counters were real (known from its "
                         "pmu_check record's backend)")

    def test_the_pmu_record_decides_when_it_is_there(self):
        report = build(logfixture.suite())
        self.assertEqual((report.backend, report.backend_evidence), ("model", None))

    def test_the_kernels_log_without_its_first_records(self):
        """`sed` the first records (boot, cpu, pmu, tick) out of a kernel's log."""
        with open(os.path.join(DATA, "compare", "haswell.log"), encoding="utf-8") as f:
            text = f.read()
        kept = "".join(x for x in text.splitlines(True) if not x.startswith(("@0 ", "@1 ", "@2 ",
                                                                              "@3 ")))
        report = pmu_model.build(pmu_records.parse(kept), source="nohead.log")
        first, why = overall_lines(report)
        self.assertEqual(first, "Overall: PASS (model PMU: nothing measured). 5 verdicts: 5 "
                         "pass, 0 fail, 0 skip. Log DAMAGED. Exit status 3.")
        self.assertIn("its pmu_check record's backend", why)


class InAComparison(TempDirCase):
    def verdict_cells(self, logs):
        c = pmu_compare.Comparison()
        for name, log in logs:
            text = log.render()
            report = pmu_model.build(pmu_records.parse(text), source=name)
            c.add(pmu_compare.LogEntry(name, text, report, False))
        c.finish()
        rows = [x for x in pmu_compare_text.machine_table(c) if ".log" in x]
        return {name: [r for r in rows if name in r][0] for name, _ in logs}

    def test_the_verdict_column(self):
        cells = self.verdict_cells([("whole.log", logfixture.suite()),
                                    ("nopmu.log", without_pmu(logfixture.suite())),
                                    ("unknown.log", without_pmu(real_counters_log()))])
        self.assertIn("PASS (model PMU)", cells["whole.log"])
        self.assertIn("PASS (model PMU)", cells["nopmu.log"])
        self.assertIn("PASS (model or real: unknown, pmu record lost)", cells["unknown.log"])

    def test_report_json(self):
        path = self.write_log(without_pmu(real_counters_log()))
        run = self.run_tool(path, "--json")
        with open(run.path("report.json"), encoding="utf-8") as f:
            summary = json.load(f)["summary"]
        self.assertEqual((summary["model"], summary["measured_unknown"]), (False, UNKNOWN))


if __name__ == "__main__":
    unittest.main()
