"""nanoBench's performance-counter config files, read into the events the kernel programs.

    events = parse_config(text, source, usr=True, os_=False)

One event per line, as nanoBench writes them:

    EvtSel.UMASK(.CMSK=n)(.AnyT)(.EDG)(.INV)(.TakenAlone)(.CTR=n) Name

EvtSel and UMASK are hexadecimal (one or two digits, `D0.81`), CMSK and CTR decimal or `0x` hex.
The name is the rest of the line after the first blank (a space or a tab, as nanoBench splits);
without one the event is named by its spec, as nanoBench does. A line whose first word starts
with `#` is a comment, and so is everything from a word that starts with `#` (the convention of
the native image's cmdline.txt); a comment may hold any bytes (nanoBench's own configs have UTF-8
in theirs), the rest of a line is ASCII. Anything else is refused with the file, the line and
what is accepted: nanoBench ignores what it does not understand, which turns a typing error into
a count of the wrong event. Up to 2,000 events, as nanoBench.

nanoBench's configs name the CPUs they are for in their header (`# Applies to processors with
family-model in {6-3C, 6-45, 6-46}`, or `# Performance monitoring events for ...` for the older
ones and AMD's): a config for CPUs this kernel has no tables for (pmu/uarch_tables.c: Sandy Bridge
to Skylake and their server parts, and Ice Lake, whose counters it drives) is refused naming the
CPU, and so is an AMD event select (three hex digits).

nanoBench's `.MSR_3F6H=`, `.MSR_PF=`, `.MSR_RSP0=` and `.MSR_RSP1=` need MSRs this kernel does not
program (the load-latency threshold of PEBS, the front-end PEBS events, the two offcore response
MSRs). Such a line is not an error: the event is kept, marked `refused` with the reason, so that
it still appears in the output without a value (issue 18: every event of a config appears). A
`.CTR=n` restriction is carried to the kernel as a counter mask.
"""

import os
import re

# IA32_PERFEVTSELx (SDM vol. 3B, 18.2.1.1, figure 18-1).
EVTSEL_USR = 1 << 16
EVTSEL_OS = 1 << 17
EVTSEL_EDGE = 1 << 18
EVTSEL_ANY = 1 << 21
EVTSEL_EN = 1 << 22
EVTSEL_INV = 1 << 23
EVTSEL_CMASK_SHIFT = 24

# IA32_FIXED_CTR_CTRL's four bits per fixed counter (SDM vol. 3B, 18.2.2, figure 18-2).
FIXED_CTRL_OS = 0x1
FIXED_CTRL_USR = 0x2

# The fixed counters as nanoBench names them in its output (-fixed_counters), in counter order:
# INST_RETIRED.ANY, CPU_CLK_UNHALTED.THREAD, CPU_CLK_UNHALTED.REF_TSC (SDM vol. 3B, table 18-2).
FIXED_NAMES = ("Instructions retired", "Core cycles", "Reference cycles")

# GP counters a .CTR= may name: IA32_PMC0-7 (8 per core with HT off, 4 per thread with HT on).
MAX_GP_COUNTERS = 8
ANY_COUNTER = 0xFF
# Events per thread a bundle may hold (tests/owncode/bundle.h: BUNDLE_MAX_EVENTS): nanoBench's
# pfc_configs[] holds 2,000.
MAX_EVENTS = 2000
# Names and specs go into records of at most 4096 bytes (docs/records.md): keep them short.
MAX_NAME = 100

# What each MSR-based modifier would need, for the reason an event is refused.
REFUSED_MODIFIERS = {
    "MSR_3F6H": "a load-latency event: it needs PEBS and MSR_PEBS_LD_LAT_THRESHOLD (0x3F6), "
                "which this kernel does not program",
    "MSR_PF": "a front-end event: it needs PEBS and MSR_PEBS_FRONTEND (0x3F7), which this "
              "kernel does not program",
    "MSR_RSP0": "an offcore response event: it needs MSR_OFFCORE_RSP_0 (0x1A6), which this "
                "kernel does not program",
    "MSR_RSP1": "an offcore response event: it needs MSR_OFFCORE_RSP_1 (0x1A7), which this "
                "kernel does not program",
}

ACCEPTED = ("EvtSel.UMASK(.CMSK=n)(.AnyT)(.EDG)(.INV)(.TakenAlone)(.CTR=n) Name, EvtSel and "
            "UMASK in hex (00-FF), CMSK 0-255, CTR 0-7")

HEX_BYTE_RE = re.compile(r"[0-9A-Fa-f]{1,2}")
NUMBER_RE = re.compile(r"0[xX][0-9A-Fa-f]+|0|[1-9][0-9]*")
PRINTABLE_RE = re.compile(r"[\x20-\x7e]*")


class ConfigError(Exception):
    """A line nanoBench's format does not allow; the message names the file and the line."""


