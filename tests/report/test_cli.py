"""tools/pmu-report as a user runs it: arguments, files written, exit status."""

import csv
import json
import os
import subprocess

from reporttest import TOOL, TempDirCase
import logfixture
import pmu_export


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


class Files(TempDirCase):
    def test_csv_and_json_of_a_good_log(self):
        run = self.run_tool("--csv", "--json", self.write_log(logfixture.suite()))
        self.assertEqual(run.code, 0, run.stderr)
        self.assertEqual(sorted(os.listdir(run.out_dir)),
                         ["counts.csv", "report.json", "verdicts.csv"])

    def test_counts_csv_rows(self):
        log = logfixture.suite()
        run = self.run_tool("--csv", self.write_log(log))
        rows = read_csv(run.path("counts.csv"))
        self.assertEqual(list(rows[0]), pmu_export.COUNT_COLUMNS)
        count_seqs = [line.seq for line in log.lines if '{"type":"count"' in line.text]
        self.assertEqual(sorted(int(r["seq"]) for r in rows), count_seqs)  # each one, once
        corrupted = [r for r in rows if r["exp"] == "ch4-branch-misses" and r["xsu"] == "off"
                     and r["phase"] == "measure" and r["thread"] == "1"][0]
        self.assertEqual(
            {k: corrupted[k] for k in ("event", "raw", "enabled", "running", "scaled",
                                       "baseline", "tolerance", "corrupted", "corrupting")},
            {"event": "r00c5:u", "raw": "40960843", "enabled": "2500000000",
             "running": "2500000000", "scaled": "40960843", "baseline": "644",
             "tolerance": "200", "corrupted": "true", "corrupting": "false"})
        starved = [r for r in rows if r["exp"] == "ch8-starvation" and r["xsu"] == "on"
                   and r["event"] == "branches"][0]
        self.assertEqual((starved["not_counted"], starved["running_pct"], starved["scaled"]),
                         ("true", "0.0", ""))
        greedy = [r for r in rows if r["exp"] == "xsu-hk-vs-greedy" and r["sched"] == "greedy"
                  and r["event"] == "r08a3:u"][0]
        self.assertEqual(greedy["running_pct"], "50.0")

    def test_verdicts_csv_rows(self):
        run = self.run_tool("--csv", self.write_log(logfixture.suite()))
        rows = read_csv(run.path("verdicts.csv"))
        self.assertEqual([(r["exp"], r["xsu"], r["result"]) for r in rows], [
            ("ch4-branch-misses", "off", "pass"), ("ch4-branch-misses", "on", "pass"),
            ("ch7-three-events", "off", "pass"), ("ch7-three-events", "on", "pass"),
            ("ch8-starvation", "off", "pass"), ("ch8-starvation", "on", "pass"),
            ("xsu-hk-vs-greedy", "on", "pass")])
        self.assertEqual((rows[2]["exposure"], rows[2]["corrupted"], rows[2]["checked"]),
                         ("2000", "2", "2"))

    def test_report_json(self):
        run = self.run_tool("--json", self.write_log(logfixture.suite()))
        with open(run.path("report.json"), encoding="utf-8") as f:
            j = json.load(f)
        self.assertEqual(j["summary"]["exit"], 0)
        self.assertTrue(j["summary"]["passed"])
        self.assertEqual(j["pmu"]["erratum"], "HSD29")
        self.assertEqual(j["boot"]["threads"], [0, 1])
        self.assertEqual(j["plots"], [])
        self.assertEqual(os.listdir(run.out_dir), ["report.json"])

    def test_stdin(self):
        run = self.run_tool("--json", "-", stdin=logfixture.suite().render())
        self.assertEqual(run.code, 0, run.stderr)
        self.assertIn("Log -: 75 records", run.stdout)

    def test_default_writes_everything_and_says_so(self):
        # matplotlib hidden so that this test stays fast; test_plots draws the plots.
        run = self.run_tool(self.write_log(logfixture.suite()), env=self.no_matplotlib())
        self.assertEqual(sorted(os.listdir(run.out_dir)),
                         ["counts.csv", "report.json", "verdicts.csv"])
        self.assertIn("Wrote 3 files into", run.stdout)

    def test_missing_matplotlib_still_writes_csv_and_json(self):
        run = self.run_tool("--plots", "--csv", "--json", self.write_log(logfixture.suite()),
                            env=self.no_matplotlib())
        self.assertEqual(run.code, 0)
        self.assertIn("matplotlib is not installed", run.stderr)
        self.assertIn("python3-matplotlib", run.stderr)
        self.assertEqual(sorted(os.listdir(run.out_dir)),
                         ["counts.csv", "report.json", "verdicts.csv"])

    def no_matplotlib(self):
        """An environment in which `import matplotlib` fails, as on a machine without it."""
        fake = os.path.join(self.tmp, "no-matplotlib", "matplotlib")
        os.makedirs(fake)
        with open(os.path.join(fake, "__init__.py"), "w") as f:
            f.write("raise ImportError('matplotlib hidden by the test')\n")
        return {"PYTHONPATH": os.path.dirname(fake)}


