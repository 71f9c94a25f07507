"""Many logs side by side (pmu-report A.log B.log ...; docs/comparing.md): the model of a
comparison.

Each log is read and checked exactly as one log is (pmu_records, pmu_model), then added to the
comparison and let go: what the comparison needs of it is tallied into its machine as it comes
(pmu_compare_runs, pmu_compare_survey), so that twenty logs of 5 MB take no more memory than
one and the time grows with the total size.

A machine is a CPU (vendor, family, model, stepping, brand), its microcode, its hypervisor and
where the counts came from (the hardware's counters, the model PMU, none). Logs of one machine
are repetitions: their figures are pooled, never shown as two machines. The model PMU is code of
the kernel, so a model log's machine is also its kernel's version; and a model log and a real one
are never one machine, so they are never averaged.

What becomes of each log (LogEntry.use): WHOLE; LEFT_OUT with the reason (no record at all, the
log is damaged, no boot record to tell its machine); PARTIAL, a damaged log under --partial, of
which only the intact runs count; DUPLICATE, the same bytes as a log before it. The comparison's
exit status is the worst of its logs' own (docs/report.md): a comparison is no better than the
logs it was made from.
"""

import collections
import hashlib

import pmu_compare_runs
import pmu_compare_survey
import pmu_model
import pmu_schema

WHOLE, PARTIAL, LEFT_OUT, DUPLICATE = "whole", "partial", "left out", "duplicate"
# The single report's order of exit statuses, worst first.
EXIT_ORDER = (pmu_model.EXIT_NO_RECORDS, pmu_model.EXIT_DAMAGED, pmu_model.EXIT_CONTRACT,
              pmu_model.EXIT_FAIL, pmu_model.EXIT_OK)
# The record types the comparison reads: a key that some logs' records of a type carry and
# others' do not is named (logs of different kernel versions).
COMPARED_TYPES = ("boot", "pmu", "exp", "count", "exp_end", "verdict", "survey")
# Run records: what lies between an `exp` record and the next record of another kind.
RUN_TYPES = ("count", "exp_end", "survey", "progress")
# The command line's keys (the boot record's config, docs/command-line.md) that change what a run
# measures: how long it runs, how it multiplexes and schedules, what each thread counts and does.
# Logs of one CPU that differ in one are not repetitions of each other: they are kept apart, the
# key in their labels (docs/comparing.md). The other keys (exp, xsu, repeat, ...) choose which
# runs there are, not their figures: logs differing only in those are combined, with a note.
FIGURE_KEYS = ("dur_ms", "mux_ms", "sched", "pmu", "ht0", "work0", "ht1", "work1", "start1_ms")


def worst_exit(codes):
    return min(codes, key=EXIT_ORDER.index, default=pmu_model.EXIT_OK)


class LogEntry:
    """One log: what its check said, and what it measured tallied by experiment and XSU mode (all
    a comparison needs of it: it travels from a worker process, pmu_compare_cli, without the
    log's records). `partial`: of a damaged log, tally only its intact runs (intact_seqs)."""

    def __init__(self, source, text, report, partial=False):
        s = report.stream
        self.source = source
        self.digest = hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()
        self.exit_code = report.exit_code
        self.envelopes = s.envelopes
        self.records = len(s.received_seqs())
        self.complete = s.end is not None
        self.damaged = report.damaged
        self.off_contract = report.off_contract
        self.problems = collections.Counter(p.kind for p in s.problems)
        self.lost = s.lost_spans()
        self.boot = report.boot
        self.pmu = report.pmu
        self.backend = report.backend
        self.nothing_measured = report.nothing_measured
        self.measured_unknown = report.measured_unknown
        self.passed = report.passed
        self.tally = report.result_counts()
        self.failures = report.failures()
        # The kernel's word on the run, whatever the log's state: None without an end record.
        self.verdict = None if s.end is None else "fail" if self.failures else "pass"
        self.keys = {t: set() for t in COMPARED_TYPES}
        for r in s.usable_records():
            if r.type in self.keys:
                self.keys[r.type].update(r.obj)
        self.use, self.reason, self.machine = WHOLE, None, None
        kept = intact_seqs(s) if partial and self.damaged else None
        self.experiments, self.surveys = tallies(report, None if kept is None
                                                 else lambda r: r.seq in kept)

    @property
    def version(self):
        return (self.boot or {}).get("version")

    @property
    def config(self):
        """The command line's values in force (the boot record's config), {} without them."""
        return (self.boot or {}).get("config") or {}

    @property
    def state(self):
        """The log in a few words, as the machine table says it."""
        if self.exit_code == pmu_model.EXIT_NO_RECORDS:
            return "no records"
        if self.damaged:
            return "damaged"
        return "not to contract" if self.off_contract else "intact"

    def machine_key(self):
        cpu = (self.boot or {}).get("cpu") or {}
        key = tuple(cpu.get(k) for k in ("vendor", "family", "model", "stepping", "brand",
                                         "hypervisor"))
        key += ((self.boot or {}).get("microcode"), self.backend)
        key += tuple(config_value(self.config, k) for k in FIGURE_KEYS)
        return key + ((self.version,) if self.backend == "model" else ())


