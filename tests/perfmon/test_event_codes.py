"""Event codes held against Intel's data: wherever the code, the tests, the docs or the logs name
an event by its code beside its name, the code is the one pmu/intel_core_events.txt gives that
name on some part (its event select and unit mask), so that a swapped pair such as `20.CC` for
ROB_MISC_EVENTS.LBR_INSERTS (event 0xCC, unit mask 0x20: nanoBench's `CC.20`) cannot come back.

The forms an event is named in (the name is Intel's, with `.` or libpfm4's `:`; a bare second half,
`LBR_INSERTS`, where it is one event's alone):
  nanoBench's spec before the name, `CC.20 ROB_MISC_EVENTS.LBR_INSERTS` (event first), also as a
  bench_result record's "event" and "name";
  Linux's raw code after the name, `ROB_MISC_EVENTS.LBR_INSERTS (0x20cc)` or `(r20cc` (unit mask
  first), also as a count record's "code" and "name", and libpfm4's `{ "NAME", 0x20cc`;
  C tables, `{ 0xcc, 0x20, "NAME"` and `.event = 0xcc, .umask = 0x20, ... /* NAME */`;
  prose, `NAME (event 0xCC, unit mask 0x20)`.
"""

import os
import re
import subprocess
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(TOP, "pmu", "intel_core_events.txt")
# Where events are named by code: everything committed but Intel's table itself and the tests of
# its import, whose inputs are made up on purpose, and this file's own examples.
FOLDERS = ("README.md", "docs", "kernel", "pmu", "tests", "tools", "boot")
# And the log of a kernel from before its event names came from Intel's data, which the
# comparison of machines reads as that kernel wrote it (its MEM_TRANS_RETIRED:LOAD_LATENCY).
SKIP = {"pmu/intel_core_events.txt", "tests/perfmon/test_perfmon_import.py",
        "tests/perfmon/test_event_codes.py", "tests/report/data/compare/haswell-kernel-5d3ed0c.log"}
TEXT_SUFFIXES = (".c", ".h", ".py", ".md", ".cfg", ".log", ".s", ".asm", ".inc", ".mk", ".txt")

NAME = r"[A-Z][A-Z0-9_]*(?:[.:][A-Z0-9_]+)+|[A-Z][A-Z0-9]*_[A-Z0-9_]+"
HEX2 = r"([0-9A-Fa-f]{2})"
GAP = r"(?:\s|\n\s*[*#])*"  # blanks, and a comment's continuation
# (pattern, the groups of event, umask and name)
FORMS = (
    # nanoBench: EE.UU(.modifiers) NAME
    (re.compile(r"(?<![0-9A-Za-z.])" + HEX2 + r"\." + HEX2 + r"(?:\.[A-Za-z0-9_=]+)*[ \t]+(" +
                NAME + r")\b"), (1, 2, 3)),
    # a bench_result record: "event":"EE.UU...","name":"NAME"
    (re.compile(r'"event":\s*"' + HEX2 + r"\." + HEX2 + r'[^"]*",\s*"name":\s*"(' + NAME +
                r')"'), (1, 2, 3)),
    # Linux: NAME (0xUUEE or NAME (rUUEE
    (re.compile(r"\b(" + NAME + r")\s*\(\s*(?:0x|r)" + HEX2 + HEX2 + r"\b"), (3, 2, 1)),
    # a count record: "code":"0xUUEE","name":"NAME"
    (re.compile(r'"code":\s*"0x' + HEX2 + HEX2 + r'",\s*"name":\s*"(' + NAME + r')"'),
     (2, 1, 3)),
    # libpfm4's tables: { "NAME", 0xUUEE
    (re.compile(r'"(' + NAME + r')",\s*0x' + HEX2 + HEX2 + r"\b"), (3, 2, 1)),
    # C: { 0xEE, 0xUU, "NAME"
    (re.compile(r"\{\s*0x" + HEX2 + r",\s*0x" + HEX2 + r',\s*"(' + NAME + r')"'), (1, 2, 3)),
    # C: .event = 0xEE, .umask = 0xUU, ... /* NAME */ on one line
    (re.compile(r"\.event\s*=\s*0x" + HEX2 + r",\s*\.umask\s*=\s*0x" + HEX2 +
                r"[^\n]*?/\*\s*(" + NAME + r")\b"), (1, 2, 3)),
    # prose: NAME (event 0xEE, unit mask 0xUU  (also across a comment's lines)
    (re.compile(r"\b(" + NAME + r")" + GAP + r"\(" + GAP + r"event" + GAP + r"0x" + HEX2 +
                r"," + GAP + r"(?:unit mask|umask)" + GAP + r"0x" + HEX2), (2, 3, 1)),
)


