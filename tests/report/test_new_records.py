"""The records added after the first suite (logfixture.extended_suite): core-wide XSU, repetitions
with perf's ( +- x% ), the model's true counts, leaks added back, counts firmware interfered
with, the tick handler's time, the PMU MSRs the firmware left, microcode, RDPMC, the leak
survey, policies and a run defined on the command line. A log without them reads as before."""

import csv
import json
import os
import re
import unittest

from reporttest import TempDirCase, build
from test_report import labels, section, table
import logfixture
import pmu_export
import pmu_model
import pmu_text


def extended():
    return pmu_text.render_text(build(logfixture.extended_suite()))


class Repetitions(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.report = build(logfixture.extended_suite())
        cls.text = pmu_text.render_text(cls.report)

    def test_perf_relative_standard_deviation(self):
        # perf's ( +- x% ): sample deviation / sqrt(n), over the mean. 1, 2, 3: 1 / sqrt(3) / 2.
        self.assertAlmostEqual(pmu_model.perf_rsd_pct([1, 2, 3]), 28.8675, places=4)
        self.assertIsNone(pmu_model.perf_rsd_pct([5]))
        self.assertEqual(pmu_model.perf_rsd_pct([0, 0]), 0.0)

    def test_modes_side_by_side_off_on_core(self):
        t = table(self.text, "ch7-three-events", 0)
        self.assertEqual(labels(t[None]), ["XSU off", "XSU on", "XSU core"])

    def test_cells_hold_the_mean_and_perfs_deviation(self):
        rows = section(self.text, "ch7-three-events").splitlines()
        row = [r for r in rows if r.strip().startswith("r81d0:u")][0]
        # 5,600,000,000 +1% per repetition: mean 5,656,000,000; 56e6 / sqrt(3) / mean = 0.57%.
        self.assertIn("? 5,656,000,000 [100.00%] ( +-  0.57% )", row)
        self.assertIn("0 [ 66.68%] ( +-  0.00% )",
                      [r for r in rows if r.strip().startswith("r20cc:u")][1])
        self.assertIn("3 repetitions (mean, perf's ( +- x% ))", "\n".join(rows))

    def test_one_verdict_per_mode(self):
        s = section(self.text, "ch7-three-events")
        self.assertEqual(re.findall(r"verdict (XSU \w+): +PASS", s),
                         ["XSU off", "XSU on", "XSU core"])
        self.assertEqual(self.report.missing_verdicts(), [])

    def test_summary_has_a_column_per_mode(self):
        self.assertRegex(self.text, r"\n +XSU off +XSU on +XSU core\n")
        self.assertRegex(self.text, r"ch7-three-events +pass +6/6 +6,000 +pass +0/6 +0 +pass "
                         r"+0/6 +0")

    def test_interfered_counts_are_marked_and_listed(self):
        self.assertIn("? = the counter went down without an overflow: firmware or SMM changed "
                      "it, so the count cannot be trusted: XSU off HT0 r81d0:u (repetition 1)",
                      self.text)
        self.assertEqual(self.report.exit_code, pmu_model.EXIT_OK)  # the verdicts decide

    def test_tick_handler_share_and_late_ticks(self):
        # 1000 ticks of 2500 TSC ticks in 1.0004 s at 2.5 GHz: 0.0999%.
        self.assertIn("tick handler:          XSU off HT0 0.10% HT1 0.10%, longest 12,000 TSC "
                      "ticks, HT1 6 late, 0 lost;", self.text)
        run = self.report.experiments["ch7-three-events"].runs[("measure", "off", "greedy", None)]
        self.assertAlmostEqual(run.tick_overhead(0, logfixture.TSC_HZ),
                               1000 * 2500 / (1.0004 * logfixture.TSC_HZ))

    def test_distance_from_the_models_truth(self):
        self.assertIn("vs the model's truth:  XSU off worst HT0 r20cc:u 138,370,000 against a "
                      "true 0; XSU on worst HT1 r08d1:u -2.41% (163,620,000, true 167,660,000)",
                      self.text)

    def test_leaks_added_back_under_core_wide_xsu(self):
        self.assertIn("leaks added back:      XSU core 2 counts, largest HT0 r08d1:u "
                      "135,000,000 (44.70% of its raw count)", self.text)


class BootAdditions(unittest.TestCase):
    def test_microcode_msrs_firmware_counters_and_rdpmc(self):
        text = extended()
        self.assertIn("hypervisor TCGTCGTCGTCG; microcode 0x28", text)
        self.assertIn("IA32_PERF_GLOBAL_CTRL=0x70000000f  IA32_FIXED_CTR_CTRL=0x330", text)
        self.assertIn("WARNING    the firmware left 2 counters enabled: IA32_FIXED_CTR0, "
                      "IA32_PMC1.", text)
        self.assertIn("RDPMC      41.5 TSC cycles per read at CPL 3, median 40, min 38, max 120, "
                      "1,000 reads, trapped and answered by the model", text)
        self.assertIn("IA32_DEBUGCTL=0x0  IA32_PEBS_ENABLE=faulted", text)

    def test_a_log_without_them_prints_none_of_them(self):
        # No repetitions, no model truth, no leaks, no interference, no survey, no RDPMC
        # record, no counter left enabled by the firmware, no microcode revision.
        text = pmu_text.render_text(build(logfixture.suite()))
        for absent in ("microcode 0x", "WARNING", "RDPMC", "( +-", "truth", "leaks added back",
                       "? =", "leak map"):
            self.assertNotIn(absent, text)
        self.assertIn("microcode unknown", text)
        self.assertIn("firmware   left no counter enabled", text)


class LeakSurvey(unittest.TestCase):
    def setUp(self):
        self.s = section(extended(), "leak-survey")

    def map_rows(self):
        lines = self.s.splitlines()
        start = next(i for i, line in enumerate(lines) if line.strip().startswith("event"))
        rows = {}
        for line in lines[start:]:
            if not line.startswith("     "):
                break
            rows[line.split()[0]] = line
        return rows

    def test_columns_are_the_indices_and_the_other_index(self):
        head = self.map_rows()["event"].split()
        self.assertEqual(head, ["event", "name", "0", "1", "2", "3", "other", "index", "EN",
                                "clear", "GLOBAL_CTRL", "clear"])

    def test_cells_are_mean_ratios_in_percent(self):
        rows = self.map_rows()
        # r81d0:u on index 3: 2.4% then 2.6% over the two repetitions.
        self.assertRegex(rows["r81d0:u"], r"MEM_UOPS_RETIRED.ALL_LOADS +2.40% +2.40% +2.40% "
                         r"+2.50% +0.00% ")
        self.assertRegex(rows["r08d1:u"], r"45.00% +45.00% +45.00% +45.00% +0.00% ")
        # A control: no point with the sibling's counter disabled (test_survey_states).
        self.assertRegex(rows["r00c5:u"], r"0.00% +0.00% +n/a +0.00% +0.00% +- +-$")
        self.assertIn("r81d0:u *", self.s)      # corrupting
        self.assertNotIn("r00c5:u *", self.s)

    def test_the_kernels_verdict(self):
        self.assertIn("verdict XSU off: PASS  leaks only into the counter of the same index",
                      self.s)


class PoliciesAndCustomRuns(unittest.TestCase):
    def setUp(self):
        self.text = extended()

    def test_policies_name_the_columns_in_log_order(self):
        t = table(self.text, "xsu-fairness", 0)
        self.assertEqual(labels(t[None]), ["on-greedy", "on-hk", "on-limit", "core"])
        self.assertEqual(t["r08d1:u"], ["1,000,000 [ 50.00%]", "1,000,000 [100.00%]",
                                        "1,000,000 [ 50.00%]", "1,000,000 [ 80.00%]"])

    def test_mean_and_minimum_running_per_policy(self):
        s = section(self.text, "xsu-fairness")
        self.assertIn("running on-greedy:     HT0 mean 62.50% min 50.00%, HT1 mean 100.00% "
                      "min 100.00%", s)
        self.assertIn("running core:          HT0 mean 90.00% min 80.00%", s)

    def test_a_command_line_run_is_a_table_per_thread_and_its_verdicts(self):
        s = section(self.text, "custom")
        self.assertIn("== custom: Events from the command line", s)
        self.assertIn("rule:          measured", s)
        self.assertEqual(table(self.text, "custom", 1)["r20cc:u"],
                         ["130,000,000 [100.00%]", "0 [100.00%]", "0 [100.00%]"])
        self.assertEqual(re.findall(r"verdict (XSU \w+): +PASS  measured", s),
                         ["XSU off", "XSU on", "XSU core"])


class NothingKnowsAnExperimentByName(unittest.TestCase):
    def test_a_renamed_experiment_reads_the_same(self):
        log = logfixture.suite()
        text = pmu_text.render_text(build(log))
        log.substitute('"xsu-hk-vs-greedy"', '"sched-compare"')
        other = pmu_text.render_text(build(log))
        def body(text, name):  # the section up to the summary (whose widths follow the names)
            return section(text, name).split("\nSummary")[0].replace(name, "X")
        self.assertEqual(body(other, "sched-compare"), body(text, "xsu-hk-vs-greedy"))
        self.assertIn("running XSU on greedy:", body(other, "sched-compare"))

    def test_corrupting_is_the_count_records_word(self):
        # r81d0:u is a corrupting code, but the record says it is not: it is judged.
        log = logfixture.Log()
        logfixture.boot_and_pmu(log)
        logfixture.run_start(log, "x", "off", [["r81d0:u"], []])
        logfixture.count(log, "x", "off", 0, "r81d0:u", 500, baseline=0, corrupting=False)
        logfixture.run_end(log, "x", "off", 0)
        log.record("verdict", exp="x", xsu="off", sched="greedy", result="pass", reason="-")
        log.end()
        cell = build(log).experiments["x"].runs[("measure", "off", "greedy", None)].cell(
            0, "r81d0:u")
        self.assertTrue(cell.corrupted)


class Files(TempDirCase):
    @classmethod
    def setUpClass(cls):
        cls.report = build(logfixture.extended_suite())

    def read_csv(self, name):
        paths = pmu_export.write_csv_files(self.report, self.tmp)
        self.assertEqual([os.path.basename(p) for p in paths],
                         ["counts.csv", "verdicts.csv", "survey.csv"])
        with open(os.path.join(self.tmp, name), newline="") as f:
            return list(csv.DictReader(f))

    def test_counts_csv_carries_rep_leak_true_interfered(self):
        rows = self.read_csv("counts.csv")
        row = [r for r in rows if (r["xsu"], r["rep"], r["thread"], r["event"]) ==
               ("core", "2", "0", "r08d1:u")][0]
        self.assertEqual((row["leak"], row["true"], row["interfered"], row["scaled"]),
                         ("135000000", "306000000", "false", "304980000"))
        self.assertEqual(row["true_deviation_pct"], "-0.3333")
        self.assertEqual(sum(r["interfered"] == "true" for r in rows), 1)
        policies = {r["policy"] for r in rows if r["exp"] == "xsu-fairness"}
        self.assertEqual(policies, {"on-greedy", "on-hk", "on-limit", "core"})

    def test_survey_csv(self):
        rows = self.read_csv("survey.csv")
        # 3 events x 4 indices x 2 sibling counters, and the 2 corrupting events x 4 indices x
        # 2 disabled states, in 2 repetitions.
        self.assertEqual(len(rows), 2 * (3 * 4 * 2 + 2 * 4 * 2))
        self.assertEqual({r["sibling_state"] for r in rows}, {"zero_event", "en_clear",
                                                              "global_clear"})
        self.assertEqual(list(rows[0]), pmu_export.SURVEY_COLUMNS)
        zero = [r for r in rows if r["event"] == "r00c5:u" and r["index"] == "2"]
        self.assertEqual({r["ratio"] for r in zero}, {""})

    def test_report_json_cells_and_leak_map(self):
        j = json.loads(json.dumps(pmu_export.report_json(self.report)))
        ch7 = j["experiments"][0]
        off = ch7["runs"][0]
        self.assertEqual((off["label"], off["repeat"]), ("XSU off", 3))
        cell = [c for c in off["cells"] if (c["thread"], c["event"]) == (0, "r81d0:u")][0]
        self.assertEqual((cell["reps"], cell["mean"], cell["interfered"]),
                         (3, 5_656_000_000, True))
        self.assertAlmostEqual(cell["rsd_pct"], 0.5717, places=3)
        survey = j["experiments"][1]["leak_maps"][0]
        self.assertEqual(survey["columns"], ["0", "1", "2", "3", "other"])
        self.assertEqual(survey["rows"][2]["cells"]["2"], "n/a")
        self.assertEqual(j["rdpmc"][0]["emulated"], True)


if __name__ == "__main__":
    unittest.main()
