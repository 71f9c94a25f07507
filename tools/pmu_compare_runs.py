"""The experiments across machines (pmu-report A.log B.log ...; docs/comparing.md): for each
experiment run on two or more machines, its verdict per machine and XSU mode, and the excess over
baseline of the counts its rule checks (a non-corrupting event with a baseline: what the sibling's
corrupting events added to it), per run, side by side.

A machine's figures are pooled over its logs (ExperimentTally, filled a count at a time): a cell
is the mean excess over every repetition of every log, with perf's ( +- ) over them, and `!`
where a repetition was corrupted (more than its tolerance above its baseline, pmu_model.Count).
A verdict is the worst of the machine's logs' (pass, skip, fail), with how many said it.
"""

import collections

import pmu_format
import pmu_model
import pmu_schema

RESULT_RANK = pmu_model.RESULT_RANK


class Excess:
    """The excess of one (run, thread, event) on one machine."""

    __slots__ = ("values", "corrupted", "baselines")

    def __init__(self):
        self.values, self.corrupted, self.baselines = [], 0, []

    def add(self, count):
        self.values.append(count.value - count.baseline)
        self.baselines.append(count.baseline)
        self.corrupted += bool(count.corrupted)

    def merge(self, other):
        self.values.extend(other.values)
        self.baselines.extend(other.baselines)
        self.corrupted += other.corrupted

    @property
    def mean(self):
        return pmu_model.mean(self.values)

    @property
    def rsd_pct(self):
        return pmu_model.perf_rsd_pct(self.values)

    @property
    def baseline(self):
        return pmu_model.mean(self.baselines)

    @property
    def pct(self):
        """The excess as a percentage of the baseline; None for a baseline of 0."""
        return 100.0 * self.mean / self.baseline if self.baseline else None


class VerdictTally:
    """One verdict (experiment, XSU mode, scheduler, policy) over a machine's logs."""

    def __init__(self):
        self.results = collections.Counter()
        self.skips = collections.OrderedDict()
        self.reasons = []

    def add(self, v):
        self.results[v.result] += 1
        if v.skip:
            self.skips[v.skip] = True
        self.reasons.append(v.reason)

    def merge(self, other):
        self.results.update(other.results)
        self.skips.update(other.skips)
        self.reasons.extend(other.reasons)

    @property
    def result(self):
        return max(self.results, key=lambda r: RESULT_RANK[r])

    @property
    def logs(self):
        return sum(self.results.values())


class ExperimentTally:
    """One experiment on one machine, over its logs."""

    def __init__(self, name):
        self.name = name
        self.title = self.section = self.rule = None
        self.labels = collections.OrderedDict()   # run key -> column label, in column order
        self.excess = collections.OrderedDict()   # (run key, thread, event) -> Excess
        self.verdicts = collections.OrderedDict()  # (xsu, sched, policy) -> VerdictTally

    def take(self, experiment, keep=None):
        """A pmu_model.Experiment of one log; keep(count) says which counts to use (a damaged
        log's intact runs, --partial)."""
        for attr in ("title", "section", "rule"):
            setattr(self, attr, getattr(self, attr) or getattr(experiment, attr))
        for run in experiment.columns():
            if run.phase != "measure":
                continue
            for c in run.counts:
                if not c.checked or (keep is not None and not keep(c)):
                    continue
                self.labels.setdefault(run.key, run.label)
                self.excess.setdefault((run.key, c.thread, c.event), Excess()).add(c)
        for v in experiment.verdicts:
            self.verdicts.setdefault((v.xsu, v.sched, v.policy), VerdictTally()).add(v)

    def merge(self, other):
        """Another log's tally of the same experiment (a repetition of the machine)."""
        for attr in ("title", "section", "rule"):
            setattr(self, attr, getattr(self, attr) or getattr(other, attr))
        for key, label in other.labels.items():
            self.labels.setdefault(key, label)
        for key, x in other.excess.items():
            self.excess.setdefault(key, Excess()).merge(x)
        for key, v in other.verdicts.items():
            self.verdicts.setdefault(key, VerdictTally()).merge(v)

    @property
    def empty(self):
        return not self.excess and not self.verdicts


def verdict_label(key):
    xsu, sched, policy = key
    return policy or pmu_format.xsu_text(xsu) + pmu_model.sched_suffix(sched)


class ExperimentComparison:
    """One experiment across the machines that ran it: its verdict columns, its run columns and
    the (thread, event) rows of the excess."""

    def __init__(self, name, tallies):
        self.name = name
        self.tallies = tallies  # machine label -> ExperimentTally, in the machines' order
        self.title, self.section, self.rule = (
            next((getattr(t, attr) for t in tallies.values() if getattr(t, attr)), None)
            for attr in ("title", "section", "rule"))
        keys = collections.OrderedDict((k, True) for t in tallies.values() for k in t.verdicts)
        self.verdict_keys = sorted(keys, key=lambda k: pmu_schema.xsu_key(k[0]))
        labels = collections.OrderedDict()
        for t in tallies.values():
            for key, label in t.labels.items():
                labels.setdefault(key, label)
        # The single report's column order: XSU off, on, core; greedy before hk.
        runs = sorted(labels, key=lambda k: pmu_model.column_order(pmu_model.Run(k)))
        self.runs = [(k, labels[k]) for k in runs]
        rows = collections.OrderedDict()
        for t in tallies.values():
            for (_, thread, event) in t.excess:
                rows.setdefault((thread, event), True)
        self.rows = sorted(rows, key=lambda r: r[0])

    @property
    def machines(self):
        return list(self.tallies)

    def verdict(self, machine, key):
        return self.tallies[machine].verdicts.get(key)

    def excess(self, machine, run_key, thread, event):
        return self.tallies[machine].excess.get((run_key, thread, event))

    def corrupted(self, machine, run_key):
        """'HTn event' of each checked count a run corrupted on a machine (in a repetition)."""
        return ["HT%d %s" % (t, ev) for t, ev in self.rows
                for x in [self.excess(machine, run_key, t, ev)] if x is not None and x.corrupted]

    def ran(self, machine, run_key):
        return any(self.excess(machine, run_key, t, ev) is not None for t, ev in self.rows)


def compare(tallies_by_exp, repeated=()):
    """One ExperimentComparison per experiment run on two or more machines, or on one machine of
    several logs (its label in repeated: its repetitions combined, with their spread), in the
    order they first appear: tallies_by_exp is {experiment: {machine label: ExperimentTally}}.
    Also [(experiment, machine)] of those run on one machine only, of one log."""
    compared, single = [], []
    for name, tallies in tallies_by_exp.items():
        tallies = collections.OrderedDict((m, t) for m, t in tallies.items() if not t.empty)
        if len(tallies) >= 2 or tallies and set(tallies) <= set(repeated):
            compared.append(ExperimentComparison(name, tallies))
        elif tallies:
            single.append((name, next(iter(tallies))))
    return compared, single
