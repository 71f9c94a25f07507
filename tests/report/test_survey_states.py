"""The leak survey's two ways a sibling counter can be "unused" (issue 16): `survey` records with
`sibling_state` "en_clear" (the sibling's counter of HT0's index has EVTSEL.EN clear) or
"global_clear" (EN set, its GLOBAL_CTRL bit clear), where only HT0's count matters. The map
gains a column each: HT0's count there as a share of its count + leak with the sibling counting
the zero event at the same indices. Those points never enter the leak cells; a record without
sibling_state reads as "zero_event". Every expected share is worked out here from the
records."""

import collections
import csv
import json
import os
import unittest

from reporttest import TempDirCase, build
import logfixture
import pmu_export
import pmu_records
import pmu_survey
import pmu_text

SURVEY = "leak-survey"


def survey_records(log):
    return [r.obj for r in pmu_records.parse(log.render()).records if r.type == "survey"]


def expected_kept(records, event, state):
    """HT0's mean count in a state, over the mean count + leak of the same event's zero-event
    points whose sibling counter had HT0's index, at the indices measured in that state."""
    kept = [r for r in records if r["event"] == event and r.get("sibling_state") == state]
    indices = {r["index"] for r in kept}
    zero = [r["count"] + r["leak"] for r in records
            if r["event"] == event and r.get("sibling_state", "zero_event") == "zero_event"
            and r["index"] == r["sibling_index"] and r["index"] in indices]
    return (sum(r["count"] for r in kept) / len(kept)) / (sum(zero) / len(zero))


def map_row(text, event):
    section = text[text.index("== %s:" % SURVEY):]
    return [x for x in section.splitlines() if x.strip().startswith(event + " ")][0]


def leak_map(report):
    return pmu_survey.leak_maps(report.experiments[SURVEY].survey)[0]


def survey_log(change=None):
    """The extended suite with every survey record changed by change(obj) (None: as it is)."""
    log = logfixture.extended_suite()
    if change is not None:
        for line in log.lines:
            if line.seq is not None and '"type":"survey"' in line.text:
                obj = json.loads(line.text.split(" ", 2)[2])
                change(obj)
                line.text = logfixture.record_text(line.seq, obj)
    return log


class Columns(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.log = logfixture.extended_suite()
        cls.records = survey_records(cls.log)
        cls.report = build(cls.log)
        cls.text = pmu_text.render_text(cls.report)

    def test_the_shares_are_worked_out_from_the_records(self):
        m = leak_map(self.report)
        self.assertEqual(m.states, ["en_clear", "global_clear"])
        for event in ("r81d0:u", "r08d1:u"):
            for state in ("en_clear", "global_clear"):
                self.assertAlmostEqual(m.kept(event, state),
                                       expected_kept(self.records, event, state), places=12)
        # EN clear keeps what would have leaked: 100%. GLOBAL_CTRL clear loses it: about 100%
        # less the leak share (1 / 1.45 for r08d1:u, which leaks 45% of its count).
        self.assertAlmostEqual(m.kept("r08d1:u", "en_clear"), 1.0)
        self.assertAlmostEqual(m.kept("r08d1:u", "global_clear"), 1 / 1.45, places=6)

    def test_the_text_has_a_column_each(self):
        for event in ("r81d0:u", "r08d1:u"):
            cells = map_row(self.text, event).split()[-2:]
            self.assertEqual(cells, ["%.2f%%" % (100 * expected_kept(self.records, event, s))
                                     for s in ("en_clear", "global_clear")])
        self.assertTrue(map_row(self.text, "r08d1:u").endswith("100.00%             68.97%"))
        self.assertIn("   EN clear, GLOBAL_CTRL clear: what HT0 kept with the sibling's counter "
                      "of its index disabled", self.text)

    def test_the_disabled_points_never_enter_the_leak_cells(self):
        # Whatever such a point says of leak and ratio, the cells are the zero-event ones.
        def loud(obj):
            if obj.get("sibling_state") != "zero_event":
                obj["leak"], obj["ratio"] = obj["count"], 0.5
        report = build(survey_log(loud))
        self.assertEqual(report.stream.problems, [])
        m, before = leak_map(report), leak_map(self.report)
        for event in m.events:
            self.assertEqual([m.cell(event, c) for c in m.columns],
                             [before.cell(event, c) for c in before.columns])
        self.assertEqual(m.columns, before.columns)

    def test_report_json_and_survey_csv(self):
        j = json.loads(json.dumps(pmu_export.report_json(self.report)))
        lm = [e for e in j["experiments"] if e["exp"] == SURVEY][0]["leak_maps"][0]
        self.assertEqual(lm["states"], ["en_clear", "global_clear"])
        self.assertEqual(lm["columns"], ["0", "1", "2", "3", "other"])
        rows = {r["event"]: r for r in lm["rows"]}
        self.assertAlmostEqual(rows["r81d0:u"]["kept"]["global_clear"],
                               expected_kept(self.records, "r81d0:u", "global_clear"))
        self.assertEqual(rows["r00c5:u"]["kept"], {"en_clear": None, "global_clear": None})


class OlderLogs(unittest.TestCase):
    def test_without_sibling_state_a_point_is_zero_event(self):
        def old(obj):
            if obj["sibling_state"] == "zero_event":
                del obj["sibling_state"]
        report = build(survey_log(old))
        self.assertEqual(report.stream.problems, [])
        states = collections.Counter(p.sibling_state for p in report.experiments[SURVEY].survey)
        self.assertEqual(states, {"zero_event": 48, "en_clear": 16, "global_clear": 16})
        self.assertEqual(pmu_text.render_text(report), pmu_text.render_text(build(
            logfixture.extended_suite())))

    def test_a_survey_of_an_earlier_kernel_has_no_state_columns(self):
        # Its records lack sibling_state and it measured no disabled counter: the map as before.
        log = logfixture.Log()
        logfixture.boot_and_pmu(log, warn=False)
        for index in range(4):
            log.record("survey", exp=SURVEY, xsu="off", rep=0, event="r81d0:u", name=None,
                       corrupting=True, control=False, index=index, sibling_index=index,
                       same_index=True, count=975_000, leak=25_000, ratio=0.025, overlap_pct=100)
        log.verdict(SURVEY, "off", "pass", "leaks only into the counter of the same index")
        log.end()
        report = build(log)
        self.assertEqual(leak_map(report).states, [])
        text = pmu_text.render_text(report)
        self.assertNotIn("EN clear", text)
        self.assertEqual(map_row(text, "r81d0:u").split()[-5:], ["2.50%"] * 4 + ["-"])


class Unmeasured(unittest.TestCase):
    def test_no_zero_event_figure_to_compare_with_is_n_a(self):
        def no_reference(obj):
            if obj["event"] == "r81d0:u" and obj["index"] == obj["sibling_index"] and \
                    obj["sibling_state"] == "zero_event":
                obj["count"], obj["leak"], obj["ratio"] = 0, 0, None
        m = leak_map(build(survey_log(no_reference)))
        self.assertEqual(m.kept("r81d0:u", "en_clear"), "n/a")
        self.assertIsNone(m.kept("r00c5:u", "en_clear"))


class Csv(TempDirCase):
    def test_survey_csv_names_the_state(self):
        pmu_export.write_csv_files(build(logfixture.extended_suite()), self.tmp)
        with open(os.path.join(self.tmp, "survey.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        states = {(r["event"], r["sibling_state"]) for r in rows}
        self.assertIn(("r81d0:u", "global_clear"), states)
        self.assertNotIn(("r00c5:u", "en_clear"), states)

if __name__ == "__main__":
    unittest.main()