class ExitAndText(TempDirCase):
    def test_good_log_exit_0_and_full_text(self):
        run = self.run_tool("--csv", self.write_log(logfixture.suite(), newline="\r\n",
                                                    ansi=True))
        self.assertEqual(run.code, 0)
        self.assertIn("complete and intact", run.stdout)
        self.assertIn("HT1 (APIC 1)", run.stdout)
        # The fixture's counts come from the model PMU: the verdict line says so.
        self.assertIn("Overall: PASS (model PMU: nothing measured). 7 verdicts", run.stdout)

    def test_quiet_prints_the_check_and_the_summary_only(self):
        run = self.run_tool("--quiet", "--csv", self.write_log(logfixture.suite()))
        self.assertEqual(run.code, 0)
        self.assertNotIn("HT1 (APIC 1)", run.stdout)
        self.assertNotIn("Wrote", run.stdout)
        self.assertIn("Summary", run.stdout)
        self.assertIn("ch7-three-events   pass    2/2       2,000      pass    0/2       0",
                      run.stdout)

    def test_failed_verdict_exit_1(self):
        log = logfixture.suite()
        seq = log.seq_of("verdict", exp="ch4-branch-misses", xsu="on")
        log.replace_line(seq, logfixture.record_text(seq, {
            "type": "verdict", "exp": "ch4-branch-misses", "xsu": "on", "sched": "greedy",
            "result": "fail", "reason": "exposure 3", "exposure": 3, "checked": 1,
            "corrupted": 0}))
        log.lines[-1] = logfixture.Line(logfixture.record_text(log.next_seq - 1, {
            "type": "end", "records": log.next_seq - 1, "verdict": "fail", "failures": 1,
            "reason": "an experiment's verdict failed"}), log.next_seq - 1)
        run = self.run_tool("--csv", self.write_log(log))
        self.assertEqual(run.code, 1)
        self.assertIn("- ch4-branch-misses XSU on failed: exposure 3", run.stdout)

    def test_garbled_log_exit_3_names_the_records(self):
        log = logfixture.suite()
        log.drop(33)
        log.break_json(40)
        log.cut(72, 50)
        run = self.run_tool("--csv", self.write_log(log, newline="\r\n"))
        self.assertEqual(run.code, 3)
        self.assertIn("records lost or rejected: @33, @40, @72 (3)", run.stdout)
        self.assertRegex(run.stdout, r"line +%d +@40 +bad JSON" % log.line_no(40))
        self.assertIn("no end record", run.stdout)

    def test_no_records_exit_4(self):
        path = os.path.join(self.tmp, "bios.log")
        with open(path, "w") as f:
            f.write("SeaBIOS (version 1.16.2)\nBooting from DVD/CD...\n")
        run = self.run_tool("--csv", path)
        self.assertEqual(run.code, 4)
        self.assertIn("no record found", run.stdout)

    def test_missing_log_exit_2(self):
        run = self.run_tool(os.path.join(self.tmp, "nope.log"))
        self.assertEqual(run.code, 2)
        self.assertIn("cannot read", run.stderr)

    def test_results_folder_that_is_a_file_exit_2(self):
        blocker = os.path.join(self.tmp, "blocker")
        with open(blocker, "w") as f:
            f.write("x")
        run = self.run_tool("--csv", self.write_log(logfixture.suite()), out=blocker)
        self.assertEqual(run.code, 2)
        self.assertIn("cannot write", run.stderr)
        self.assertIn("Overall: PASS (model PMU", run.stdout)  # the text came first

    def test_reader_gone_does_not_stop_the_files_or_change_the_status(self):
        # `pmu-report LOG | head`: the reader may close the pipe before the tool writes.
        read_end, write_end = os.pipe()
        os.close(read_end)
        try:
            proc = subprocess.run([TOOL, "--csv", "--out", os.path.join(self.tmp, "r"),
                                   self.write_log(logfixture.suite())], stdout=write_end,
                                  stderr=subprocess.PIPE, timeout=60)
        finally:
            os.close(write_end)
        self.assertEqual((proc.returncode, proc.stderr), (0, b""))
        self.assertTrue(os.path.isfile(os.path.join(self.tmp, "r", "counts.csv")))

    def test_bad_option_exit_2(self):
        run = self.run_tool("--frobnicate", self.write_log(logfixture.suite()))
        self.assertEqual(run.code, 2)
