"""What a run cost, from exp_end (issue 16): the tick handler's share of the run from its total
cycles (tick_tsc_total) and, only in a log without them, from ticks times its mean; the PMU
register writes and reads per tick; the SMIs; under core-wide XSU the handovers and the IPIs
sent again. Every expected figure is worked out here from the records' numbers, not read back
from the report."""

import json
import unittest

from reporttest import build
import logfixture
import pmu_export
import pmu_model
import pmu_records
import pmu_schema
import pmu_text

E = "cost"
HZ = logfixture.TSC_HZ
# A core-wide run: thread 0's timer fires 1000 times, but only 500 of them hand a new joint
# schedule over (`ticks`, one per handover); the other 500 are raised ticks that only wait. The
# handler's mean is over all 1000 calls: 4000 TSC cycles on HT0, 2000 on HT1.
CORE = dict(elapsed_ns=800_000_000, ticks=[500, 500], tick_tsc_mean=[4000, 2000],
            tick_tsc_total=[1000 * 4000, 1000 * 2000])


def log_of(*runs, pmu_extra=None):
    """A log of one experiment with a run per (xsu, [exp_end keys per repetition]): one count
    per thread, the exp_end keys given (replacing logfixture.run_end's), a verdict per mode."""
    log = logfixture.Log()
    logfixture.boot_and_pmu(log, warn=False, pmu_extra=pmu_extra)
    for xsu, reps in runs:
        for rep, keys in enumerate(reps):
            logfixture.run_start(log, E, xsu, [["r00c4:u"], ["r00c5:u"]], rep=rep,
                                 repeat=len(reps))
            logfixture.count(log, E, xsu, 0, "r00c4:u", 1_000_000, rep=rep)
            logfixture.count(log, E, xsu, 1, "r00c5:u", 2_000, rep=rep)
            logfixture.run_end(log, E, xsu, 0, rep=rep, **keys)
        log.verdict(E, xsu, "pass", "measured")
    log.end()
    return log


def run_of(report, xsu):
    return report.experiments[E].runs[("measure", xsu, "greedy", None)]


def line(text, label):
    """The line under the tables that starts with a label ("tick handler:")."""
    found = [x for x in text.splitlines() if x.strip().startswith(label)]
    return found[0] if found else None


class TickOverhead(unittest.TestCase):
    def test_the_total_is_used_where_it_is_there(self):
        report = build(log_of(("core", [CORE])))
        elapsed = 0.8 * HZ
        share, how = run_of(report, "core").tick_overhead_from(0, HZ)
        self.assertAlmostEqual(share, 4_000_000 / elapsed)          # 0.20%
        self.assertEqual(how, pmu_model.TICK_TOTAL)
        self.assertAlmostEqual(run_of(report, "core").tick_overhead(1, HZ), 2_000_000 / elapsed)
        text = pmu_text.render_text(report)
        self.assertEqual(line(text, "tick handler:"),
                         "   tick handler:          XSU core HT0 0.20% HT1 0.10%, longest 4,000 "
                         "TSC ticks, no tick late or lost (share: tick_tsc_total over the run)")

    def test_the_old_formula_only_without_the_total_and_said_so(self):
        keys = {k: v for k, v in CORE.items() if k != "tick_tsc_total"}
        report = build(log_of(("core", [keys])))
        share, how = run_of(report, "core").tick_overhead_from(0, HZ)
        # ticks x mean: 500 x 4000 over 0.8 s, half of the handler's real time.
        self.assertAlmostEqual(share, 500 * 4000 / (0.8 * HZ))
        self.assertEqual(how, pmu_model.TICK_MEAN)
        self.assertIn("XSU core HT0 0.10% HT1 0.05%, longest 4,000 TSC ticks, no tick late or "
                      "lost (share: ticks x tick_tsc_mean over the run: no tick_tsc_total in "
                      "this log; under XSU core that is about half the handler's time",
                      pmu_text.render_text(report))

    def test_repetitions_add_their_totals_and_their_lengths(self):
        second = dict(CORE, elapsed_ns=1_200_000_000, tick_tsc_total=[9_000_000, 1_000_000])
        run = run_of(build(log_of(("core", [CORE, second]))), "core")
        self.assertAlmostEqual(run.tick_overhead(0, HZ), (4_000_000 + 9_000_000) / (2.0 * HZ))
        self.assertAlmostEqual(run.tick_overhead(1, HZ), (2_000_000 + 1_000_000) / (2.0 * HZ))

    def test_a_repetition_without_the_total_makes_its_run_use_the_old_formula_marked(self):
        old = {k: v for k, v in CORE.items() if k != "tick_tsc_total"}
        report = build(log_of(("on", [CORE]), ("core", [CORE, old])))
        found = run_of(report, "core").tick_overhead_from(0, HZ)
        self.assertEqual(found[1], pmu_model.TICK_MEAN)
        self.assertAlmostEqual(found[0], 2 * 500 * 4000 / (1.6 * HZ))
        tick = line(pmu_text.render_text(report), "tick handler:")
        self.assertIn("XSU on HT0 0.20% HT1 0.10%,", tick)
        self.assertIn("XSU core HT0 0.10%* HT1 0.05%*,", tick)
        self.assertTrue(tick.endswith("(share: tick_tsc_total over the run; *: ticks x "
                                      "tick_tsc_mean, where a repetition has no "
                                      "tick_tsc_total)"), tick)

    def test_report_json_says_which_was_used(self):
        report = build(log_of(("core", [CORE]), ("on", [{k: v for k, v in CORE.items()
                                                          if k != "tick_tsc_total"}])))
        runs = {r["xsu"]: r for r in json.loads(json.dumps(
            pmu_export.report_json(report)))["experiments"][0]["runs"]}
        self.assertAlmostEqual(runs["core"]["tick_overhead"]["0"], 4_000_000 / (0.8 * HZ))
        self.assertEqual(runs["core"]["tick_overhead_from"], {"0": "tick_tsc_total",
                                                             "1": "tick_tsc_total"})
        self.assertEqual(runs["on"]["tick_overhead_from"]["0"], "ticks x tick_tsc_mean")