class Event:
    """One event of a thread's list, as the bundle carries it (docs/own-code.md, "The bundle").

    kind is "gp" (a programmable counter), "fixed" (fixed counter `fixed_index`) or "refused"
    (kept for the output, never programmed: `reason` says why)."""

    def __init__(self, spec, name, kind="gp", evtsel=0, fixed_index=0, fixed_ctrl=0,
                 counter_mask=ANY_COUNTER, alone=False, reason=None):
        self.spec = spec
        self.name = name
        self.kind = kind
        self.evtsel = evtsel
        self.fixed_index = fixed_index
        self.fixed_ctrl = fixed_ctrl
        self.counter_mask = counter_mask
        self.alone = alone
        self.reason = reason

    def fields(self):
        return (self.spec, self.name, self.kind, self.evtsel, self.fixed_index, self.fixed_ctrl,
                self.counter_mask, self.alone, self.reason)

    def __eq__(self, other):
        return isinstance(other, Event) and self.fields() == other.fields()

    def __repr__(self):
        return "Event(%r, %r, %s, evtsel=%#x)" % (self.spec, self.name, self.kind, self.evtsel)


def fixed_events(usr, os_):
    """The events of -fixed_counters, as nanoBench prints them: RDTSC (the TSC between the reads),
    then the three fixed counters, counting at the chosen levels."""
    ctrl = (FIXED_CTRL_USR if usr else 0) | (FIXED_CTRL_OS if os_ else 0)
    return [Event("rdtsc", "RDTSC", kind="tsc")] + [
        Event("fixed%d" % i, FIXED_NAMES[i], kind="fixed", fixed_index=i, fixed_ctrl=ctrl)
        for i in range(len(FIXED_NAMES))]


def strip_comment(line):
    """The line without its comment: from a word that starts with '#' to the end."""
    m = re.search(r"(?:^|\s)#", line)
    return line[:m.start()] if m else line


def parse_number(text, what, low, high):
    """A decimal or 0x number in low..high; ValueError with what is accepted otherwise."""
    if not NUMBER_RE.fullmatch(text):
        raise ValueError("%s=%s: not a number (write it in decimal or as 0x hex)" % (what, text))
    value = int(text, 0)
    if not low <= value <= high:
        raise ValueError("%s=%s: out of range (%d..%d)" % (what, text, low, high))
    return value


def parse_spec(spec, usr, os_):
    """An Event of the spec `EvtSel.UMASK(.mods)` with the name left empty; ValueError saying
    what is wrong."""
    parts = spec.split(".")
    if len(parts) < 2:
        raise ValueError("%s: no UMASK (the spec is EvtSel.UMASK, both hex, e.g. D0.81)" % spec)
    if re.fullmatch(r"[0-9A-Fa-f]{3}", parts[0]):
        raise ValueError("%s: a three-digit event select is AMD's (nanoBench's configs for AMD "
                         "Family 17h, Zen): this kernel programs Intel's IA32_PERFEVTSELx, "
                         "whose event select is one byte" % spec)
    for what, part in (("EvtSel", parts[0]), ("UMASK", parts[1])):
        if not HEX_BYTE_RE.fullmatch(part):
            raise ValueError("%s: %s %r is not a hex byte (00-FF)" % (spec, what, part))
    evtsel = int(parts[0], 16) | int(parts[1], 16) << 8 | EVTSEL_EN
    evtsel |= (EVTSEL_USR if usr else 0) | (EVTSEL_OS if os_ else 0)
    event = Event(spec, "")
    seen = set()
    for mod in parts[2:]:
        key = mod.split("=", 1)[0]
        if key in seen:
            raise ValueError("%s: .%s given twice" % (spec, key))
        seen.add(key)
        evtsel = apply_modifier(spec, mod, key, event, evtsel)
    event.evtsel = evtsel
    return event


def apply_modifier(spec, mod, key, event, evtsel):
    """One `.mod` of a spec: the new EVTSEL; sets the event's counter mask, alone flag or
    refusal."""
    flags = {"AnyT": EVTSEL_ANY, "EDG": EVTSEL_EDGE, "INV": EVTSEL_INV}
    if mod in flags:
        return evtsel | flags[mod]
    if mod == "TakenAlone":
        event.alone = True
        return evtsel
    value = mod.split("=", 1)[1] if "=" in mod else None
    if key == "CMSK" and value is not None:
        return evtsel | parse_number(value, "CMSK", 0, 255) << EVTSEL_CMASK_SHIFT
    if key == "CTR" and value is not None:
        event.counter_mask = 1 << parse_number(value, "CTR", 0, MAX_GP_COUNTERS - 1)
        return evtsel
    if key in REFUSED_MODIFIERS and value is not None:
        parse_number(value, key, 0, 2 ** 64 - 1)
        event.kind = "refused"
        event.reason = "not programmable: " + REFUSED_MODIFIERS[key]
        return evtsel
    raise ValueError("%s: unknown modifier .%s (accepted: .CMSK=n, .AnyT, .EDG, .INV, "
                     ".TakenAlone, .CTR=n; .MSR_3F6H=, .MSR_PF=, .MSR_RSP0=, .MSR_RSP1= are "
                     "reported as not programmable)" % (spec, mod))