def intact_seqs(stream):
    """The record numbers of the run records (count, survey, ...) in intact runs: those after an
    `exp` record up to the next record of another kind, where that record arrived and every
    number from the `exp` record to it did too. A damaged log's --partial keeps only these."""
    received = stream.received_seqs()
    records = stream.usable_records()
    kept, i = set(), 0
    while i < len(records):
        if records[i].type != "exp":
            i += 1
            continue
        start, j = records[i].seq, i + 1
        while j < len(records) and records[j].type in RUN_TYPES:
            j += 1
        if j < len(records):
            end = records[j].seq
            if all(n in received for n in range(start, end)):
                kept.update(r.seq for r in records[i + 1:j])
        i = j
    return kept


def tallies(report, keep=None):
    """({experiment: ExperimentTally}, {xsu: SurveyTally}) of a log's experiments and survey
    records; keep(record) says which to use."""
    experiments, surveys = collections.OrderedDict(), collections.OrderedDict()
    for e in report.experiments.values():
        tally = experiments.setdefault(e.name, pmu_compare_runs.ExperimentTally(e.name))
        tally.take(e, keep)
        for p in e.survey:
            if keep is None or keep(p):
                surveys.setdefault(p.xsu, pmu_compare_survey.SurveyTally()).add(p)
    return experiments, surveys


class Machine:
    """One machine: its logs, and what they measured, pooled."""

    def __init__(self, key):
        self.key = key
        self.logs = []
        self.label = None
        self.experiments = collections.OrderedDict()   # name -> ExperimentTally
        self.surveys = collections.OrderedDict()       # xsu -> SurveyTally

    @property
    def first(self):
        return self.logs[0]

    @property
    def model(self):
        return self.first.backend == "model"

    def take(self, entry):
        """A log's tallies, pooled with the machine's other logs'."""
        self.logs.append(entry)
        for name, tally in entry.experiments.items():
            self.experiments.setdefault(
                name, pmu_compare_runs.ExperimentTally(name)).merge(tally)
        for xsu, tally in entry.surveys.items():
            self.surveys.setdefault(xsu, pmu_compare_survey.SurveyTally()).merge(tally)
        entry.experiments, entry.surveys = {}, {}  # pooled: the log's own are no longer needed


class Comparison:
    """The logs, their machines, and what was compared."""

    def __init__(self, partial=False):
        self.partial = partial
        self.logs = []
        self.machines = collections.OrderedDict()   # machine key -> Machine
        self._digests = {}
        self.experiments, self.single_experiments, self.surveys = [], [], []
        self.differences = []
        self.plots, self.plot_note = [], None

    def add(self, entry):
        """One log's LogEntry; says what becomes of it (entry.use, entry.reason)."""
        self.logs.append(entry)
        if entry.digest in self._digests:
            entry.use, entry.reason = DUPLICATE, "the same log as %s" % (
                self._digests[entry.digest])
            return entry
        self._digests[entry.digest] = entry.source
        entry.use, entry.reason = self._use(entry)
        if entry.use in (WHOLE, PARTIAL):
            key = entry.machine_key()
            entry.machine = self.machines.setdefault(key, Machine(key))
            entry.machine.take(entry)
        return entry

    def _use(self, entry):
        if not entry.envelopes:
            return LEFT_OUT, "not a single record"
        if entry.boot is None:
            return LEFT_OUT, "no boot record: which machine it is is unknown"
        if entry.damaged:
            if self.partial:
                return PARTIAL, "damaged: only its intact runs are compared (--partial)"
            return LEFT_OUT, "damaged (--partial keeps its intact runs)"
        return WHOLE, None

    def finish(self):
        """Labels, the comparisons and the keys some logs lack, once every log is in."""
        label_machines(list(self.machines.values()))
        machines = list(self.machines.values())
        by_exp = collections.OrderedDict()
        by_xsu = collections.OrderedDict()
        for m in machines:
            for name, tally in m.experiments.items():
                by_exp.setdefault(name, collections.OrderedDict())[m.label] = tally
            for xsu, tally in m.surveys.items():
                by_xsu.setdefault(xsu, collections.OrderedDict())[m.label] = tally
        # A lone machine of several logs is shown too: its repetitions combined, with their
        # spread (issue 26); beside other machines, each is.
        repeated = [m.label for m in machines if len(m.logs) > 1] if len(machines) == 1 else []
        self.experiments, self.single_experiments = pmu_compare_runs.compare(by_exp, repeated)
        self.surveys = pmu_compare_survey.compare(by_xsu, repeated)
        self.differences = key_differences(self.compared_logs())
        return self

    def compared_logs(self):
        return [e for e in self.logs if e.use in (WHOLE, PARTIAL)]

    def left_out(self):
        return [e for e in self.logs if e.use in (LEFT_OUT, DUPLICATE)]

    @property
    def exit_code(self):
        return worst_exit([e.exit_code for e in self.logs])

    def machine(self, label):
        return next(m for m in self.machines.values() if m.label == label)


