"""The leak survey across machines (pmu-report A.log B.log ...; docs/comparing.md).

Each machine's `survey` records, over its logs and their repetitions, are tallied as they are read
(SurveyTally: the lists of measurements each cell is made of, so that no log's records need be
kept), in the single report's terms (pmu_survey.py): a cell per event and index of HT0's counter
(the sibling's counter of a zero event at the same index: the record's ratio), one for the pairs
of different indices (the largest pair's mean), and one per disabled state of the sibling's
counter (what HT0 kept, as a share of its count + leak at the same indices).

Across machines a row is one event and one such column. A cell is a Figure: the mean of its
measurements, perf's ( +- ) over them, and its standard uncertainty (pmu_survey_stats: the
standard error of the mean, with a floor; for a kept share, from how much the event's count moves
from run to run, and whether that leaves it readable at all). Two cells differ when they are
further apart than K (3) times their combined standard uncertainty; a cell is marked where it
differs from the largest group of machines that agree in its row (marks()): the odd machine out
stands out (the control without the erratum, a part whose share is another), and two machines
that differ are both marked. A kept share that cannot be read is never marked.
"""

import collections

import pmu_model
import pmu_schema
import pmu_survey
import pmu_survey_stats

OTHER = pmu_survey.OTHER
ZERO_EVENT = pmu_survey.ZERO_EVENT
DISABLED_STATES = pmu_survey.DISABLED_STATES
NA = "n/a"
stdev = pmu_survey_stats.stdev
# A Figure's uncertainty when none is given: a leak share's (pmu_survey_stats.share_uncertainty).
SHARE = object()


class Figure:
    """One cell: mean, spread (the standard deviation of the event's measurements of the kind on
    the machine), how many measurements, perf's relative standard deviation of the mean (None
    for one), its standard uncertainty (pmu_survey_stats.share_uncertainty unless given), and
    why it cannot be read (None where it can: a kept share only)."""

    __slots__ = ("value", "spread", "n", "rsd_pct", "uncertainty", "unreliable")

    def __init__(self, values, spread, uncertainty=SHARE, unreliable=None):
        self.value = pmu_model.mean(values)
        self.spread = spread
        self.n = len(values)
        self.rsd_pct = pmu_model.perf_rsd_pct(values)
        self.uncertainty = (pmu_survey_stats.share_uncertainty(values, spread)
                            if uncertainty is SHARE else uncertainty)
        self.unreliable = unreliable

    def differs(self, other):
        return pmu_survey_stats.differs(self, other)


class SurveyTally:
    """One machine's survey measurements of one XSU mode, pooled over its logs: filled a point at
    a time (add), read a cell at a time (cell)."""

    def __init__(self):
        self.info = collections.OrderedDict()   # event -> {name: logs}, corrupting
        self.measured = set()                   # (event, column): a zero-event point was there
        self.same = collections.defaultdict(list)    # (event, index) -> [ratio]
        self.pairs = collections.defaultdict(dict)   # event -> {(index, sibling): [ratio]}
        self.occurrences = collections.defaultdict(list)  # (event, index) -> [count + leak]
        self.kept = collections.defaultdict(list)   # (event, state) -> [(index, count)]
        self.highest = pmu_survey.MIN_INDICES - 1
        self.points = 0

    def add(self, p):
        """One pmu_survey.Point."""
        self.points += 1
        names, _ = self.info.setdefault(p.event, ({}, p.corrupting))
        if p.name:
            names[p.name] = True
        if p.sibling_state != ZERO_EVENT:
            if p.count is not None:
                self.kept[(p.event, p.sibling_state)].append((p.index, p.count))
            return
        self.measured.add((p.event, p.column))
        if p.same_index:
            self.highest = max(self.highest, p.index)
            if p.ratio is not None:
                self.same[(p.event, p.index)].append(p.ratio)
            if p.count is not None and p.leak is not None:
                self.occurrences[(p.event, p.index)].append(p.count + p.leak)
        else:
            self.pairs[p.event].setdefault((p.index, p.sibling_index), []).append(p.ratio)

    def merge(self, other):
        """Another log's tally of the same XSU mode (a repetition of the machine)."""
        for event, (names, corrupting) in other.info.items():
            self.info.setdefault(event, ({}, corrupting))[0].update(names)
        self.measured |= other.measured
        for key, values in other.same.items():
            self.same[key].extend(values)
        for event, pairs in other.pairs.items():
            for pair, values in pairs.items():
                self.pairs[event].setdefault(pair, []).extend(values)
        for key, values in other.occurrences.items():
            self.occurrences[key].extend(values)
        for key, values in other.kept.items():
            self.kept[key].extend(values)
        self.highest = max(self.highest, other.highest)
        self.points += other.points

    def names(self, event):
        return list(self.info[event][0]) if event in self.info else []

    def corrupting(self, event):
        return event in self.info and self.info[event][1]

    def states(self):
        return [s for s in DISABLED_STATES if any(k[1] == s for k in self.kept)]

    def cell(self, event, column):
        """A Figure, NA (measured, nothing counted) or None (not measured)."""
        if column in DISABLED_STATES:
            return self._kept_cell(event, column)
        if (event, column) not in self.measured:
            return None
        if column == OTHER:
            found = [[r for r in ratios if r is not None]
                     for ratios in self.pairs[event].values()]
            found = [values for values in found if values]
            if not found:
                return NA
            return Figure(max(found, key=pmu_model.mean), stdev(self._others(event)))
        values = self.same.get((event, column))
        if not values:
            return NA
        return Figure(values, stdev(self._same(event)))

    def _same(self, event):
        return [r for (ev, _), ratios in self.same.items() if ev == event for r in ratios]

    def _others(self, event):
        return [r for ratios in self.pairs[event].values() for r in ratios if r is not None]

    def _kept_cell(self, event, state):
        """HT0's counts in a disabled state, each over the mean count + leak with the zero event
        at the same indices (pmu_survey.LeakMap.kept, a measurement at a time), as a Figure of
        its pace's uncertainty that says whether it can be read; None when the state was not
        measured, NA when there is nothing to compare with."""
        found = self.kept.get((event, state))
        if not found:
            return None
        share = self.leak_share(event)
        judged = pmu_survey.judge_kept(self.occurrences, event, found,
                                       share.value if isinstance(share, Figure) else None)
        if judged is None:
            return NA
        values, uncertainty, why = judged
        return Figure(values, stdev(values), uncertainty=uncertainty, unreliable=why)

    def leak_share(self, event):
        """The event's mean leak share at its own index (every index), or None/NA."""
        values = self._same(event)
        if values:
            return Figure(values, stdev(values))
        return NA if any(k[0] == event for k in self.measured) else None