# The architectural encodings of the fixed counters' events (SDM vol. 3B, table 18-1), which
# Intel's data gives as pseudo-codes 0x00/0x01-0x03 instead; reference cycles have none.
ARCHITECTURAL = {"fixed0": (0xC0, 0x00), "fixed1": (0x3C, 0x00)}


def intel_codes(path=TABLE):
    """Intel's name -> the set of (event, umask) it has on any part (a fixed counter's event also
    its architectural encoding), and a bare second half -> the same when only one name has
    it."""
    codes, halves = {}, {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) < 4 or line.startswith(("#", "perfmon ", "part ")):
                continue
            name, event, umask = fields[1], fields[2].split(",")[0], fields[3]
            code = (int(event, 16), int(umask, 16))
            codes.setdefault(name, set()).add(code)
            if len(fields) > 8 and fields[8] in ARCHITECTURAL:
                codes[name].add(ARCHITECTURAL[fields[8]])
            halves.setdefault(name.split(".", 1)[-1], set()).add(name)
    for half, names in halves.items():
        if len(names) == 1 and half not in codes:
            codes[half] = codes[next(iter(names))]
    return codes


def named_events(text):
    """(line number, event, umask, name as written) of every event text names by code."""
    found = set()
    for pattern, (e, u, n) in FORMS:
        for m in pattern.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found.add((line, int(m.group(e), 16), int(m.group(u), 16), m.group(n)))
    return sorted(found)


def problems(text, codes):
    """What text names wrongly: one message per event whose code is not Intel's for its name,
    or whose name Intel's data does not have."""
    out = []
    for line, event, umask, written in named_events(text):
        name = written.replace(":", ".")
        known = codes.get(name)
        if known is None:
            if "." in name:
                out.append("line %d: %s (event 0x%02X, umask 0x%02X): no such event in Intel's "
                           "data" % (line, written, event, umask))
            continue
        if (event, umask) not in known:
            want = ", ".join("%02X.%02X" % c for c in sorted(known))
            out.append("line %d: %s written as %02X.%02X (event 0x%02X, umask 0x%02X); Intel's "
                       "data has %s" % (line, written, event, umask, event, umask, want))
    return out