# ---- command lines ------------------------------------------------------------------------------

def config_value(config, key):
    """A config value as the labels and notes write it ("-" where the boot record has none)."""
    value = config.get(key, "-")
    return "null" if value is None else str(value)


def config_differences(logs, keys=None):
    """[(key, [(value, [source, ...]), ...])]: each config key (of keys, else every one) whose
    value differs among the logs, its values in the order the logs are given."""
    found = []
    names = keys or sorted(set().union(*(e.config for e in logs)) if logs else set())
    for key in names:
        values = collections.OrderedDict()
        for e in logs:
            values.setdefault(config_value(e.config, key), []).append(e.source)
        if len(values) > 1:
            found.append((key, list(values.items())))
    return found


# ---- the keys some logs carry and others do not -------------------------------------------------

def key_differences(logs):
    """[(record type, key or None, [sources that lack it])]: a key the contract says every record
    of its type holds (or one it does not know, of a newer kernel) that some logs' records of
    that type hold and others' do not; None for a record type some logs have no record of."""
    found = []
    for type_name in COMPARED_TYPES:
        having = [e for e in logs if e.keys[type_name]]
        if having and len(having) < len(logs):
            found.append((type_name, None, [e.source for e in logs if not e.keys[type_name]]))
        spec = pmu_schema.RECORDS[type_name]
        keys = set().union(*(e.keys[type_name] for e in having)) if having else set()
        for key in sorted(keys - {"type"}):
            if key in spec.specs and key not in spec.always:
                continue  # an optional key: absent where the run did not need it
            lacking = [e.source for e in having if key not in e.keys[type_name]]
            if lacking:
                found.append((type_name, key, lacking))
    return found


# ---- labels -------------------------------------------------------------------------------------

def base_label(m):
    """The microarchitecture the kernel chose, or the CPU's family and model."""
    uarch = (m.first.pmu or {}).get("uarch")
    if uarch and uarch != "unknown":
        return uarch
    cpu = (m.first.boot or {}).get("cpu") or {}
    if isinstance(cpu.get("model"), int):
        return "family %s model 0x%x" % (cpu.get("family"), cpu["model"])
    return "unknown CPU"


def _attributes(m):
    """What may tell apart machines of one microarchitecture, in words."""
    boot = m.first.boot or {}
    cpu = boot.get("cpu") or {}
    microcode = boot.get("microcode")
    return ["stepping %s" % cpu.get("stepping"),
            "microcode %s" % ("0x%x" % microcode if isinstance(microcode, int) else microcode
                              or "unknown"),
            "under %s" % cpu["hypervisor"] if cpu.get("hypervisor") else "bare metal",
            "kernel %s" % m.first.version] + [
                "%s=%s" % (k, config_value(m.first.config, k)) for k in FIGURE_KEYS]


def label_machines(machines):
    """A short, unique label per machine: its microarchitecture, what tells it apart from
    another of the same where there is one, and "(model)" or "(no PMU)" where no count is a
    measurement (issue 16: a model log never reads like a measurement)."""
    groups = collections.defaultdict(list)
    for m in machines:
        groups[(base_label(m), m.first.backend)].append(m)
    for (base, _), group in groups.items():
        attributes = [_attributes(m) for m in group]
        varying = [i for i in range(len(attributes[0]))
                   if len({a[i] for a in attributes}) > 1]
        for m, a in zip(group, attributes):
            m.label = " ".join([base] + [a[i] for i in varying])
        labels = [m.label for m in group]
        for n, m in enumerate(group):
            if labels.count(m.label) > 1:
                m.label += " #%d" % (n + 1)
    for m in machines:
        suffix = {"model": " (model)", "none": " (no PMU)"}.get(m.first.backend, "")
        m.label += suffix