class Row:
    """One event and one column across machines: the cells by machine label, and which are
    marked (marks())."""

    def __init__(self, event, column, cells):
        self.event = event
        self.column = column
        self.cells = cells
        self.marked = marks({m: c for m, c in cells.items()
                             if isinstance(c, Figure) and c.unreliable is None})

    @property
    def has_figures(self):
        return any(isinstance(c, Figure) for c in self.cells.values())


def marks(figures):
    """The machines whose cell differs from the others': the machines are grouped, two in one
    group where their cells do not differ (Figure.differs: no further apart than K times their
    combined standard uncertainty), and so on, a group being every machine reached that way; the
    largest group is the row's common figure and the cells outside it are marked. Where no group
    is larger than every other (two machines that differ, or all apart), every cell outside a
    group of all is marked."""
    group = {m: m for m in figures}

    def root(m):
        while group[m] != m:
            m = group[m]
        return m

    names = list(figures)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if not figures[a].differs(figures[b]):
                group[root(a)] = root(b)
    sizes = collections.Counter(root(m) for m in names)
    if len(sizes) < 2:
        return set()
    ranked = sizes.most_common()
    common = ranked[0][0] if ranked[0][1] > ranked[1][1] else None
    return {m for m in names if root(m) != common}


class SurveyComparison:
    """One XSU mode's survey across the machines that ran it: the columns, the events surveyed on
    two or more machines as rows, and what is left aside: events on one machine only, events
    nothing was counted of anywhere, events that leaked nothing at all anywhere (the controls)."""

    def __init__(self, xsu, tallies):
        self.xsu = xsu
        self.tallies = tallies  # machine label -> SurveyTally, in the machines' order
        highest = max(t.highest for t in tallies.values())
        states = [s for s in DISABLED_STATES if any(s in t.states() for t in tallies.values())]
        self.columns = list(range(highest + 1)) + [OTHER] + states
        on = collections.OrderedDict()
        for label, t in tallies.items():
            for event in t.info:
                on.setdefault(event, []).append(label)
        # A lone machine (its repetitions combined) shows every event it surveyed.
        least = min(2, len(tallies))
        self.single = [(event, labels[0]) for event, labels in on.items()
                       if len(labels) < least]
        self.events, self.nothing_counted, self.no_leak, self.rows = [], [], [], []
        for event in (e for e, labels in on.items() if len(labels) >= least):
            rows = [Row(event, c, {m: t.cell(event, c) for m, t in tallies.items()})
                    for c in self.columns]
            rows = [r for r in rows if r.has_figures]
            if not rows:
                self.nothing_counted.append(event)
                continue
            self.rows.extend(rows)
            if all(c.value == 0 for r in rows for c in r.cells.values()
                   if isinstance(c, Figure)):
                self.no_leak.append(event)   # a line of text, not a table of zeros
            else:
                self.events.append(event)

    @property
    def machines(self):
        return list(self.tallies)

    def rows_of(self, event):
        return [r for r in self.rows if r.event == event]

    def names(self, event):
        """{machine: Intel's name of the event there}: the same code may be another event on
        another part (0x81d0 is MEM_UOPS_RETIRED.ALL_LOADS on Haswell, MEM_INST_RETIRED on
        Skylake)."""
        return {m: ", ".join(t.names(event)) for m, t in self.tallies.items() if t.names(event)}

    def corrupting_on(self, event):
        return [m for m, t in self.tallies.items() if t.corrupting(event)]


def compare(tallies_by_xsu, repeated=()):
    """One SurveyComparison per XSU mode run on two or more machines, or on one machine of
    several logs (its label in repeated: its repetitions combined, with their spread), off first:
    tallies_by_xsu is {xsu: {machine label: SurveyTally}}."""
    return [SurveyComparison(xsu, tallies) for xsu, tallies in
            sorted(tallies_by_xsu.items(), key=lambda kv: pmu_schema.xsu_key(kv[0]))
            if len(tallies) >= 2 or set(tallies) <= set(repeated) and tallies]
