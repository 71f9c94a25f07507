"""The PNG plots: written for every experiment, real images, the right axes and colours."""

import json
import os
import shutil
import tempfile
import unittest

from reporttest import Png, matplotlib_available, run_tool, write_log
import logfixture
import pmu_plots

EXPERIMENTS = ["ch4-branch-misses", "ch7-three-events", "ch8-starvation", "xsu-hk-vs-greedy"]
RED, GREEN, GREY = b"\xd6\x27\x28", b"\x2c\xa0\x2c", b"\x7f\x7f\x7f"  # pmu_plots' run colours


class LogScaleChoice(unittest.TestCase):
    def test_spans_of_orders_of_magnitude_get_a_log_axis(self):
        self.assertTrue(pmu_plots.wants_log_scale([644, 40_960_843, 781]))
        self.assertTrue(pmu_plots.wants_log_scale([0, 137_640_089]))  # LBR inserts at 0

    def test_similar_counts_stay_linear(self):
        self.assertFalse(pmu_plots.wants_log_scale([5_609_439_398, 304_559_413]))
        self.assertFalse(pmu_plots.wants_log_scale([0, 0, 5]))
        self.assertFalse(pmu_plots.wants_log_scale([]))


@unittest.skipUnless(matplotlib_available(), "python3-matplotlib is not installed "
                     "(tools/deps.sh installs it)")
class ToolPlots(unittest.TestCase):
    """The tool runs once on the class's LOG, without a display, for the whole class; each test
    only reads."""

    LOG = staticmethod(logfixture.suite)

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pmu-report-plots-")
        cls.tool = run_tool(cls.tmp, "--plots", "--json", write_log(cls.tmp, cls.LOG()))
        with open(cls.tool.path("report.json"), encoding="utf-8") as f:
            cls.plots = {(p["exp"], p["kind"]): p for p in json.load(f)["plots"]}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)


class Plots(ToolPlots):

    def test_tool_succeeded(self):
        self.assertEqual(self.tool.code, 0, self.tool.stderr)

    def test_two_plots_per_experiment_listed_in_report_json(self):
        self.assertEqual(sorted(self.plots), sorted((e, k) for e in EXPERIMENTS
                                                    for k in ("counts", "running")))
        for p in self.plots.values():
            self.assertTrue(os.path.isfile(p["file"]), p["file"])
            self.assertEqual(os.path.basename(p["file"]), "%s-%s.png" % (p["exp"], p["kind"]))

    def test_every_plot_is_a_valid_non_trivial_png(self):
        for p in self.plots.values():
            png = Png(p["file"])  # signature, chunk CRCs, IHDR, inflated size
            self.assertGreaterEqual((png.width, png.height), (600, 400), p["file"])
            # A blank canvas inflates to a handful of byte values; a chart to many.
            self.assertGreater(len(set(png.scanlines)), 64, p["file"])
            self.assertGreater(os.path.getsize(p["file"]), 10_000, p["file"])

    def test_bar_counts(self):
        # ch4: baseline has HT1 only, XSU off and on have both threads: 1 + 2 + 2 bars.
        self.assertEqual(self.plots[("ch4-branch-misses", "counts")]["bars"], 5)
        self.assertEqual(self.plots[("ch7-three-events", "running")]["bars"], 12)
        self.assertEqual(self.plots[("xsu-hk-vs-greedy", "running")]["bars"], 10)

    def test_axes(self):
        self.assertEqual(self.plots[("ch4-branch-misses", "counts")]["yscale"], "symlog")
        self.assertEqual(self.plots[("ch7-three-events", "counts")]["yscale"], "symlog")
        for exp in EXPERIMENTS:
            self.assertEqual(self.plots[(exp, "running")]["yscale"], "linear")

    def test_counts_plot_draws_baseline_xsu_off_and_on(self):
        colours = Png(self.plots[("ch4-branch-misses", "counts")]["file"]).pixels()
        for name, colour in (("baseline", GREY), ("XSU off", RED), ("XSU on", GREEN)):
            self.assertGreater(colours.count(colour), 300, name)

    def test_running_plot_draws_greedy_and_hk(self):
        colours = Png(self.plots[("xsu-hk-vs-greedy", "running")]["file"]).pixels()
        greedy, hk = colours.count(RED), colours.count(GREEN)
        self.assertGreater(greedy, 1000)
        # hk runs every event 100% of the time, greedy less: hk's bars cover more area.
        self.assertGreater(hk, greedy)


if __name__ == "__main__":
    unittest.main()


@unittest.skipUnless(matplotlib_available(), "python3-matplotlib is not installed "
                     "(tools/deps.sh installs it)")
class NewRecordPlots(ToolPlots):
    """The extended log: means over repetitions, XSU core, policies, and the survey's heat map."""

    LOG = staticmethod(logfixture.extended_suite)

    def test_every_plot_listed(self):
        self.assertEqual(self.tool.code, 0, self.tool.stderr)
        self.assertEqual(sorted(self.plots), sorted(
            [(e, k) for e in ("ch7-three-events", "xsu-fairness", "custom")
             for k in ("counts", "running")] + [("leak-survey", "heatmap")]))

    def test_the_leak_survey_heat_map(self):
        p = self.plots[("leak-survey", "heatmap")]
        self.assertEqual(os.path.basename(p["file"]), "leak-survey-heatmap.png")
        self.assertEqual(p["cells"], 15)  # 3 events, indices 0-3 and "other"
        png = Png(p["file"])
        self.assertGreaterEqual((png.width, png.height), (600, 300))
        # r08d1:u's 45% cells are the darkest red of the "Reds" map: deep red pixels exist.
        deep_red = [c for c in set(png.pixels()) if c[0] > 90 and c[1] < 40 and c[2] < 40]
        self.assertTrue(deep_red)

    def test_bars_of_three_modes_with_repetitions(self):
        # 2 threads x 3 events x 3 modes, each bar a mean over 3 repetitions.
        self.assertEqual(self.plots[("ch7-three-events", "counts")]["bars"], 18)
        self.assertEqual(self.plots[("xsu-fairness", "running")]["bars"], 12)
