"""pmu-report with several logs (issue 26, tools/pmu_compare*.py): machines, repetitions, the
experiments and the leak survey side by side, the findings, bad input named and left out, the
keys logs of different kernels lack, and the exit status.

The logs are the kernel's (tests/report/data/compare, QEMU boots of `exp=leak-survey,
ch4-lbr-inserts,ch7-three-events dur_ms=60` with -cpu SandyBridge, IvyBridge, Haswell twice and
Skylake-Client; haswell-kernel-5d3ed0c.log: the same command line on the kernel of commit 5d3ed0c,
before the leak survey, which ran exp=all instead); the model PMU's shares they must show are
docs/model.md's."""

import json
import os
import random
import unittest

from reporttest import DATA, TempDirCase
import reporttest
import logfixture
import pmu_compare
import pmu_compare_export
import pmu_compare_findings
import pmu_compare_survey
import pmu_compare_text
import pmu_model
import pmu_records
import pmu_schema
import pmu_survey

COMPARE = os.path.join(DATA, "compare")
FOUR = ["sandybridge.log", "ivybridge.log", "haswell.log", "haswell-2.log", "skylake-client.log"]
OLD = "haswell-kernel-5d3ed0c.log"
# The model's share of MEM_UOPS_RETIRED.ALL_LOADS (0x81d0) on SNB, IVB and HSW (docs/model.md).
ALL_LOADS_SHARE = 0.02395
HASWELL = "haswell (model)"
SKYLAKE = "skylake (model)"


def read(name):
    with open(os.path.join(COMPARE, name), encoding="utf-8", newline="") as f:
        return f.read()


def compare(logs, partial=False):
    """A finished Comparison of [(name, text)], read as the tool reads them."""
    c = pmu_compare.Comparison(partial=partial)
    for name, text in logs:
        report = pmu_model.build(pmu_records.parse(text), source=name)
        c.add(pmu_compare.LogEntry(name, text, report, partial))
    return c.finish()


def data(*names):
    return [(n, read(n)) for n in names]


changed = logfixture.changed


