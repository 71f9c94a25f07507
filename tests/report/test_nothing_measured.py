"""A run that measured nothing never reads like one that did (issue 16, defect 9): under the model
PMU the verdict line says so ("Overall: PASS (model PMU: nothing measured).") and report.json's
summary has `"model": true`; on a machine with no hypervisor and no usable PMU the pmu record's
backend is "none", every verdict is a skip with code no_pmu, and the summary says plainly that
nothing was measured and why."""

import json
import unittest

from reporttest import TempDirCase, build
import logfixture
import pmu_export
import pmu_model
import pmu_text

NO_PMU_REASON = ("no hypervisor, and CPUID 0x0A reports no architectural PMU "
                 "(AuthenticAMD family 25)")
EXPERIMENTS = ("ch4-branch-misses", "ch7-three-events", "ch8-starvation")


def overall(report):
    return [x for x in pmu_text.render_text(report).splitlines()
            if x.startswith("Overall:")][0]


def no_pmu_log(extra_verdict=None):
    """What the kernel writes on such a machine: the pmu record of backend none, then a skipped
    verdict (no_pmu) per experiment and XSU mode, without any run, and end pass."""
    log = logfixture.Log()
    log.record("boot", **logfixture.boot_record(cpu=dict(
        vendor="AuthenticAMD", family=25, model=33, stepping=0, brand="AMD Ryzen 5 5600X",
        hypervisor=None, avx=True)))
    pmu = logfixture.pmu_record(
        backend="none", reason=NO_PMU_REASON, version=0, gp=0, gp_width=0, fixed=0,
        fixed_width=0, full_width=False, uarch="unknown", erratum=None, hypervisor=None,
        firmware_counters=None, msrs=None)
    del pmu["model"]  # only with the model backend
    log.record("pmu", **pmu)
    for exp in EXPERIMENTS:
        for xsu in ("off", "on"):
            log.verdict(exp, xsu, "skip", "no usable PMU: nothing measured", skip="no_pmu")
    if extra_verdict:
        log.verdict(*extra_verdict)
    log.end()
    return log


def with_backend(backend):
    log = logfixture.suite()
    log.substitute('"backend":"model"', '"backend":"%s"' % backend)
    return log


class ModelSaidLoudly(unittest.TestCase):
    def test_the_verdict_line_names_the_model(self):
        report = build(logfixture.suite())
        self.assertEqual(overall(report), "Overall: PASS (model PMU: nothing measured). 7 "
                         "verdicts: 7 pass, 0 fail, 0 skip. Log complete and intact. Exit status "
                         "0.")
        self.assertTrue(report.model)

    def test_real_counters_say_nothing_of_the_kind(self):
        report = build(with_backend("hw"))
        self.assertEqual(overall(report), "Overall: PASS. 7 verdicts: 7 pass, 0 fail, 0 skip. "
                         "Log complete and intact. Exit status 0.")
        self.assertFalse(report.model)
        self.assertIsNone(report.nothing_measured)

    def test_a_failure_under_the_model_too(self):
        report = build(logfixture.suite(verdict="fail"))
        self.assertTrue(overall(report).startswith("Overall: FAIL (model PMU: nothing measured)."))

    def test_report_json_summary(self):
        for log, model, why in ((logfixture.suite(), True, "model PMU"),
                                (with_backend("hw"), False, None)):
            summary = json.loads(json.dumps(pmu_export.report_json(build(log))))["summary"]
            self.assertEqual((summary["model"], summary["nothing_measured"]), (model, why))


class NoPmu(unittest.TestCase):
    def setUp(self):
        self.report = build(no_pmu_log())
        self.text = pmu_text.render_text(self.report)

    def test_the_log_keeps_the_contract_and_passes(self):
        self.assertEqual(self.report.stream.problems, [])
        self.assertEqual(self.report.exit_code, pmu_model.EXIT_OK)

    def test_the_summary_says_nothing_was_measured_and_why(self):
        lines = self.text.splitlines()
        i = lines.index(overall(self.report))
        self.assertEqual(lines[i], "Overall: PASS (no PMU: nothing measured). 6 verdicts: 0 "
                         "pass, 0 fail, 6 skip. Log complete and intact. Exit status 0.")
        self.assertEqual(lines[i + 1], "  - nothing was measured: no usable PMU (%s); every "
                         "experiment was skipped (6 verdicts, no_pmu)" % NO_PMU_REASON)

    def test_the_boot_section_claims_no_hardware_counts(self):
        self.assertIn("  PMU        none backend: %s" % NO_PMU_REASON, self.text)
        self.assertIn("  modelled   nothing, and nothing is measured: no counters to count with",
                      self.text)
        self.assertNotIn("counts come from the hardware counters", self.text)

    def test_each_verdict_is_a_skip_with_its_code(self):
        for exp in EXPERIMENTS:
            section = self.text[self.text.index("== %s:" % exp):]
            self.assertRegex(section, r"verdict XSU off: SKIP \(no_pmu\)  no usable PMU")

    def test_report_json_summary(self):
        summary = pmu_export.report_json(self.report)["summary"]
        self.assertEqual((summary["model"], summary["nothing_measured"], summary["no_pmu_skips"],
                          summary["verdicts"]), (False, "no PMU", 6,
                                                 {"pass": 0, "fail": 0, "skip": 6}))

    def test_only_some_skipped(self):
        report = build(no_pmu_log(extra_verdict=("custom", "off", "pass", "measured")))
        self.assertIn("  - nothing was measured: no usable PMU (%s); 6 verdicts skipped (no_pmu)"
                      % NO_PMU_REASON, pmu_text.render_text(report))

    def test_no_pmu_line_with_real_counters_or_the_model(self):
        for log in (logfixture.suite(), with_backend("hw")):
            self.assertNotIn("nothing was measured:", pmu_text.render_text(build(log)))


class Quiet(TempDirCase):
    def test_the_quiet_report_says_it_too(self):
        run = self.run_tool("--quiet", "--json", self.write_log(no_pmu_log()))
        self.assertEqual(run.code, 0)
        self.assertIn("Overall: PASS (no PMU: nothing measured).", run.stdout)
        self.assertIn("nothing was measured: no usable PMU", run.stdout)
        with open(run.path("report.json"), encoding="utf-8") as f:
            self.assertEqual(json.load(f)["summary"]["nothing_measured"], "no PMU")


if __name__ == "__main__":
    unittest.main()