class RegisterAccessesPerTick(unittest.TestCase):
    # Two repetitions of different lengths: 100 and 300 ticks on HT0, 0 and 50 on HT1.
    REPS = [dict(ticks=[100, 0], msr_writes_per_tick=[2.0, 0.0], msr_reads_per_tick=[6.0, 0.0]),
            dict(ticks=[300, 50], msr_writes_per_tick=[4.0, 1.5],
                 msr_reads_per_tick=[8.0, 3.0])]

    def setUp(self):
        self.report = build(log_of(("on", self.REPS), ("off", [dict(
            msr_writes_per_tick=[0.0, 0.0], msr_reads_per_tick=[4.0, 4.0])])))

    def test_the_accesses_of_every_repetition_over_all_their_ticks(self):
        run = run_of(self.report, "on")
        self.assertAlmostEqual(run.per_tick("msr_writes_per_tick", 0), (200 + 1200) / 400)
        self.assertAlmostEqual(run.per_tick("msr_reads_per_tick", 0), (600 + 2400) / 400)
        # HT1 had no tick in the first repetition: its figure is the second's.
        self.assertAlmostEqual(run.per_tick("msr_writes_per_tick", 1), 1.5)
        self.assertIsNone(run.per_tick("msr_writes_per_tick", 2))

    def test_the_text_has_a_line_per_experiment(self):
        self.assertEqual(line(pmu_text.render_text(self.report), "writes/reads per tick:"),
                         "   writes/reads per tick: XSU off HT0 0.00/4.00 HT1 0.00/4.00; XSU on "
                         "HT0 3.50/7.50 HT1 1.50/3.00 (PMU registers: WRMSR / RDMSR and RDPMC)")

    def test_report_json(self):
        runs = {r["xsu"]: r for r in pmu_export.report_json(self.report)["experiments"][0]["runs"]}
        self.assertEqual(runs["off"]["msr_reads_per_tick"], {"0": 4.0, "1": 4.0})
        self.assertAlmostEqual(runs["on"]["msr_writes_per_tick"]["0"], 3.5)

    def test_figures_near_a_doubles_limit_stay_finite(self):
        huge = dict(ticks=[2 ** 63, 1], msr_writes_per_tick=[1e308, 1e308],
                    msr_reads_per_tick=[1.7e308, 0.0])
        report = build(log_of(("on", [huge, huge])))
        self.assertEqual(run_of(report, "on").per_tick("msr_reads_per_tick", 0), 1.7e308)
        json.dumps(pmu_export.report_json(report), allow_nan=False)  # no infinity

    def test_a_log_without_them_has_no_line(self):
        self.assertIsNone(line(pmu_text.render_text(build(logfixture.suite())),
                               "writes/reads per tick:"))