def cut(text):
    """The log cut in the middle, as a capture stopped there."""
    return text[:len(text) // 2]


class FourModels(unittest.TestCase):
    """The acceptance's call: four CPU models under QEMU, Haswell twice."""

    @classmethod
    def setUpClass(cls):
        cls.c = compare(data(*FOUR))
        cls.text = pmu_compare_text.render_comparison(cls.c)

    def test_four_machines_one_with_two_repetitions(self):
        c = self.c
        self.assertEqual([m.label for m in c.machines.values()], [
            "sandybridge (model)", "ivybridge (model)", HASWELL, SKYLAKE])
        self.assertEqual([e.source for e in c.machine(HASWELL).logs],
                         ["haswell.log", "haswell-2.log"])
        self.assertTrue(all(m.model for m in c.machines.values()))
        self.assertIn("haswell (model): 2 logs of the same CPU, microcode, kernel and run "
                      "settings, combined as repetitions\n", self.text)
        self.assertNotIn("command lines differ", self.text)
        table = self.text[self.text.index("Machines:"):self.text.index("== ")]
        rows = [line for line in table.splitlines() if ".log" in line and "model PMU" in line]
        self.assertEqual(len(rows), 5)  # a row per log, each saying where its counts came from

    def test_skylake_shows_no_leak(self):
        survey = self.c.surveys[0]
        tally = survey.tallies[SKYLAKE]
        figures = [tally.cell(ev, col) for ev in tally.info for col in survey.columns
                   if col not in pmu_compare_survey.DISABLED_STATES]
        figures = [f for f in figures if isinstance(f, pmu_compare_survey.Figure)]
        self.assertGreater(len(figures), 40)
        self.assertEqual({f.value for f in figures}, {0.0})
        for event in survey.events:
            if SKYLAKE not in survey.corrupting_on(event):
                for r in survey.rows_of(event):
                    if isinstance(r.column, int):
                        self.assertIn(SKYLAKE, r.marked, (event, r.column))  # the odd one out
        self.assertIn("Nothing leaks on skylake (model) (no erratum): no event at any index",
                      self.text)

    def test_the_models_share_on_each_part_with_the_erratum(self):
        survey = self.c.surveys[0]
        for m in ("sandybridge (model)", "ivybridge (model)", HASWELL):
            share = survey.tallies[m].leak_share("r81d0:u").value
            self.assertLess(abs(share - ALL_LOADS_SHARE), 0.35 * ALL_LOADS_SHARE, m)
        finding = [f for f in pmu_compare_findings.findings(self.c)
                   if f.startswith("r81d0:u")][0]
        self.assertRegex(finding, r"^r81d0:u \(MEM_UOPS_RETIRED.ALL_LOADS\) leaks 2\.\d\d% on "
                         r"sandybridge \(model\), [12]\.\d\d% on ivybridge \(model\), "
                         r"[12]\.\d\d% on haswell \(model\); no leak on skylake \(model\) "
                         r"\(no erratum\)\.$")

    def test_repetitions_are_pooled_with_perfs_spread(self):
        cells = []
        for name in ("haswell.log", "haswell-2.log"):
            report = pmu_model.build(pmu_records.parse(read(name)))
            leak_map = pmu_survey.leak_maps(report.experiments["leak-survey"].survey)[0]
            cells.append(leak_map.cell("r81d0:u", 2))
        row = [r for r in self.c.surveys[0].rows_of("r81d0:u") if r.column == 2][0]
        figure = row.cells[HASWELL]
        self.assertEqual(figure.n, 2)
        self.assertAlmostEqual(figure.value, sum(cells) / 2)
        self.assertAlmostEqual(figure.rsd_pct, pmu_model.perf_rsd_pct(cells))
        self.assertIsNone(row.cells[SKYLAKE].rsd_pct)  # one log: no spread to show

    def test_experiments_side_by_side(self):
        by_name = {e.name: e for e in self.c.experiments}
        self.assertEqual(list(by_name), ["ch4-lbr-inserts", "ch7-three-events", "leak-survey"])
        lbr = by_name["ch4-lbr-inserts"]
        self.assertEqual([label for _, label in lbr.runs], ["XSU off", "XSU on"])
        off, on = [k for k, _ in lbr.runs]
        verdict = lbr.verdict(SKYLAKE, ("off", "greedy", None))
        self.assertEqual((verdict.result, list(verdict.skips)), ("skip", ["no_erratum"]))
        self.assertEqual(lbr.verdict(HASWELL, ("on", "greedy", None)).logs, 2)
        for m in lbr.machines:
            x_off, x_on = (lbr.excess(m, k, 1, "r20cc:u") for k in (off, on))
            self.assertEqual((x_on.mean, x_on.corrupted), (0, 0), m)
            if m == SKYLAKE:
                self.assertEqual((x_off.mean, x_off.corrupted), (0, 0))
            else:
                self.assertGreater(x_off.mean, 1000, m)
                self.assertEqual(x_off.corrupted, len(x_off.values), m)
        self.assertEqual(len(lbr.excess(HASWELL, off, 1, "r20cc:u").values), 2)
        self.assertIn("ch4-lbr-inserts: XSU on removes it on all 3.", self.text)
        self.assertIn("ch7-three-events: XSU off corrupts HT0 r20cc:u and HT1 r20cc:u on "
                      "sandybridge (model), ivybridge (model) and haswell (model); not on "
                      "skylake (model).", self.text)

    def test_the_text_has_every_part(self):
        for heading in ("Machines: 4 machines of 5 logs (a row per log)",
                        "== ch4-lbr-inserts:", "verdicts", "excess over baseline",
                        "Leak survey, XSU off, on 4 machines", "Findings",
                        "Every machine here is QEMU's model PMU",
                        "Comparison: 4 machines from 5 logs compared. Exit status 0."):
            self.assertIn(heading, self.text)
        self.assertEqual(self.c.exit_code, pmu_model.EXIT_OK)


def relabelled(name, stepping=99):
    """A log of the same machine under another stepping: compared as a machine of its own,
    not combined with the log as a repetition."""
    return ("relabelled-" + name, changed(read(name), "boot",
                                         lambda o: o["cpu"].update(stepping=stepping)))


def marked(c):
    """[(event, column, marked machines)] of the comparison's first survey."""
    return [(r.event, r.column, sorted(r.marked)) for r in c.surveys[0].rows if r.marked]


class SameMachineNoMarks(unittest.TestCase):
    """Logs of one machine compared as two show no mark (docs/comparing.md#uncertainty-and-
    marks); a real difference is marked."""

    def test_a_log_beside_itself(self):
        for name in FOUR:
            c = compare(data(name) + [relabelled(name)])
            self.assertEqual(len(c.machines), 2, name)
            self.assertEqual(marked(c), [], name)

    def test_two_boots_of_haswell(self):
        c = compare(data("haswell.log") + [relabelled("haswell-2.log")])
        self.assertEqual(len(c.machines), 2)
        self.assertEqual(marked(c), [])
        self.assertIn("No cell of the leak survey differs between machines by more than 3 times "
                      "their combined standard uncertainty.", pmu_compare_findings.findings(c))

    def test_sandy_bridges_l2_hit_share_beside_haswells(self):
        """r02d1 leaks about 44% on Sandy Bridge, 2.4% on Haswell (docs/leak-survey.md): marked
        at every index; ALL_LOADS, 2.4% on both, nowhere."""
        c = compare(data("sandybridge.log", "haswell.log"))
        both = ["haswell (model)", "sandybridge (model)"]
        found = marked(c)
        self.assertEqual([(col, m) for ev, col, m in found if ev == "r02d1:u"],
                         [(i, both) for i in range(4)])
        self.assertEqual([f for f in found if f[0] == "r81d0:u"], [])


class KeptAboveAll(unittest.TestCase):
    """EN clear and GLOBAL_CTRL clear shares above 100% are unreliable, named so in the text and
    the files, and never marked."""

    @classmethod
    def setUpClass(cls):
        cls.c = compare(data(*FOUR))
        cls.above = [(r, m, f) for r in cls.c.surveys[0].rows
                     if r.column in pmu_compare_survey.DISABLED_STATES
                     for m, f in r.cells.items()
                     if isinstance(f, pmu_compare_survey.Figure) and f.value > 1]

    def test_they_are_unreliable_and_unmarked(self):
        self.assertGreaterEqual(len(self.above), 4)  # ivybridge's 1125% among them
        for r, m, f in self.above:
            self.assertRegex(f.unreliable, r"is above 100%: HT0 cannot keep more", (r.event, m))
            self.assertNotIn(m, r.marked)

    def test_the_text_and_the_files_name_them(self):
        text = pmu_compare_text.render_comparison(self.c)
        survey = text[text.index("Leak survey"):text.index("Findings")]
        for r, m, f in self.above:
            self.assertEqual(pmu_compare_text.survey_cell(f, m in r.marked), "unreliable")
        self.assertNotRegex(survey, r"\d{3,}\.\d\d%")  # no share of 100% or more is shown
        self.assertIn("unreliable", survey)
        r, m, _ = self.above[0]
        obj = json.loads(json.dumps(pmu_compare_export.comparison_json(self.c)))
        self.assertEqual(pmu_schema.comparison_problems(obj), [])
        row = [x for x in obj["surveys"][0]["rows"]
               if x["event"] == r.event and x["column"] == r.column][0]
        self.assertIn("above 100%", row["cells"][m]["unreliable"])
        rows = pmu_compare_export.survey_rows(self.c.surveys[0],
                                              {m: True for m in self.c.surveys[0].machines})
        csv_row = [x for x in rows if x["event"] == r.event and x["column"] == r.column and
                   x["machine"] == m][0]
        self.assertIn("above 100%", csv_row["unreliable"])
        self.assertFalse(csv_row["marked"])


class BadInput(unittest.TestCase):
    def test_the_acceptance_call_with_a_cut_log_and_an_older_kernel(self):
        c = compare(data(*FOUR) + [("cut.log", cut(read("ivybridge.log")))] + data(OLD))
        uses = {e.source: (e.use, e.reason) for e in c.logs}
        self.assertEqual(uses["cut.log"], (pmu_compare.LEFT_OUT,
                                           "damaged (--partial keeps its intact runs)"))
        self.assertEqual(uses[OLD], (pmu_compare.WHOLE, None))
        self.assertEqual(len(c.machines), 5)
        self.assertEqual(c.machine("haswell kernel 5d3ed0c dur_ms=60 (model)").first.source, OLD)
        self.assertEqual(len(c.machine("ivybridge (model)").logs), 1)
        self.assertEqual(c.surveys[0].machines, ["sandybridge (model)", "ivybridge (model)",
                                                 "haswell kernel c4233ee dur_ms=100 (model)", SKYLAKE])
        text = pmu_compare_text.render_comparison(c)
        self.assertIn("left out cut.log: damaged (--partial keeps its intact runs)", text)
        self.assertIn("not surveyed (no survey records of XSU off): haswell kernel 5d3ed0c "
                      "dur_ms=60 (model)", text)
        self.assertIn("command lines differ in keys that change the figures: dur_ms 100 ("
                      "sandybridge.log, ivybridge.log, haswell.log, haswell-2.log, "
                      "skylake-client.log), 60 (%s)" % OLD, text)
        self.assertRegex(text, r"not in %s: boot\.microcode, .*exp_end\.ticks_lost, survey "
                         r"records" % OLD)
        self.assertEqual(c.exit_code, pmu_model.EXIT_DAMAGED)  # the worst of the logs' own

    def test_an_older_kernel_is_compared_on_the_keys_both_carry(self):
        c = compare(data("haswell.log", OLD))
        found = {(t, k): lacking for t, k, lacking in c.differences}
        self.assertEqual(found[("survey", None)], [OLD])
        self.assertEqual(found[("exp_end", "ticks_late")], [OLD])
        self.assertEqual(found[("count", "interfered")], [OLD])
        self.assertNotIn(("count", "leak"), found)  # optional: a run's, not a kernel's
        self.assertEqual(c.surveys, [])  # a survey on one machine compares nothing
        self.assertEqual(c.exit_code, pmu_model.EXIT_CONTRACT)
        lbr = [e for e in c.experiments if e.name == "ch4-lbr-inserts"][0]
        self.assertEqual(len(lbr.machines), 2)

    def test_partial_keeps_the_intact_runs_of_a_cut_log(self):
        whole = compare(data("sandybridge.log", "ivybridge.log"))
        part = compare(data("sandybridge.log") + [("cut.log", cut(read("ivybridge.log")))],
                       partial=True)
        entry = part.logs[1]
        self.assertEqual(entry.use, pmu_compare.PARTIAL)
        ivy_whole = whole.machine("ivybridge (model)").experiments
        ivy_part = part.machine("ivybridge (model)").experiments
        for name in ("ch4-lbr-inserts", "ch7-three-events"):
            self.assertEqual({k: x.values for k, x in ivy_part[name].excess.items()},
                             {k: x.values for k, x in ivy_whole[name].excess.items()}, name)
        # The survey stops in the middle of its repetition: none of it is intact.
        self.assertEqual(part.machine("ivybridge (model)").surveys, {})
        self.assertEqual(part.exit_code, pmu_model.EXIT_DAMAGED)
        self.assertIn("(cut.log: only the intact runs)",
                      pmu_compare_text.render_comparison(part))

    def test_intact_runs_are_closed_and_whole(self):
        log = logfixture.suite()
        log.drop(log.seq_of("exp_end", exp="ch7-three-events", xsu="on"))
        kept = pmu_compare.intact_seqs(pmu_records.parse(log.render()))
        on = [line.seq for line in log.lines if line.seq is not None and
              '"exp":"ch7-three-events"' in line.text and '"xsu":"on"' in line.text and
              '"type":"count"' in line.text]
        off = [line.seq for line in log.lines if line.seq is not None and
               '"exp":"ch7-three-events"' in line.text and '"xsu":"off"' in line.text and
               '"type":"count"' in line.text]
        self.assertTrue(set(off) <= kept)
        self.assertFalse(set(on) & kept)

    def test_not_a_log_a_log_twice_and_no_boot_record(self):
        no_boot = "\n".join(line for line in read("skylake-client.log").split("\n")
                            if not line.startswith("@0 "))
        c = compare(data("haswell.log", "haswell.log") + [
            ("noise.bin", "\x00\x17 random bytes"), ("noboot.log", no_boot)], partial=True)
        self.assertEqual([(e.use, e.reason) for e in c.logs[1:]], [
            (pmu_compare.DUPLICATE, "the same log as haswell.log"),
            (pmu_compare.LEFT_OUT, "not a single record"),
            (pmu_compare.LEFT_OUT, "no boot record: which machine it is is unknown")])
        self.assertEqual(len(c.machine(HASWELL).logs), 1)  # never counted twice
        self.assertEqual(c.exit_code, pmu_model.EXIT_NO_RECORDS)


class ModelBesideReal(unittest.TestCase):
    def test_a_model_log_is_never_one_machine_with_a_real_one(self):
        real = changed(read("haswell.log"), "pmu", lambda o: o.update(backend="hw"))
        c = compare([("real.log", real)] + data("haswell.log", "skylake-client.log"))
        self.assertEqual([m.label for m in c.machines.values()],
                         ["haswell", HASWELL, SKYLAKE])
        self.assertEqual(c.surveys[0].rows_of("r81d0:u")[0].cells[HASWELL].n, 1)
        self.assertIn("2 of 3 machines are the model PMU (haswell (model) and skylake "
                      "(model)): their figures are the model's, shown beside the measured ones "
                      "and never averaged with them.", pmu_compare_findings.findings(c))

    def test_labels_tell_machines_of_one_part_apart(self):
        other = changed(read("haswell-2.log"), "boot",
                        lambda o: o["cpu"].update(stepping=5))
        c = compare(data("haswell.log") + [("other.log", other)])
        self.assertEqual([m.label for m in c.machines.values()],
                         ["haswell stepping 4 (model)", "haswell stepping 5 (model)"])


class Marks(unittest.TestCase):
    def figure(self, value, spread):
        return pmu_compare_survey.Figure([value], spread)

    def test_the_odd_one_out(self):
        f = self.figure
        figures = {"a": f(0.024, 0.001), "b": f(0.025, 0.001), "c": f(0.0235, 0.0), "d": f(0, 0)}
        self.assertEqual(pmu_compare_survey.marks(figures), {"d"})

    def test_within_the_uncertainties_nothing_is_marked(self):
        figures = {"a": self.figure(0.020, 0.003), "b": self.figure(0.025, 0.003)}
        self.assertEqual(pmu_compare_survey.marks(figures), set())

    def test_within_the_floor_nothing_is_marked(self):
        """Two shares 25% apart with no scatter: within 3 x sqrt(2) x 15% of the share."""
        figures = {"a": self.figure(0.020, 0.0), "b": self.figure(0.025, 0.0)}
        self.assertEqual(pmu_compare_survey.marks(figures), set())

    def test_two_that_differ_are_both_marked(self):
        figures = {"a": self.figure(0.010, 0.001), "b": self.figure(0.025, 0.001)}
        self.assertEqual(pmu_compare_survey.marks(figures), {"a", "b"})
        figures["c"] = self.figure(0.45, 0.01)
        self.assertEqual(pmu_compare_survey.marks(figures), {"a", "b", "c"})

    def test_spread_is_the_events_measurements_of_the_kind(self):
        tally = pmu_compare_survey.SurveyTally()
        log = logfixture.Log()
        logfixture.boot_and_pmu(log)
        logfixture.exp_survey(log, reps=2)
        log.end()
        for p in pmu_model.build(pmu_records.parse(log.render())).experiments[
                "leak-survey"].survey:
            tally.add(p)
        # r81d0:u: 0.024 at every index and repetition but index 3's second, 0.026.
        values = [0.024] * 7 + [0.026]
        cell = tally.cell("r81d0:u", 3)
        self.assertEqual((cell.value, cell.n), (0.025, 2))
        self.assertAlmostEqual(cell.spread, pmu_compare_survey.stdev(values))
        self.assertAlmostEqual(tally.cell("r81d0:u", 0).spread, cell.spread)
        self.assertEqual(tally.cell("r00c5:u", 2), pmu_compare_survey.NA)


class Robustness(unittest.TestCase):
    def test_logs_of_runs_that_stopped_early(self):
        names = ["kernel-no-long-mode.log", "kernel-no-local-apic.log",
                 "kernel-core-skylake.log", "sample-damaged.log"]
        logs = []
        for name in names:
            with open(os.path.join(DATA, name), encoding="utf-8", newline="") as f:
                logs.append((name, f.read()))
        c = compare(logs)
        self.assertEqual([m.label for m in c.machines.values()],
                         ["unknown CPU", "family 15 model 0x6b", SKYLAKE])
        self.assertEqual(c.logs[3].use, pmu_compare.LEFT_OUT)
        self.assertEqual(c.exit_code, pmu_model.EXIT_DAMAGED)
        self.assertIn("Comparison: 3 machines from 3 logs compared; 1 left out",
                      pmu_compare_text.render_comparison(c))

    def test_damage_anywhere_never_stops_the_comparison(self):
        rng = random.Random(26)
        good = logfixture.extended_suite(repeat=2)
        for trial in range(40):
            log = logfixture.extended_suite(repeat=2)
            seqs = [line.seq for line in log.lines if line.seq is not None]
            for _ in range(rng.randint(1, 4)):
                seq = rng.choice(seqs)
                how = rng.choice(["drop", "flip_crc", "break_json", "duplicate"])
                try:
                    getattr(log, how)(seq)
                except KeyError:  # dropped before
                    continue
            if rng.random() < 0.5:
                log.cut(rng.choice([s for s in seqs if s in {l.seq for l in log.lines}]), 30)
            for partial in (False, True):
                c = compare([("good.log", good.render()), ("bad.log", log.render())],
                            partial=partial)
                self.assertIn(c.exit_code, pmu_model.EXIT_STATUSES, trial)
                self.assertIn("Exit status", pmu_compare_text.render_comparison(c))
                obj = json.loads(json.dumps(pmu_compare_export.comparison_json(c)))
                self.assertEqual(pmu_schema.comparison_problems(obj), [], trial)


def skipped(text, exp, xsu):
    """The kernel's log with its verdict of exp under xsu a skip (too_little_data), as a boot
    whose sibling lost many ticks gives, its counts as they were; CRCs matching."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = pmu_records.RECORD_RE.search(line.rstrip("\r"))
        if m:
            o = json.loads(m.group(3))
            if o["type"] == "verdict" and (o["exp"], o["xsu"]) == (exp, xsu):
                o.update(result="skip", skip="too_little_data", reason="HT1 lost many ticks")
                lines[i] = logfixture.record_text(int(m.group(1)), o)
    return "\n".join(lines)


class CommandLines(unittest.TestCase):
    """Issue 26's review: logs of one machine booted with dur_ms=100 and dur_ms=60 were combined
    as repetitions without a word, their spread the runs' different lengths."""

    @staticmethod
    def booted(name, **config):
        def change(boot):
            boot["config"].update(config)
        return changed(read(name) + "\n# booted otherwise", "boot", change)

    def test_another_duration_is_not_a_repetition(self):
        c = compare(data("sandybridge.log", "haswell.log") +
                    [("haswell-60.log", self.booted("haswell-2.log", dur_ms=60))])
        self.assertEqual([m.label for m in c.machines.values()], [
            "sandybridge (model)", "haswell dur_ms=100 (model)", "haswell dur_ms=60 (model)"])
        self.assertTrue(all(len(m.logs) == 1 for m in c.machines.values()))
        text = "\n".join(pmu_compare_text.machine_table(c))
        self.assertIn("  command lines differ in keys that change the figures: dur_ms 100 ("
                      "sandybridge.log, haswell.log), 60 (haswell-60.log); logs of one CPU that "
                      "differ in them are not combined as repetitions", text)
        self.assertNotIn("combined as repetitions;", text)

    def test_another_experiment_list_is_combined_and_named(self):
        c = compare(data("sandybridge.log", "haswell.log") +
                    [("haswell-exp.log", self.booted("haswell-2.log", exp="ch7-three-events"))])
        self.assertEqual(len(c.machine(HASWELL).logs), 2)
        text = "\n".join(pmu_compare_text.machine_table(c))
        self.assertIn("haswell (model): 2 logs of the same CPU, microcode, kernel and run "
                      "settings, combined as repetitions; their command lines differ in exp "
                      "leak-survey,ch4-lbr-inserts,ch7-three-events (haswell.log), "
                      "ch7-three-events (haswell-exp.log), which chooses the runs, not their "
                      "figures", text)
        self.assertNotIn("keys that change the figures", text)


class SkippedVerdicts(unittest.TestCase):
    """Issue 26's review: 'XSU on removes it on all 3' where the kernel skipped XSU on's verdicts
    (too_little_data): a finding claims nothing the verdicts did not judge."""

    LOGS = ("sandybridge.log", "ivybridge.log", "haswell.log")

    def ch7(self, skip_in):
        logs = [(n, skipped(read(n), "ch7-three-events", "on") if n in skip_in else read(n))
                for n in self.LOGS]
        return [x for x in pmu_compare_findings.findings(compare(logs))
                if x.startswith("ch7-three-events: XSU on")]

    def test_all_skipped_is_not_judged(self):
        self.assertEqual(self.ch7(self.LOGS), [
            "ch7-three-events: XSU on was not judged where XSU off corrupts: its verdicts said "
            "skip too_little_data on sandybridge (model), ivybridge (model) and haswell "
            "(model)."])

    def test_one_skipped_counts_the_judged_only(self):
        self.assertEqual(self.ch7(("ivybridge.log",)), [
            "ch7-three-events: XSU on removes it on sandybridge (model) and haswell (model) "
            "(not judged: skip too_little_data on ivybridge (model))."])

    def test_all_judged(self):
        self.assertEqual(self.ch7(()), ["ch7-three-events: XSU on removes it on all 3."])


class Repeated(TempDirCase):
    def test_a_log_repeated_is_one_machine_with_its_repetitions(self):
        text = read("haswell.log")
        log = logfixture.repeated(text, 3, note="three repetitions")
        report = pmu_model.build(pmu_records.parse(log.render()))
        self.assertEqual(report.exit_code, pmu_model.EXIT_OK)
        c = compare(data("haswell.log") + [("three.log", log.render())])
        self.assertEqual(len(c.machines), 1)
        tally = c.machine(HASWELL).surveys["off"]
        self.assertEqual(tally.cell("r81d0:u", 1).n, 4)
        lbr = c.machine(HASWELL).experiments["ch4-lbr-inserts"]
        self.assertEqual([len(x.values) for x in lbr.excess.values()], [4, 4])

    def test_one_machine_twice_shows_its_combined_figures(self):
        """Issue 26's review: `pmu-report Haswell.log Haswell-2.log` said 'fewer than two
        machines: nothing is compared across machines' and showed nothing."""
        c = compare(data("haswell.log", "haswell-2.log"))
        self.assertEqual([e.name for e in c.experiments], ["ch4-lbr-inserts",
                                                           "ch7-three-events", "leak-survey"])
        self.assertEqual(len(c.surveys), 1)
        self.assertEqual(c.surveys[0].machines, [HASWELL])
        self.assertIn("r81d0:u", c.surveys[0].events)
        self.assertEqual(c.surveys[0].single, [])
        text = pmu_compare_text.render_comparison(c)
        self.assertRegex(text, r"HT1 r20cc:u +XSU off +XSU on\n +haswell \(model\) +! [0-9,]+ "
                         r"\( \+- +[0-9.]+% \)")
        self.assertIn("  - fewer than two machines: nothing is compared across machines; above: "
                      "haswell (model)'s 2 logs combined as repetitions, with their spread", text)
        self.assertIn("ch4-lbr-inserts: XSU on removes it on haswell (model).", text)

    def test_the_tool_on_one_machine_twice(self):
        run = self.run_tool(os.path.join(COMPARE, "haswell.log"),
                            os.path.join(COMPARE, "haswell-2.log"))
        self.assertEqual(run.code, 0, run.stderr)
        self.assertIn("Leak survey, XSU off, on 1 machine", run.stdout)
        if reporttest.matplotlib_available():  # the plot of one machine's map: it failed
            self.assertTrue(os.path.exists(run.path("comparison-leak-map-off.png")))

    def test_one_log_alone_still_compares_nothing(self):
        c = compare(data("haswell.log", "sandybridge.log")[:1] + [("cut.log", cut(read(
            "ivybridge.log")))])
        self.assertEqual((c.experiments, c.surveys), ([], []))


if __name__ == "__main__":
    unittest.main()
