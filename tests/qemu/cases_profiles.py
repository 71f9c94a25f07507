"""Issue 18, the built-in workloads: their profiles' instructions, branches, loads and stores are
compared with a trace of their code, and the fitted shares remain only for what a trace cannot
give (docs/model.md, "Traced and fitted").

selftest=profiles traces every workload of the library three times (n units in one chunk, 2n in
one, 2n in two) and writes a `trace` record per run; tools/pmu_trace.py decodes the edges in the
ELF QEMU booted, with pmu-bench's decode table. The case holds, for every workload and for each
event a trace gives (instructions; branches: all, conditional, near call, near return, not taken,
near taken, far; loads; stores):
- a unit: the profile's figure equal to the trace's (2n - n) / n, exactly; for branchy's branches
  on random bits, instructions, not taken and taken may differ from the profile's "half of 64" by
  what the traced words did, all three by the same amount (a fall-through runs the ADD it would
  skip), within four standard deviations of the coin tosses (2 per word for n = 64);
- a chunk: the chunk profile's figure equal to the trace's (two chunks - one chunk), exactly.
What a run's entry does (a few dozen instructions once per run of hundreds of milliseconds) is
traced and shown, not modelled.
"""

import pmu_trace
from qemu_boot import PAIR
from tests.qemu.driver import Case

# The workload table (tests/workloads/workloads.c), the PMU check's callret included.
WORKLOADS = ("triad", "copy", "chase", "branchy", "alu", "idle", "callret")


def booted_elf(result):
    """The ELF QEMU booted (its -kernel argument)."""
    return result.command[result.command.index("-kernel") + 1]


def profiles_agree(result, stream):
    """Every workload traced whole, and its profiles agree with its trace."""
    workloads, problems = pmu_trace.collect(stream.usable_records(), booted_elf(result))
    assert problems == [], "\n".join(problems)
    assert tuple(workloads) == WORKLOADS, "traced %r, expected %r" % (tuple(workloads),
                                                                     WORKLOADS)
    wrong = [line for w in workloads.values() for line in pmu_trace.disagreements(w)]
    assert wrong == [], "the profiles disagree with the traces:\n" + "\n".join(wrong)
    branchy = workloads["branchy"]
    d = branchy.traced["unit"]["0x10c4"] - branchy.model["unit"]["0x10c4"]
    return "%d workloads, unit and chunk equal on %d events; branchy's words fell through " \
        "%+.2f a word against half of 64" % (len(workloads), len(pmu_trace.EVENTS), d)


def capstone_missing(build):
    try:
        import capstone  # noqa: F401
    except ImportError:
        return "python3-capstone is not installed (make test installs it: tools/deps.sh)"
    return None


CASES = [
    Case("profiles/traced", smp=PAIR, cmdline="exit=qemu selftest=profiles", timeout=120,
         requires=capstone_missing, checks=[profiles_agree],
         describe="each workload's code traced with the trap flag; its profiles against it"),
]