class SmisAndHandovers(unittest.TestCase):
    def setUp(self):
        self.report = build(log_of(
            ("off", [dict(smi_count=None)]), ("on", [dict(smi_count=0)]),
            ("core", [dict(smi_count=3, handovers=480, joint_retries=0, joint_unanswered=1,
                           joint_gap_pct=2.0, joint_send_failures=1),
                      dict(smi_count=None, handovers=500, joint_retries=2, joint_unanswered=0,
                           joint_gap_pct=3.0)])))
        self.text = pmu_text.render_text(self.report)

    def test_smis_only_where_there_were_some(self):
        self.assertEqual(line(self.text, "SMIs:"), "   SMIs:                  XSU core 3 "
                         "(MSR_SMI_COUNT: firmware held the CPU in SMM while it counted)")
        self.assertIsNone(line(pmu_text.render_text(build(log_of(("on", [dict(smi_count=0)])))),
                               "SMIs:"))

    def test_handovers_and_retries_of_core_runs(self):
        self.assertEqual(line(self.text, "joint schedules:"),
                         "   joint schedules:       XSU core 980 handovers, 2 IPIs sent again, "
                         "1 IPI left pending, 1 handover unanswered, 2.5% of the run stopped")

    def test_report_json_carries_them_always(self):
        runs = {r["xsu"]: r for r in pmu_export.report_json(self.report)["experiments"][0]["runs"]}
        self.assertEqual([runs[x]["smi_count"] for x in ("off", "on", "core")], [None, 0, 3])
        self.assertEqual((runs["core"]["handovers"], runs["core"]["joint_retries"],
                          runs["core"]["joint_unanswered"], runs["core"]["joint_gap_pct"]),
                         (980, 2, 1, 2.5))
        self.assertEqual(runs["core"]["joint_send_failures"], 1)
        self.assertEqual((runs["on"]["handovers"], runs["on"]["joint_retries"]), (None, None))

    def test_the_records_keep_the_contract(self):
        self.assertEqual(self.report.stream.problems, [])
        self.assertEqual(self.report.exit_code, pmu_model.EXIT_OK)


class TheContract(unittest.TestCase):
    def test_the_keys_and_their_values(self):
        end = pmu_schema.RECORDS["exp_end"]
        good = dict(tick_tsc_total=[5_000_000, 0], msr_writes_per_tick=[12.5, 0.0],
                    msr_reads_per_tick=[0, 3.25], smi_count=None, handovers=7, joint_retries=0)
        clean, problems, _ = end.check(good)
        self.assertEqual({k: clean[k] for k in good}, good)
        self.assertFalse([p for p in problems if "key " in p and "no key" not in p])
        for key, bad in (("tick_tsc_total", [1.5]), ("msr_writes_per_tick", [-1.0]),
                         ("msr_reads_per_tick", 2.0), ("smi_count", -1), ("handovers", "7"),
                         ("joint_retries", None)):
            _, problems, _ = end.check({key: bad})
            self.assertTrue([p for p in problems if p.startswith("key " + key)], key)

    def test_the_extended_suite_has_every_one(self):
        ends = [r.obj for r in pmu_records.parse(
            logfixture.extended_suite().render()).records if r.type == "exp_end"]
        for key in ("tick_tsc_total", "msr_writes_per_tick", "msr_reads_per_tick", "smi_count",
                    "handovers", "joint_retries"):
            self.assertTrue(any(key in e for e in ends), key)


class TheExtendedSuite(unittest.TestCase):
    def test_its_lines(self):
        text = pmu_text.render_text(build(logfixture.extended_suite()))
        s = text[text.index("== ch7-three-events"):text.index("== leak-survey")]
        # Core: 5,000,000 cycles in each of three runs of 1.0004 s: 0.1999%; off: 2,500,000.
        self.assertIn("XSU core HT0 0.20% HT1 0.21%, longest", line(s, "tick handler:"))
        self.assertIn("XSU off HT0 0.10% HT1 0.10%", line(s, "tick handler:"))
        self.assertIn("XSU core HT0 4.50/8.00 HT1 4.75/8.50", line(s, "writes/reads per tick:"))
        self.assertEqual(line(s, "joint schedules:"), "   joint schedules:       XSU core 3,000 "
                         "handovers, 3 IPIs sent again, 0 handovers unanswered, 1.5% of the run "
                         "stopped")
        self.assertIn("XSU core 2 (MSR_SMI_COUNT", line(s, "SMIs:"))


if __name__ == "__main__":
    unittest.main()