def parse_line(line, usr, os_):
    """The Event of one line, None for a blank or comment line; ValueError otherwise. Words are
    split at any blank, a tab as a space (nanoBench's strsep(" \\t"))."""
    text = strip_comment(line).strip()
    if not text:
        return None
    words = text.split(None, 1)
    for what, word in zip(("the event", "its name"), words):
        bad = [c for c in word if not PRINTABLE_RE.fullmatch(c) and c != "\t"]
        if bad:
            raise ValueError("%s holds %r, a character outside printable ASCII (only a comment "
                             "may)" % (what, bad[0]))
    event = parse_spec(words[0], usr, os_)
    event.name = words[1].strip().replace("\t", " ") if len(words) > 1 else words[0]
    if len(event.name) > MAX_NAME or len(event.spec) > MAX_NAME:
        raise ValueError("a name or spec longer than %d characters" % MAX_NAME)
    return event


def parse_config(text, source, usr=True, os_=False):
    """The events of a config file's text, in order; ConfigError naming source:line, or the CPU
    its header names when this kernel has no tables for it."""
    check_cpu(text, source)
    events = []
    for number, line in enumerate(text.splitlines(), 1):
        try:
            event = parse_line(line, usr, os_)
        except ValueError as e:
            raise ConfigError("%s line %d: %s (a line is %s)" % (source, number, e, ACCEPTED))
        if event is not None:
            events.append(event)
    if len(events) > MAX_EVENTS:
        raise ConfigError("%s: %d events, at most %d per thread (nanoBench's limit too)" % (
            source, len(events), MAX_EVENTS))
    return events


def read_config(path, usr=True, os_=False):
    """parse_config of a file; ConfigError when it cannot be read. A comment may hold any bytes
    (read as UTF-8, or Latin-1 where they are not); the rest of a line must be ASCII."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ConfigError("%s: cannot read it: %s" % (path, e.strerror or e))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return parse_config(text, path, usr, os_)


# ---- the CPU a config is for ------------------------------------------------------------------

UARCH_TABLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pmu",
                            "uarch_tables.c")
APPLIES_RE = re.compile(r"#\s*Applies to processors with family-model in \{([^}]*)\}")
FOR_RE = re.compile(r"#\s*Performance monitoring events for (?:processors based on )?(?:the )?"
                    r"(.+?)(?: processors| microarchitectures)?\.?\s*$")


def kernel_cpus():
    """{Intel family-6 model: display name} of the parts the kernel has tables for, read from
    pmu/uarch_tables.c (its struct uarch entries, the generic PMU aside)."""
    with open(UARCH_TABLES) as f:
        c = f.read()
    arrays = {m.group(1): [int(x, 16) for x in re.findall(r"0x([0-9a-fA-F]+)", m.group(2))]
              for m in re.finditer(r"static const uint8_t (\w+)\[\] = \{([^}]*)\}", c)}
    cpus = {}
    for m in re.finditer(r'\.display_name = "([^"]+)",\s*\.models = (\w+),', c):
        for model in arrays.get(m.group(2), []):
            cpus[model] = m.group(1)
    return cpus


def cpu_of_file(source):
    """The CPU nanoBench's file name gives (cfg_Nehalem_all_core.txt: Nehalem), or None."""
    m = re.match(r"cfg_(.+?)_(?:all|common)", os.path.basename(source))
    return m.group(1) if m else None


def header_models(text):
    """The family-6 models of the header's `Applies to processors with family-model in {...}`
    (a model with steppings, 6-55-[0-4], counts as its model), or None without the line."""
    for line in text.splitlines()[:20]:
        m = APPLIES_RE.match(line.strip())
        if m:
            return [(int(f, 16), int(x, 16)) for f, x in
                    re.findall(r"([0-9A-Fa-f]+)-([0-9A-Fa-f]+)", m.group(1))]
    return None


def check_cpu(text, source):
    """Refuses, naming the CPU, a config whose header says it is for CPUs this kernel has no
    tables for."""
    models = header_models(text)
    head = "\n".join(line for line in text.splitlines()[:5] if line.startswith("#"))
    if models is None:
        m = FOR_RE.search(head.split("\n")[0]) if head else None
        if not m:
            return
        cpu = m.group(1)
        where = "its header says so"
    else:
        known = kernel_cpus()
        if any(f == 6 and x in known for f, x in models):
            return
        cpu = cpu_of_file(source) or "these CPUs"
        where = "its header: family-model %s" % ", ".join("%X-%02X" % fm for fm in models)
    names = []
    for name in kernel_cpus().values():
        if name.split("-")[0] not in names:
            names.append(name.split("-")[0])
    raise ConfigError("%s: nanoBench's config for %s (%s), a CPU this kernel has no tables for "
                      "(it has them for %s and %s, client and server parts)" % (
                          source, cpu, where, ", ".join(names[:-1]), names[-1]))