def committed_files():
    """The committed text files where events may be named (the working tree's, by git's list)."""
    try:
        listed = subprocess.run(["git", "ls-files", "--"] + list(FOLDERS), cwd=TOP,
                                capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        listed = []
        for folder in FOLDERS:
            for root, _, files in os.walk(os.path.join(TOP, folder)):
                listed += [os.path.relpath(os.path.join(root, f), TOP) for f in files]
    return sorted(p for p in listed if p not in SKIP and os.path.isfile(os.path.join(TOP, p)) and
                  (p.endswith(TEXT_SUFFIXES) or p.startswith("tools/")))


class Checker(unittest.TestCase):
    """The check itself: it finds each form, passes Intel's codes and names a swapped pair."""

    @classmethod
    def setUpClass(cls):
        cls.codes = intel_codes()

    def test_lbr_inserts_is_cc_20(self):
        self.assertEqual(self.codes["ROB_MISC_EVENTS.LBR_INSERTS"], {(0xCC, 0x20)})
        self.assertEqual(self.codes["LBR_INSERTS"], {(0xCC, 0x20)})

    def test_every_form_right_and_swapped(self):
        right = [
            "CC.20 ROB_MISC_EVENTS.LBR_INSERTS",
            '{"event":"CC.20","name":"ROB_MISC_EVENTS.LBR_INSERTS"}',
            "LBR_INSERTS (0x20cc, really zero)",
            "ROB_MISC_EVENTS.LBR_INSERTS (r20cc)",
            '"code":"0x20cc","name":"ROB_MISC_EVENTS.LBR_INSERTS"',
            '{ "ROB_MISC_EVENTS:LBR_INSERTS", 0x20cc, 0, false },',
            '{ 0xcc, 0x20, "ROB_MISC_EVENTS.LBR_INSERTS", FIELD(x) },',
            "{ .event = 0xcc, .umask = 0x20, .per_units = 0 }, /* ROB_MISC_EVENTS.LBR_INSERTS */",
            "ROB_MISC_EVENTS.LBR_INSERTS (event\n * 0xCC, unit mask 0x20)",
        ]
        swapped = [
            "20.CC ROB_MISC_EVENTS.LBR_INSERTS",
            '{"event":"20.CC","name":"ROB_MISC_EVENTS.LBR_INSERTS"}',
            "LBR_INSERTS (0xcc20, really zero)",
            "ROB_MISC_EVENTS.LBR_INSERTS (rcc20)",
            '"code":"0xcc20","name":"ROB_MISC_EVENTS.LBR_INSERTS"',
            '{ "ROB_MISC_EVENTS:LBR_INSERTS", 0xcc20, 0, false },',
            '{ 0x20, 0xcc, "ROB_MISC_EVENTS.LBR_INSERTS", FIELD(x) },',
            "{ .event = 0x20, .umask = 0xcc, .per_units = 0 }, /* ROB_MISC_EVENTS.LBR_INSERTS */",
            "ROB_MISC_EVENTS.LBR_INSERTS (event\n * 0x20, unit mask 0xCC)",
        ]
        for text in right:
            self.assertEqual(len(named_events(text)), 1, text)
            self.assertEqual(problems(text, self.codes), [], text)
        for text in swapped:
            found = problems(text, self.codes)
            self.assertEqual(len(found), 1, text)
            self.assertIn("Intel's data has CC.20", found[0])

    def test_a_made_up_name_is_named(self):
        found = problems("0E.01.AnyT UOPS_ISSUED.ANY_ANY_THREAD", self.codes)
        self.assertEqual(len(found), 1)
        self.assertIn("no such event", found[0])
        # A code without a name beside it, or a bare word that is no event, says nothing.
        self.assertEqual(named_events("0xD0-0xD3, D0.81 (loads), 41.00 SOMETHING"), [])

    def test_modifiers_and_many_parts(self):
        self.assertEqual(problems("48.01.CMSK=1.CTR=2 L1D_PEND_MISS.PENDING_CYCLES\n"
                                  "D0.81 MEM_INST_RETIRED.ALL_LOADS\n", self.codes), [])


class HeldAgainstIntel(unittest.TestCase):
    """Every committed file: each event it names by code has Intel's code for its name."""

    def test_every_file(self):
        codes = intel_codes()
        files = committed_files()
        self.assertIn("tests/owncode/trace.c", files)
        wrong, seen = [], 0
        for path in files:
            with open(os.path.join(TOP, path), errors="replace") as f:
                text = f.read()
            seen += len(named_events(text))
            wrong += ["%s:%s" % (path, p) for p in problems(text, codes)]
        self.assertEqual(wrong, [], "\n".join(wrong))
        # The trace's table, the profiles, the docs and the logs name hundreds.
        self.assertGreater(seen, 200)


if __name__ == "__main__":
    unittest.main()
