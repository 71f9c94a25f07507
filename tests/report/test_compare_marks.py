"""The leak survey's marks across machines, as properties (Debian's python3-hypothesis;
docs/comparing.md#uncertainty-and-marks): what must never be marked and what must be.

- Repetitions of one machine never differ: a tally compared with itself, and two boots of one
  part whose shares scatter by up to 22% of the share, which the floor of 15% of the share a cell
  covers (K = 3: 3 x sqrt(2) x 15% x 0.78 = 49.6% of the share apart before a mark, 44% at
  most).
- A real difference is marked at every index: a share of 40-51% (Sandy Bridge's r02d1 in
  docs/leak-survey.md) against one of 1-3% (Haswell's), or any share of 0.5% or more against 0
  (the control), each measurement scattered by up to 10%.
- A kept share (EN clear, GLOBAL_CTRL clear) above 100% is unreliable, says so, and is never
  marked, however far it is from the others'.

The points are built as the kernel's `survey` records are read (pmu_survey.Point); every
property is derandomized with a fixed budget (about 2 s)."""

import os
import tempfile
import types
import unittest

import hypothesis.configuration
from hypothesis import HealthCheck, given, settings, strategies as st

import reporttest  # noqa: F401 (the tools' folder on the path)
import pmu_compare_survey
import pmu_survey
import pmu_survey_stats

hypothesis.configuration.set_hypothesis_home_dir(
    os.path.join(tempfile.gettempdir(), "pmu-report-hypothesis"))

EVENT = "r02d1:u"
INDICES = range(4)
# What a boot's `count + leak` of the event is, before its shares split it.
OCCURRENCES = 100000


def bounded(examples):
    return settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def point(index, share=None, state=pmu_survey.ZERO_EVENT, count=None, rep=0):
    """A Point as pmu_survey reads a `survey` record: a zero-event one of the share at its own
    index, or one of a disabled state with HT0's count."""
    obj = {"exp": "leak-survey", "xsu": "off", "rep": rep, "event": EVENT, "corrupting": True,
           "index": index, "sibling_index": index, "sibling_state": state}
    if state == pmu_survey.ZERO_EVENT:
        leak = int(round(OCCURRENCES * share))
        obj.update(count=OCCURRENCES - leak, leak=leak, ratio=leak / OCCURRENCES)
    else:
        obj.update(count=count)
    return pmu_survey.Point(types.SimpleNamespace(obj=obj, seq=0))


def tally(points):
    t = pmu_compare_survey.SurveyTally()
    for p in points:
        t.add(p)
    return t


def boot(share, scatter, reps=1):
    """A boot's zero-event points: the share at each index and repetition, times (1 + d) with d
    from `scatter` in turn."""
    found = []
    for rep in range(reps):
        for i in INDICES:
            d = scatter[(rep * len(INDICES) + i) % len(scatter)]
            found.append(point(i, share * (1 + d), rep=rep))
    return found


def marked_rows(tallies):
    """{column: marked machines} of the event's rows compared across the tallies."""
    return {r.column: r.marked for r in pmu_compare_survey.SurveyComparison("off", tallies).rows
            if r.event == EVENT}


def scatters(width):
    return st.lists(st.floats(-width, width), min_size=1, max_size=8)


class Repetitions(unittest.TestCase):
    @bounded(60)
    @given(st.floats(0.0, 0.6), scatters(0.5), st.integers(1, 3))
    def test_a_tally_beside_itself_is_never_marked(self, share, scatter, reps):
        points = boot(share, scatter, reps)
        self.assertEqual(marked_rows({"a": tally(points), "b": tally(points)}),
                         {i: set() for i in INDICES})

    @bounded(100)
    @given(st.floats(0.005, 0.6), scatters(0.22), scatters(0.22), st.integers(1, 3))
    def test_two_boots_of_one_part_are_not_marked(self, share, one, two, reps):
        found = marked_rows({"a": tally(boot(share, one, reps)),
                             "b": tally(boot(share, two, reps))})
        self.assertEqual(sorted(found), list(INDICES))
        self.assertEqual([m for m in found.values() if m], [])


class RealDifferences(unittest.TestCase):
    @bounded(100)
    @given(st.floats(0.40, 0.51), st.floats(0.01, 0.03), scatters(0.10), scatters(0.10),
           st.integers(1, 3))
    def test_sandy_bridges_share_beside_haswells_is_marked(self, snb, hsw, one, two, reps):
        found = marked_rows({"snb": tally(boot(snb, one, reps)),
                             "hsw": tally(boot(hsw, two, reps))})
        self.assertEqual(found, {i: {"snb", "hsw"} for i in INDICES})

    @bounded(100)
    @given(st.floats(0.005, 0.6), scatters(0.10), scatters(0.10))
    def test_a_leak_beside_two_controls_marks_the_leak(self, share, one, two):
        found = marked_rows({"a": tally(boot(share, one)), "b": tally(boot(share, two)),
                             "control": tally(boot(0.0, [0.0]))})
        self.assertEqual(found, {i: {"control"} for i in INDICES})


class KeptAbove100(unittest.TestCase):
    @bounded(100)
    @given(st.floats(0.02, 0.5), st.floats(1.0001, 12.0), st.floats(0.0, 0.9),
           st.sampled_from(pmu_survey.DISABLED_STATES))
    def test_a_kept_share_above_100_is_unreliable_and_never_marked(self, share, above, other,
                                                                   state):
        """One machine keeps `above` times its count + leak (a run that did more work), the
        other `other`: the first is unreliable whatever its uncertainty, and no mark falls on
        it."""
        machines = {}
        for name, kept in (("above", above), ("other", other)):
            points = boot(share, [0.0, 0.01, -0.01])
            points += [point(i, state=state, count=int(OCCURRENCES * kept)) for i in INDICES]
            machines[name] = tally(points)
        row = [r for r in pmu_compare_survey.SurveyComparison("off", machines).rows
               if r.event == EVENT and r.column == state][0]
        cell = row.cells["above"]
        self.assertGreater(cell.value, 1.0)
        self.assertRegex(cell.unreliable, r"^\d+\.\d\d% is above 100%: HT0 cannot keep more")
        self.assertNotIn("above", row.marked)
        self.assertEqual(row.marked, set())  # the other is alone: nothing to differ from

    def test_the_same_share_at_100_is_read(self):
        points = boot(0.45, [0.0, 0.01, -0.01])
        points += [point(i, state="en_clear", count=OCCURRENCES) for i in INDICES]
        cell = tally(points).cell(EVENT, "en_clear")
        self.assertAlmostEqual(cell.value, 1.0)
        self.assertIsNone(cell.unreliable)
        self.assertLess(pmu_survey_stats.K * cell.uncertainty, 0.45 / 2)


if __name__ == "__main__":
    unittest.main()
