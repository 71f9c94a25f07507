"""Configuration files in nanoBench's format, written here from Intel's data as the repository holds
it (pmu/intel_core_events.txt), so that the tests of tools/pmu-bench need no file of nanoBench's:
one line per event of a part, `EvtSel.UMASK` and its modifiers (.CMSK=, .INV, .EDG, .AnyT,
.TakenAlone, .CTR= for an event Intel allows on one counter only, .MSR_3F6H=/.MSR_PF=/.MSR_RSP0=
for the events that need an MSR), a comment before each (in UTF-8, with a character outside ASCII,
as nanoBench's own have), a tab between the spec and the name on every other line, and the header
nanoBench's configs begin with, which names the CPUs a file is for."""

import os

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EVENTS = os.path.join(TOP, "pmu", "intel_core_events.txt")
MSR_MODIFIER = {"0x3f6": "MSR_3F6H", "0x3f7": "MSR_PF", "0x1a6": "MSR_RSP0"}
# The family-6 models of each part (pmu/uarch_tables.c), for the header.
MODELS = {"sandybridge": ("2A",), "ivybridge": ("3A",), "haswell": ("3C", "45", "46"),
          "skylake": ("4E", "5E", "8E", "9E", "A5", "A6")}


def events(part):
    """Intel's events of a part: (name, fields) of each line of pmu/intel_core_events.txt."""
    with open(EVENTS) as f:
        for line in f:
            fields = line.split()
            if fields and fields[0] == part and len(fields) >= 17:
                yield fields[1], fields


def spec(fields):
    """The nanoBench spec of one event line, or None for a fixed-counter-only event."""
    (event, umask, cmask, inv, edge, any_, counters, _, _, taken_alone, _, msr,
     msr_value) = fields[2:15]
    if counters.startswith("fixed"):
        return None
    text = "%02X.%02X" % (int(event.split(",")[0], 16), int(umask, 16))
    text += ".CMSK=%d" % int(cmask) if int(cmask) else ""
    text += "".join(m for m, on in ((".INV", inv), (".EDG", edge), (".AnyT", any_)) if on == "1")
    if "," not in counters:
        text += ".CTR=%s" % counters
    if msr != "-":
        text += ".%s=%s" % (MSR_MODIFIER[msr.split(",")[0]], msr_value.split(",")[0])
    if taken_alone == "1":
        text += ".TakenAlone"
    return text


def write(part, path, models=None):
    """A config of every event of the part into path; the number of events."""
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        f.write("# Written from Intel\u2019s data (pmu/intel_core_events.txt) by the tests\n")
        f.write("# Applies to processors with family-model in {%s}\n\n" % ", ".join(
            "6-" + m for m in (models or MODELS[part])))
        for name, fields in events(part):
            s = spec(fields)
            if s is None:
                continue
            f.write("# %s \u2014 event %s\n%s%s%s\n\n" % (name, n, s, "\t" if n % 2 else " ",
                                                        name))
            n += 1
    return n
