"""The leak survey (`survey` records, docs/records.md): for each event counted on one of HT0's
counters, what the sibling's counter holding a zero event caught, as a share of the event's
occurrences (the record's ratio: leak / (count + leak)).
The map has a row per event and a column per counter index where the two counters had the same
index, plus one column for every pair of different indices: the erratum leaks only into the
counter of the same index (thesis 4.2), so that column must stay at zero.

Two more columns, where the survey has them, ask where the leak goes when the sibling's counter of
the same index is "unused" (`sibling_state`): its EVTSEL.EN clear, or EN set and its GLOBAL_CTRL
bit clear. There HT0's count is all there is, and the map gives it as a share of what HT0's event
did with the sibling counting the zero event (count + leak at the same indices): 100% when HT0
keeps the counts that would have leaked, 100% less the leak share when they are lost. A share
rather than counts per unit of work: survey records carry no units, and a share reads the same
for an event of 2% leak and one of 50%. It compares two runs' counts, so it moves with how much
work each run did; where that is too much to tell keeping from losing, it is unreliable
(pmu_survey_stats.kept_unreliable) and the report says so instead of printing it.
"""

import collections

import pmu_schema
import pmu_survey_stats

# The columns of the map: counter indices 0-3 (the GP counters of a thread with HT on) at least,
# more when a record names a higher one, then the pairs of different indices.
MIN_INDICES = 4
OTHER = "other"
# The sibling's counter counting the zero event (what the leak columns measure), and the two
# states in which it is disabled (docs/records.md, survey.sibling_state), in column order.
ZERO_EVENT = "zero_event"
DISABLED_STATES = ("en_clear", "global_clear")


class Point:
    """One `survey` record: one measurement of one event on one pair of counters."""

    def __init__(self, record):
        o = record.obj
        self.seq = record.seq
        self.exp = o["exp"]
        self.xsu = o.get("xsu")
        self.rep = o.get("rep", 0)
        self.event = o["event"]
        self.name = o.get("name")
        self.corrupting = o.get("corrupting") is True
        self.index = o["index"]
        self.sibling_index = o["sibling_index"]
        self.same_index = o.get("same_index", self.index == self.sibling_index)
        # A kernel before the disabled states wrote no sibling_state: its points are zero-event.
        self.sibling_state = o.get("sibling_state", ZERO_EVENT)
        self.count = o.get("count")
        self.leak = o.get("leak")
        # The share of the event's occurrences that leaked (docs/records.md): the erratum moves
        # counts, it does not copy them, so HT0 counted the rest.
        self.ratio = o.get("ratio")
        if "ratio" not in o and self.count is not None and self.leak:
            self.ratio = self.leak / (self.count + self.leak)

    @property
    def column(self):
        return self.index if self.same_index else OTHER


