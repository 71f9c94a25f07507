"""nanoBench's performance-counter config files, read into the events the kernel programs.

    events = parse_config(text, source, usr=True, os_=False)

One event per line, as nanoBench writes them:

    EvtSel.UMASK(.CMSK=n)(.AnyT)(.EDG)(.INV)(.TakenAlone)(.CTR=n) Name

EvtSel and UMASK are hexadecimal (one or two digits, `D0.81`), CMSK and CTR decimal or `0x` hex.
The name is the rest of the line; without one the event is named by its spec, as nanoBench does.
A line whose first word starts with `#` is a comment, and so is everything from a word that starts
with `#` (the convention of the native image's cmdline.txt). Anything else is refused with the
file, the line and what is accepted: nanoBench ignores what it does not understand, which turns a
typing error into a count of the wrong event.

nanoBench's `.MSR_3F6H=`, `.MSR_PF=`, `.MSR_RSP0=` and `.MSR_RSP1=` need MSRs this kernel does not
program (the load-latency threshold of PEBS, the front-end PEBS events, the two offcore response
MSRs). Such a line is not an error: the event is kept, marked `refused` with the reason, so that
it still appears in the output without a value (issue 18: every event of a config appears). A
`.CTR=n` restriction is carried to the kernel as a counter mask.
"""

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
# Events per thread a bundle may hold (tests/owncode/bundle.h: BUNDLE_MAX_EVENTS).
MAX_EVENTS = 64
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
    """The three fixed-counter events of -fixed_counters, counting at the chosen levels."""
    ctrl = (FIXED_CTRL_USR if usr else 0) | (FIXED_CTRL_OS if os_ else 0)
    return [Event("fixed%d" % i, FIXED_NAMES[i], kind="fixed", fixed_index=i, fixed_ctrl=ctrl)
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
    """The Event of one line, None for a blank or comment line; ValueError otherwise."""
    text = strip_comment(line).strip()
    if not text:
        return None
    if not PRINTABLE_RE.fullmatch(text):
        raise ValueError("the line holds a character outside printable ASCII")
    words = text.split(None, 1)
    event = parse_spec(words[0], usr, os_)
    event.name = words[1].strip() if len(words) > 1 else words[0]
    if len(event.name) > MAX_NAME or len(event.spec) > MAX_NAME:
        raise ValueError("a name or spec longer than %d characters" % MAX_NAME)
    return event


def parse_config(text, source, usr=True, os_=False):
    """The events of a config file's text, in order; ConfigError naming source:line."""
    events = []
    for number, line in enumerate(text.splitlines(), 1):
        try:
            event = parse_line(line, usr, os_)
        except ValueError as e:
            raise ConfigError("%s line %d: %s (a line is %s)" % (source, number, e, ACCEPTED))
        if event is not None:
            events.append(event)
    if len(events) > MAX_EVENTS:
        raise ConfigError("%s: %d events, at most %d per thread" % (source, len(events),
                                                                   MAX_EVENTS))
    return events


def read_config(path, usr=True, os_=False):
    """parse_config of a file; ConfigError when it cannot be read or is not text."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ConfigError("%s: cannot read it: %s" % (path, e.strerror or e))
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise ConfigError("%s line %d: a byte outside ASCII (0x%02x)" % (path, line,
                                                                        data[e.start]))
    return parse_config(text, path, usr, os_)
