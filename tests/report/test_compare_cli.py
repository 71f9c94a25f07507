"""pmu-report with several logs as a user runs it (tools/pmu_compare_cli.py): the sources (files,
`-` once, folders of photos of QR codes), the usage errors, the files and plots written,
comparison.json against its schema (docs/report.md, pmu_schema.COMPARISON), the exit status, and
the logs read by a pool of processes giving what one process gives."""

import csv
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from PIL import Image

from reporttest import REPO, Png, TempDirCase, matplotlib_available, run_tool
import contractdoc
import logfixture
import pmu_compare_cli
import pmu_compare_export
import pmu_compare
import pmu_model
import pmu_schema
import test_compare
import test_photos

FOUR = test_compare.FOUR


class Files(unittest.TestCase):
    """One run of the tool on the four models, every file written."""

    @classmethod
    def setUpClass(cls):
        cls.tmp_class = tempfile.mkdtemp(prefix="pmu-compare-files-")
        cls.tool = run_tool(cls.tmp_class, *[os.path.join(test_compare.COMPARE, n)
                                             for n in FOUR])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp_class, ignore_errors=True)

    def test_exit_status_and_files(self):
        run = self.tool
        self.assertEqual(run.code, 0, run.stdout[-3000:] + run.stderr)
        expected = ["comparison-excess.csv", "comparison-machines.csv",
                    "comparison-survey.csv", "comparison-verdicts.csv", "comparison.json"]
        if matplotlib_available():
            expected += ["comparison-ch4-lbr-inserts-excess.png",
                         "comparison-ch7-three-events-excess.png",
                         "comparison-leak-map-off.png"]
        self.assertEqual(sorted(os.listdir(run.out_dir)), sorted(expected))
        self.assertIn("Wrote %d files into" % len(expected), run.stdout)

    def test_comparison_json_keeps_its_schema(self):
        with open(self.tool.path("comparison.json")) as f:
            obj = json.load(f)
        self.assertEqual(pmu_schema.comparison_problems(obj), [])
        self.assertEqual(obj["summary"], {"machines": 4, "logs": 5, "compared": 5,
                                          "left_out": 0, "partial": False, "model": True,
                                          "exit": 0})
        haswell = [m for m in obj["machines"] if m["label"] == "haswell (model)"][0]
        self.assertEqual(haswell["logs"], [os.path.join(test_compare.COMPARE, n)
                                           for n in ("haswell.log", "haswell-2.log")])
        self.assertTrue(all(m["model"] for m in obj["machines"]))
        self.assertEqual(obj["findings"][0], "Every machine here is QEMU's model PMU: the "
                         "figures are the model's (docs/model.md), not measurements of the "
                         "CPUs named.")

    def test_a_schema_problem_is_found(self):
        with open(self.tool.path("comparison.json")) as f:
            obj = json.load(f)
        del obj["surveys"][0]["rows"][0]["cells"]["skylake (model)"]["spread"]
        obj["logs"][1]["use"] = "maybe"
        self.assertEqual(pmu_schema.comparison_problems(obj), [
            'comparison.logs[1]: key use: "maybe" is not one of whole, partial, left out, '
            'duplicate',
            "comparison.surveys[0].rows[0].cells.skylake (model): no key spread"])

    def test_the_document_and_the_schema_say_the_same(self):
        with open(os.path.join(REPO, "docs", "report.md"), encoding="utf-8") as f:
            self.assertEqual(contractdoc.differences(f.read(), pmu_schema.COMPARISON), [])

    def test_every_csv_names_model_machines(self):
        for name, columns in (("comparison-machines.csv", pmu_compare_export.MACHINE_COLUMNS),
                              ("comparison-verdicts.csv", pmu_compare_export.VERDICT_COLUMNS),
                              ("comparison-excess.csv", pmu_compare_export.EXCESS_COLUMNS),
                              ("comparison-survey.csv", pmu_compare_export.SURVEY_COLUMNS)):
            with open(self.tool.path(name), newline="", encoding="utf-8") as f:
                rows = list(csv.DictReader(f))
            self.assertEqual(list(rows[0]), columns, name)
            self.assertEqual({r["model"] for r in rows}, {"true"}, name)
            self.assertTrue(all(r["machine"].endswith("(model)") for r in rows), name)

    def test_survey_csv_cells(self):
        with open(self.tool.path("comparison-survey.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        skylake = [r for r in rows if r["machine"] == "skylake (model)" and r["event"] ==
                   "r81d0:u" and r["column"] in "0123"]
        self.assertEqual(len(skylake), 4)
        self.assertEqual({(r["value"], r["marked"], r["corrupting"]) for r in skylake},
                         {("0.0", "true", "false")})
        haswell = [r for r in rows if r["machine"] == "haswell (model)"
                   and r["event"] == "r81d0:u" and r["column"] == "1"][0]
        self.assertEqual((haswell["n"], haswell["corrupting"]), ("2", "true"))

    @unittest.skipUnless(matplotlib_available(), "python3-matplotlib is not installed")
    def test_plots(self):
        with open(self.tool.path("comparison.json")) as f:
            plots = json.load(f)["plots"]
        self.assertEqual([(p["kind"], p["exp"], p["panels"], p["bars"]) for p in plots], [
            ("leak_map", None, 4, 0), ("excess", "ch4-lbr-inserts", 1, 8),
            ("excess", "ch7-three-events", 1, 16)])
        for p in plots:
            png = Png(p["file"])
            self.assertGreater(png.width, 600)
        leak_map = Png(plots[0]["file"])
        self.assertGreater(leak_map.width, leak_map.height)  # four panels side by side


class Sources(TempDirCase):
    def data(self, name):
        return os.path.join(test_compare.COMPARE, name)

    def test_standard_input_once(self):
        with open(self.data("haswell.log"), encoding="utf-8") as f:
            text = f.read()
        run = self.run_tool("--json", "-", self.data("skylake-client.log"), stdin=text)
        self.assertEqual(run.code, 0, run.stderr)
        self.assertIn("Log standard input: ", run.stdout)
        run = self.run_tool("-", "-", stdin=text)
        self.assertEqual(run.code, 2)
        self.assertIn("- (standard input) may be given once", run.stderr)

    def test_a_source_that_cannot_be_read_is_found_first(self):
        run = self.run_tool(self.data("haswell.log"), os.path.join(self.tmp, "none.log"))
        self.assertEqual((run.code, run.stdout), (2, ""))
        self.assertIn("cannot read %s: no such file" % os.path.join(self.tmp, "none.log"),
                      run.stderr)
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty)
        run = self.run_tool(self.data("haswell.log"), empty)
        self.assertEqual(run.code, 2)
        self.assertIn("a folder without pictures", run.stderr)

    def test_options_for_one_log_or_several(self):
        two = [self.data("haswell.log"), self.data("skylake-client.log")]
        run = self.run_tool(*two, "--save-log", os.path.join(self.tmp, "x.log"))
        self.assertEqual(run.code, 2)
        self.assertIn("--save-log takes one log", run.stderr)
        run = self.run_tool("--partial", two[0])
        self.assertEqual(run.code, 2)
        self.assertIn("--partial is for a comparison", run.stderr)
        # Options may come between the logs.
        run = self.run_tool("--csv", two[0], "--quiet", two[1])
        self.assertEqual(run.code, 0, run.stderr)
        self.assertEqual(len(os.listdir(run.out_dir)), 4)
        self.assertNotIn("Log %s" % two[0], run.stdout)  # --quiet: a good log's check is not
        self.assertIn("Findings", run.stdout)

    def test_exit_status_is_the_worst_of_the_logs(self):
        log = logfixture.suite(verdict="fail")
        failing = self.write_log(log, "failing.log")
        noise = os.path.join(self.tmp, "noise.bin")
        with open(noise, "wb") as f:
            f.write(os.urandom(4096).replace(b"@", b"?"))
        run = self.run_tool("--json", self.data("haswell.log"), failing)
        self.assertEqual(run.code, pmu_model.EXIT_FAIL, run.stderr)
        run = self.run_tool("--json", self.data("haswell.log"), failing, noise)
        self.assertEqual(run.code, pmu_model.EXIT_NO_RECORDS)
        self.assertIn("left out %s: not a single record" % noise, run.stdout)

    def test_a_folder_of_photos_beside_a_serial_log(self):
        log = logfixture.suite()
        photos = os.path.join(self.tmp, "photos")
        os.makedirs(photos)
        for i, text in enumerate(test_photos.codes_of(log, per_code=8)):
            subprocess.run(["qrencode", "-l", "M", "-s", "4", "-o",
                            os.path.join(photos, "page-%02d.png" % i), text], check=True)
        run = self.run_tool("--json", photos, self.write_log(log))
        self.assertEqual(run.code, 0, run.stdout[-2000:] + run.stderr)
        self.assertIn("%s: Photos: %d pictures" % (photos, len(os.listdir(photos))),
                      run.stdout)
        with open(run.path("comparison.json")) as f:
            machines = json.load(f)["machines"]
        self.assertEqual([(m["label"], m["logs"]) for m in machines],
                         [("haswell (model)", [photos, os.path.join(self.tmp, "serial.log")])])
        # A phone's failed copies in the folder are named, and the comparison is still made.
        pages = len(os.listdir(photos))
        bad = test_photos.unreadable_files(photos)
        run = self.run_tool("--json", photos, self.write_log(log))
        self.assertEqual((run.code, run.stderr), (0, ""), run.stdout[-2000:])
        self.assertIn("%s: Photos: %d pictures" % (photos, pages), run.stdout)
        for name, why in bad.items():
            self.assertIn("  %s: %s; skipped\n" % (os.path.join(photos, name), why), run.stdout)
        with open(run.path("comparison.json")) as f:
            self.assertEqual(len(json.load(f)["machines"][0]["logs"]), 2)
        # A folder without a code of a run is left out as without a single record, not DAMAGED.
        blank = os.path.join(self.tmp, "blank")
        os.makedirs(blank)
        Image.new("L", (320, 200), 255).save(os.path.join(blank, "IMG_0001.png"))
        run = self.run_tool("--json", photos, blank)
        self.assertEqual(run.code, pmu_model.EXIT_NO_RECORDS, run.stdout[-2000:] + run.stderr)
        self.assertIn("  no pmu-testkernel QR code in the 1 picture read: no QR code at all in it;",
                      run.stdout)
        self.assertIn("\n  Overall: NO RECORDS (no pmu-testkernel QR code read). Exit status 4.\n"
                      "  comparison: left out: not a single record\n", run.stdout)
        self.assertNotIn("DAMAGED", run.stdout)


class Workers(TempDirCase):
    def test_a_pool_gives_what_one_process_gives(self):
        paths = [os.path.join(test_compare.COMPARE, n) for n in FOUR + [test_compare.OLD]]
        one, pool = [], []
        for found, bytes_ in ((one, 10 ** 12), (pool, 0)):
            saved = pmu_compare_cli.PARALLEL_BYTES
            pmu_compare_cli.PARALLEL_BYTES = bytes_
            try:
                self.assertEqual(pmu_compare_cli.workers(paths),
                                 1 if bytes_ else min(pmu_compare_cli.cpus(), len(paths)))
                c = pmu_compare.Comparison()
                for lines, entry in pmu_compare_cli.digests(paths, False):
                    c.add(entry)
                    found.append(lines)
                found.append(pmu_compare_export.comparison_json(c.finish()))
            finally:
                pmu_compare_cli.PARALLEL_BYTES = saved
        self.assertEqual(one, pool)


if __name__ == "__main__":
    unittest.main()