class LeakMap:
    """The points of one XSU mode as a table. A cell is the mean ratio over the repetitions of
    its measurement; the "other" column holds the largest of those means over every pair of
    different indices, so that one leaking pair is not averaged away by the clean ones. Only
    zero-event points make the cells; those of a disabled sibling counter make `states`."""

    def __init__(self, xsu, points):
        self.xsu = xsu
        self.points = points
        self._info = collections.OrderedDict()     # event -> (name, corrupting), first point's
        self._pairs = collections.defaultdict(collections.OrderedDict)
        self._occurrences = collections.defaultdict(list)  # (event, index) -> [count + leak]
        self._kept = collections.defaultdict(list)  # (event, state) -> [(index, count)]
        for p in points:
            self._info.setdefault(p.event, (p.name, p.corrupting))
            if p.sibling_state != ZERO_EVENT:
                if p.count is not None:
                    self._kept[(p.event, p.sibling_state)].append((p.index, p.count))
                continue
            self._pairs[(p.event, p.column)].setdefault((p.index, p.sibling_index),
                                                        []).append(p.ratio)
            if p.same_index and p.count is not None and p.leak is not None:
                self._occurrences[(p.event, p.index)].append(p.count + p.leak)
        self.events = list(self._info)
        highest = max([p.index for p in points if p.same_index and
                       p.sibling_state == ZERO_EVENT] + [MIN_INDICES - 1])
        self.columns = list(range(highest + 1)) + [OTHER]
        self.states = [s for s in DISABLED_STATES if any(k[1] == s for k in self._kept)]

    def event_info(self, event):
        """(Intel name or None, corrupting) of an event, from its first point."""
        return self._info[event]

    def cell(self, event, column):
        """The ratio of a cell; None when nothing was measured there, "n/a" when nothing was
        counted there (count and leak 0: the ratio is undefined)."""
        pairs = self._pairs.get((event, column))
        if not pairs:
            return None
        means = []
        for ratios in pairs.values():
            defined = [r for r in ratios if r is not None]
            if defined:
                means.append(sum(defined) / len(defined))
        return max(means) if means else "n/a"

    def kept(self, event, state):
        """HT0's mean count with the sibling's counter in a disabled state, over its mean count +
        leak with the sibling's counter of the same index counting the zero event, at the same
        indices (every repetition); None when the state was not measured, "n/a" when there is
        no zero-event figure to compare with or it is 0."""
        found = self._kept.get((event, state))
        if not found:
            return None
        reference = occurrences_at(self._occurrences, event, found)
        if not reference or not sum(reference):
            return "n/a"
        return mean([n for _, n in found]) / mean(reference)

    def kept_judged(self, event, state):
        """kept()'s standard uncertainty and why it cannot be read (judge_kept), (None, None)
        where kept() is not a number."""
        found = self._kept.get((event, state))
        judged = judge_kept(self._occurrences, event, found, self.leak_share(event)) \
            if found else None
        return judged[1:] if judged else (None, None)

    def kept_uncertainty(self, event, state):
        return self.kept_judged(event, state)[0]

    def kept_unreliable(self, event, state):
        return self.kept_judged(event, state)[1]

    def leak_share(self, event):
        """The event's mean leak share over its zero-event runs at the same index, every index
        (None where nothing was counted)."""
        ratios = [r for (ev, column), pairs in self._pairs.items()
                  if ev == event and column != OTHER
                  for ratios in pairs.values() for r in ratios if r is not None]
        return mean(ratios) if ratios else None


def occurrences_at(occurrences, event, found):
    """The event's count + leak with the sibling's counter counting the zero event, at the
    indices of `found` ([(index, count)] in a disabled state), every repetition: what the
    disabled state's counts are a share of. occurrences is {(event, index): [count + leak]}."""
    return [n for index in sorted({i for i, _ in found})
            for n in occurrences.get((event, index), [])]


def judge_kept(occurrences, event, found, share):
    """A kept share a measurement at a time, judged: (its values, each a count of `found` over
    the mean of occurrences_at(); its standard uncertainty from how much the event's count +
    leak moves over every zero-event run of it (pmu_survey_stats.kept_uncertainty); why it
    cannot be read, or None (pmu_survey_stats.kept_unreliable, share being the event's leak
    share)). None when there is no zero-event count to compare with."""
    reference = occurrences_at(occurrences, event, found)
    if not reference or not sum(reference):
        return None
    values = [n / mean(reference) for _, n in found]
    rsd = pmu_survey_stats.pace_rsd([n for (ev, _), ns in occurrences.items() if ev == event
                                     for n in ns])
    uncertainty = pmu_survey_stats.kept_uncertainty(values, rsd, len(reference))
    return values, uncertainty, pmu_survey_stats.kept_unreliable(mean(values), uncertainty,
                                                                 share, rsd)


def mean(values):
    return sum(values) / len(values)


def leak_maps(points):
    """One LeakMap per XSU mode of the points, in the order off, on, core."""
    by_xsu = collections.OrderedDict()
    for p in points:
        by_xsu.setdefault(p.xsu, []).append(p)
    return [LeakMap(xsu, by_xsu[xsu]) for xsu in sorted(by_xsu, key=pmu_schema.xsu_key)]
