"""What the docs state about the code is the code's, checked on the committed sources (issue 28).

- The command line: docs/command-line.md's table has a row for every key of the two key tables
  (kernel/config.c, tests/lib/payload_config.c) and no other, each with the key's range or
  choices, its default (the word given there, parsed as the kernel parses it, is the default)
  and whether the boot record's `config` shows it; the comment block of the shipped
  boot/efi/cmdline.txt has a line for every key, with its values and default in the same way, and
  no word outside comments; docs/records.md's `config` names exactly the keys it shows.
- The GRUB menu: docs/real-machine.md's table of it is boot/grub.cfg's entries, row for row, and
  the README gives its timeout.
- Counts that follow from the tables: every "the default suite's N runs" of the docs is the number
  of runs exp=all makes in the default XSU modes (tests/experiments/experiments.c), every "N
  measurements on PART (M events" is the leak survey's on that part (survey_events.c), and a duration
  stated as "N runs of T ... at least D" is N times T.
- Examples of a deterministic tool: every `$ tools/schedsim ...` and `$ tools/pmu-report ...` of
  the docs is followed by lines the tool prints for it, in its order (`...` leaves lines out);
  pmu-report writes its files to a folder of its own.

The code's side comes from tests/style/doc_facts.c, which runs the kernel's own functions over
its tables (built by `make`; this test makes it when it is missing or out of date).
"""

import json
import os
import re
import subprocess
import tempfile
import unittest

from tests.style.test_structure import read

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FACTS = "build/host/style/doc_facts"
COMMAND_LINE = "docs/command-line.md"
CMDLINE_TXT = "boot/efi/cmdline.txt"
RECORDS = "docs/records.md"
GRUB_CFG = "boot/grub.cfg"
REAL_MACHINE = "docs/real-machine.md"

KEYS_HEADER = ["| key | values | default | in `boot.config` | meaning |",
               "| --- | --- | --- | --- | --- |"]
GRUB_HEADER = ["| entry | command line | when |", "| --- | --- | --- |"]
PREFIX = "pmu-testkernel: "

_facts = None


def run_facts(*words):
    """doc_facts's output (made first, quietly: make knows whether it is up to date)."""
    made = subprocess.run(["make", "-s", "--no-print-directory", "-C", TOP, FACTS],
                          capture_output=True, text=True, check=False)
    if made.returncode != 0:
        raise AssertionError("make %s failed:\n%s%s" % (FACTS, made.stdout, made.stderr))
    out = subprocess.run([os.path.join(TOP, FACTS), *words], capture_output=True, text=True,
                         check=True)
    return out.stdout


def facts():
    global _facts
    if _facts is None:
        _facts = json.loads(run_facts())
    return _facts


def parsed(words):
    """{word: (warnings, value)} of each word parsed alone as the kernel parses a command line."""
    if not words:
        return {}
    out = {}
    for line in run_facts(*words).splitlines():
        o = json.loads(line)
        out[o["word"]] = (o["warnings"], o["value"])
    return out


# ---- Markdown tables -----------------------------------------------------------------------------

def cells(row):
    """The cells of a table row, split at pipes that are not escaped (`a\\|b` stays one)."""
    parts = re.split(r"(?<!\\)\|", row.strip())
    return [p.strip() for p in parts[1:-1]]


def table_after(text, header):
    """The rows of the table whose header and separator are `header`, or None."""
    lines = text.split("\n")
    for i in range(len(lines) - 1):
        if lines[i:i + 2] == header:
            rows = []
            for line in lines[i + 2:]:
                if not line.startswith("|"):
                    break
                rows.append(line)
            return rows
    return None


def ticked(cell):
    """The code spans of a cell, in order."""
    return re.findall(r"`([^`]*)`", cell)


# ---- the command line ----------------------------------------------------------------------------

def alternatives(key):
    """The values a key's line must list: its choices, or its accepted text's alternatives."""
    if key["choices"]:
        return key["choices"]
    if key["kind"] in ("serial-port", "baud", "core"):
        return key["accepted"].split(" (")[0].split("|")
    return None


def range_text(key):
    return "%d-%d" % (key["min"], key["max"])


def values_problem(key, values):
    """Why a values cell (Markdown, in code spans) does not say what the table takes, or None."""
    if key["kind"] == "uint":
        return None if values == range_text(key) else "values %r, not %s" % (
            values, range_text(key))
    want = alternatives(key)
    if want is None:
        return None  # names the payload checks at boot (experiments, workloads, events)
    got = [t.strip() for t in ticked(values) if re.fullmatch(r"[\w.-]+", t)]
    if key["kind"] == "core":
        got += re.findall(r"\b\d+-\d+\b", re.sub(r"`[^`]*`", "", values))
    if sorted(set(got)) != sorted(set(want)):
        return "values %s, not %s" % (sorted(set(got)), sorted(set(want)))
    return None


NOT_GIVEN = "not given"  # how a page writes the default of a key that is empty until given


def default_word(cell):
    """What a default cell gives as the default: its first code span, or "" when it says the key
    is not given."""
    if cell.startswith(NOT_GIVEN):
        return ""
    spans = ticked(cell)
    return spans[0] if spans else None


def key_rows(text):
    """{key: (values, default, recorded)} of docs/command-line.md's table, and the keys that have
    more than one row."""
    rows = table_after(text, KEYS_HEADER) or []
    found, twice = {}, []
    for row in rows:
        c = cells(row)
        if len(c) != 5:
            twice.append("a row of %d cells: %s" % (len(c), row[:60]))
            continue
        for name in ticked(c[0]):
            if name in found:
                twice.append(name)
            found[name] = (c[1], c[2], c[3])
    return found, twice


TXT_KEY = re.compile(r"^#   ([a-z0-9_]+)=(\S+)(.*)$")
TXT_MORE = re.compile(r"^# {5,}(\S.*)$")  # a key's line continued
TXT_DEFAULT = re.compile(r"\(default ([^)]*)\)\s*$")


def txt_lines(text):
    """{key: (values, default)} of cmdline.txt's comment block of keys: `#   key=VALUES ...`,
    continued on lines indented further, ending with `(default D)` (D a value or "not given...");
    the keys listed twice, and the words outside comments."""
    entries, twice, words = [], [], []
    for line in text.split("\n"):
        if not line.lstrip().startswith("#"):
            words += line.split("#", 1)[0].split()
        m, more = TXT_KEY.match(line), TXT_MORE.match(line)
        if m:
            twice += [m.group(1)] if m.group(1) in [e[0] for e in entries] else []
            entries.append([m.group(1), m.group(2), m.group(3)])
        elif more and entries:
            entries[-1][2] += " " + more.group(1)
    found = {}
    for name, values, rest in entries:
        m = TXT_DEFAULT.search(rest)
        found[name] = (values, m.group(1) if m else None)
    return found, twice, words


def txt_values_problem(key, values):
    """As values_problem, for cmdline.txt's VALUES: alternatives split by '|' (a set's also by
    ','), a range as MIN-MAX; other kinds are a placeholder."""
    if key["kind"] == "uint":
        return None if values == range_text(key) else "values %r, not %s" % (
            values, range_text(key))
    want = alternatives(key)
    if want is None:
        return None
    got = re.split(r"[|,]", values)
    if sorted(set(got)) != sorted(set(want)):
        return "values %s, not %s" % (sorted(set(got)), sorted(set(want)))
    return None


def default_problems(keys, given):
    """given: {key name: the default word a page gives}. What does not parse to the default."""
    words = {name: "%s=%s" % (name, word) for name, word in given.items() if word}
    results = parsed(sorted(words.values()))
    problems = []
    for name, word in sorted(given.items()):
        key = keys[name]
        if word is None:
            problems.append("%s: no default given" % name)
        elif not word:
            if key["default"] != "":
                problems.append("%s: default given as %s, but it is %s"
                                % (name, NOT_GIVEN, key["default"]))
        else:
            warnings, value = results[words[name]]
            if warnings or value != key["default"]:
                problems.append("%s: default %r gives %r (%d warnings), the default is %r"
                                % (name, word, value, warnings, key["default"]))
    return problems


def command_line_problems(keys, text):
    """Why docs/command-line.md's table is not the key tables'."""
    rows, twice = key_rows(text)
    problems = ["%s: more than one row" % t for t in twice]
    problems += ["%s: no row" % k for k in sorted(set(keys) - set(rows))]
    problems += ["%s: a row, but no such key" % k for k in sorted(set(rows) - set(keys))]
    given = {}
    for name in sorted(set(rows) & set(keys)):
        values, default, recorded = rows[name]
        why = values_problem(keys[name], values)
        if why:
            problems.append("%s: %s" % (name, why))
        if recorded != ("yes" if keys[name]["recorded"] else "no"):
            problems.append("%s: in boot.config %r, but the table says %s"
                            % (name, recorded, keys[name]["recorded"]))
        given[name] = default_word(default)
    return problems + default_problems(keys, given)


def cmdline_txt_problems(keys, text):
    """Why the shipped cmdline.txt's comment block does not list the key tables."""
    lines, twice, words = txt_lines(text)
    problems = ["%s: more than one line" % t for t in twice]
    problems += ["a word outside the comments: %s" % w for w in words]
    problems += ["%s: no line" % k for k in sorted(set(keys) - set(lines))]
    problems += ["%s: a line, but no such key" % k for k in sorted(set(lines) - set(keys))]
    given = {}
    for name in sorted(set(lines) & set(keys)):
        values, default = lines[name]
        why = txt_values_problem(keys[name], values)
        if why:
            problems.append("%s: %s" % (name, why))
        if default is None:
            given[name] = None
        else:
            given[name] = "" if default.startswith(NOT_GIVEN) else default.split()[0]
    return problems + default_problems(keys, given)


def records_config_problems(keys, text):
    """Why docs/records.md's row of boot.config does not name exactly the keys it shows."""
    row = next((line for line in text.split("\n") if line.startswith("| `config` |")), None)
    if row is None:
        return ["%s has no row of `config`" % RECORDS]
    named = set(ticked(row)) & set(keys)
    shown = {k for k, v in keys.items() if v["recorded"]}
    return (["%s: shown in boot.config, not in the row" % k for k in sorted(shown - named)] +
            ["%s: in the row, not shown in boot.config" % k for k in sorted(named - shown)])


# ---- the GRUB menu -------------------------------------------------------------------------------

ENTRY = re.compile(r'^\s*menuentry\s+"([^"]*)"([^{]*)\{\n(.*?)^\s*\}', re.M | re.S)
EFI_BLOCK = re.compile(r'^\s*if \[ "\$grub_platform" = "efi" \]; then\n.*?^\s*fi\b', re.M | re.S)


def grub_menu(text):
    """(timeout, [(title, command line or None, default, efi only, hotkey)]) of a grub.cfg."""
    timeout = int(re.search(r"^set timeout=(\d+)", text, re.M).group(1))
    default = int(re.search(r"^set default=(\d+)", text, re.M).group(1))
    efi = [m.span() for m in EFI_BLOCK.finditer(text)]
    entries = []
    for m in ENTRY.finditer(text):
        efi_only = any(start < m.start() < end for start, end in efi)
        hotkey = re.search(r"--hotkey=(\S+)", m.group(2))
        boot = re.search(r"^\s*(?:multiboot2|chainloader)\s+\S+\s*(.*)$", m.group(3), re.M)
        entries.append((m.group(1), boot.group(1).strip() if boot else None,
                        len(entries) == default, efi_only, hotkey.group(1) if hotkey else None))
    return timeout, entries


def grub_rows(timeout, entries):
    """docs/real-machine.md's table of the menu, as it must read."""
    rows = []
    for title, line, default, efi_only, hotkey in entries:
        when = []
        if default:
            when.append("the default, after %d s" % timeout)
        if efi_only:
            when.append("under UEFI only")
        if hotkey:
            when.append("hotkey `%s`" % hotkey)
        name = title[len(PREFIX):] if title.startswith(PREFIX) else title
        rows.append("| %s | %s | %s |" % (name, "`%s`" % line if line else "none",
                                          ", ".join(when) or "-"))
    return rows


# ---- counts --------------------------------------------------------------------------------------

SUITE_RUNS = re.compile(r"(?:default suite(?:'s| of| has| makes)?|suite's|suite of) (\d+) runs")
DURATION = re.compile(r"(\d+) (runs|measurements) of (\d+(?:\.\d+)?) (ms|s)\b[^.]*?at least "
                      r"(?:(\d+) min )?(\d+(?:\.\d+)?) s\b")


def pages():
    docs = os.path.join(TOP, "docs")
    return ["README.md"] + sorted("docs/" + f for f in os.listdir(docs) if f.endswith(".md"))


def flat(text):
    """A page's text with its lines joined, so that a phrase may break across lines."""
    return re.sub(r"\s*\n\s*", " ", text)


def survey_pattern(survey):
    names = sorted({p["display_name"] for p in survey}, key=len, reverse=True)
    return re.compile(r"(\d+) measurements (?:of \d+ m?s )?on (%s)\b(?: \((\d+) events)?"
                      % "|".join(re.escape(n) for n in names))


def count_problems(texts, suite_runs, survey):
    """{page: text} against the counts: the suite's runs, the survey's measurements by part, the
    durations N x T. Returns (problems, how many statements were checked of each kind)."""
    by_name = {p["display_name"]: p["measurements"] for p in survey}
    events = {p["display_name"]: p["events"] for p in survey}
    pattern = survey_pattern(survey)
    problems, seen = [], {"runs": 0, "measurements": 0, "durations": 0}
    for page, text in sorted(texts.items()):
        text = flat(text)
        for m in SUITE_RUNS.finditer(text):
            seen["runs"] += 1
            if int(m.group(1)) != suite_runs:
                problems.append("%s: %r, but the default suite has %d runs"
                                % (page, m.group(0), suite_runs))
        for m in pattern.finditer(text):
            seen["measurements"] += 1
            if int(m.group(1)) != by_name[m.group(2)]:
                problems.append("%s: %r, but the survey makes %d on %s"
                                % (page, m.group(0), by_name[m.group(2)], m.group(2)))
            if m.group(3) and int(m.group(3)) != events[m.group(2)]:
                problems.append("%s: %r, but the survey has %d events on %s"
                                % (page, m.group(0), events[m.group(2)], m.group(2)))
        for m in DURATION.finditer(text):
            seen["durations"] += 1
            each = float(m.group(3)) / (1000 if m.group(4) == "ms" else 1)
            stated = int(m.group(5) or 0) * 60 + float(m.group(6))
            if abs(int(m.group(1)) * each - stated) > 0.05:
                problems.append("%s: %r, but %s x %s%s is %.1f s" % (
                    page, m.group(0), m.group(1), m.group(3), m.group(4),
                    int(m.group(1)) * each))
    return problems, seen


# ---- examples of a deterministic tool --------------------------------------------------------

# The command, then its indented block: blank lines within it too (pmu-report prints some).
EXAMPLE = re.compile(r"^    \$ (tools/(?:schedsim|pmu-report)(?: .*)?)\n((?:(?:    .*)?\n)*)",
                     re.M)


def examples(text):
    """[(command, [the lines shown after it, "..." left out])] of a page."""
    return [(m.group(1), [line[4:] for line in m.group(2).split("\n")
                          if line.strip() and line.strip() != "..."])
            for m in EXAMPLE.finditer(text)]


def example_problem(shown, printed):
    """The first line shown that the tool did not print at that place, or None: the lines shown
    must be the tool's, in its order."""
    at = 0
    for line in shown:
        try:
            at = printed.index(line, at) + 1
        except ValueError:
            return line
    return None


def run_example(command):
    """A documented command as a reader runs it, pmu-report's files in a folder of their own."""
    with tempfile.TemporaryDirectory(prefix="doc-example-") as folder:
        words = command.split()
        if words[0] == "tools/pmu-report":
            words += ["--out", os.path.join(folder, "results")]
        return subprocess.run(words, cwd=TOP, capture_output=True, text=True, check=False,
                              env=dict(os.environ, MPLCONFIGDIR=os.path.join(folder, "mpl")))


class DocFacts(unittest.TestCase):
    def setUp(self):
        self.facts = facts()
        self.keys = {k["name"]: k for k in self.facts["keys"]}

    def test_the_key_tables_are_read(self):
        self.assertEqual(len(self.keys), len(self.facts["keys"]), "a key in both tables")
        self.assertGreaterEqual(len(self.keys), 26)
        self.assertIn("survey_work", self.keys)
        self.assertEqual(self.keys["xsu"]["default"], "off,on,core")

    def test_the_command_line_page_is_the_key_tables(self):
        text = read(COMMAND_LINE)
        self.assertIsNotNone(table_after(text, KEYS_HEADER), "%s has no table headed %s"
                             % (COMMAND_LINE, KEYS_HEADER[0]))
        self.assertEqual(command_line_problems(self.keys, text), [])

    def test_the_shipped_cmdline_txt_lists_every_key(self):
        self.assertEqual(cmdline_txt_problems(self.keys, read(CMDLINE_TXT)), [])

    def test_records_md_names_the_keys_boot_config_shows(self):
        self.assertEqual(records_config_problems(self.keys, read(RECORDS)), [])

    def test_the_grub_table_is_grub_cfg(self):
        timeout, entries = grub_menu(read(GRUB_CFG))
        self.assertGreaterEqual(len(entries), 10)
        want = GRUB_HEADER + grub_rows(timeout, entries)
        got = GRUB_HEADER + (table_after(read(REAL_MACHINE), GRUB_HEADER) or [])
        self.assertEqual(got, want, "%s's table of the GRUB menu is not %s's; it reads:\n%s"
                         % (REAL_MACHINE, GRUB_CFG, "\n".join(want)))
        self.assertIn("after %d s" % timeout, flat(read("README.md")),
                      "the README does not give the menu's timeout")

    def test_the_counts_the_docs_state_are_the_tables(self):
        suite = self.facts["suite"]
        self.assertEqual(suite["selection"], "all")
        self.assertEqual(suite["runs"], sum(e["runs"] for e in suite["experiments"]))
        problems, seen = count_problems({p: read(p) for p in pages()}, suite["runs"],
                                        self.facts["survey"])
        self.assertEqual(problems, [])
        self.assertGreaterEqual(seen["runs"], 2, "no page states the default suite's runs")
        self.assertGreaterEqual(seen["measurements"], 1, "no page states the survey's count")
        self.assertGreaterEqual(seen["durations"], 2, "no duration N x T is stated")

    def test_the_tool_examples_are_their_output(self):
        found = [(page, c, shown) for page in pages() for c, shown in examples(read(page))]
        self.assertGreaterEqual(len(found), 3)
        self.assertIn("tools/pmu-report", [c.split()[0] for _, c, _ in found])
        problems = []
        for page, command, shown in found:
            out = run_example(command)
            why = example_problem(shown, out.stdout.split("\n"))
            if out.returncode != 0 or why:
                problems.append("%s: %s: %r not printed (exit %d)" % (page, command, why,
                                                                      out.returncode))
        self.assertEqual(problems, [])


class TheChecksThemselves(unittest.TestCase):
    """Each check must catch what it is there for."""

    def setUp(self):
        self.keys = {k["name"]: k for k in facts()["keys"]}

    def test_a_key_added_to_a_table_without_its_row_and_line_is_found(self):
        keys = dict(self.keys, fan_ms=dict(self.keys["mux_ms"], name="fan_ms"))
        self.assertEqual(command_line_problems(keys, read(COMMAND_LINE)), ["fan_ms: no row"])
        self.assertEqual(cmdline_txt_problems(keys, read(CMDLINE_TXT)), ["fan_ms: no line"])

    def test_a_row_that_says_otherwise_is_found(self):
        text = read(COMMAND_LINE)
        row = next(r for r in table_after(text, KEYS_HEADER) if r.startswith("| `mux_ms` |"))
        wrong = row.replace("| 1-1000 | `1` | yes |", "| 1-100 | `4` | no |")
        self.assertNotEqual(row, wrong)
        self.assertEqual(command_line_problems(self.keys, text.replace(row, wrong)),
                         ["mux_ms: values '1-100', not 1-1000",
                          "mux_ms: in boot.config 'no', but the table says True",
                          "mux_ms: default '4' gives '4' (0 warnings), the default is '1'"])
        xsu = next(r for r in table_after(text, KEYS_HEADER) if r.startswith("| `xsu` |"))
        self.assertEqual(command_line_problems(
            self.keys, text.replace(xsu, xsu.replace("`core`", "`coré`", 1))),
            ["xsu: values ['all', 'both', 'coré', 'off', 'on'], not "
             "['all', 'both', 'core', 'off', 'on']"])

    def test_a_cmdline_txt_that_says_otherwise_is_found(self):
        text = "#   mux_ms=1-100   tick   (default 1)\n#   xsu=off|on|both   modes   " \
               "(default both)\nsched=hk\n"
        keys = {k: self.keys[k] for k in ("mux_ms", "xsu", "sched")}
        self.assertEqual(cmdline_txt_problems(keys, text),
                         ["a word outside the comments: sched=hk", "sched: no line",
                          "mux_ms: values '1-100', not 1-1000",
                          "xsu: values ['both', 'off', 'on'], not "
                          "['all', 'both', 'core', 'off', 'on']",
                          "xsu: default 'both' gives 'off,on' (0 warnings), the default is "
                          "'off,on,core'"])

    def test_a_records_row_without_a_key_is_found(self):
        row = "| `config` | object | `exp`, `xsu`, `serial` |"
        keys = {k: self.keys[k] for k in ("exp", "xsu", "serial", "bench_ms")}
        self.assertEqual(records_config_problems(keys, row),
                         ["bench_ms: shown in boot.config, not in the row",
                          "serial: in the row, not shown in boot.config"])

    def test_the_grub_menu_is_read(self):
        cfg = ("set timeout=7\nset default=1\n"
               'menuentry "pmu-testkernel: a" {\n\tmultiboot2 /boot/k.elf exp=all\n\tboot\n}\n'
               'menuentry "pmu-testkernel: b" --hotkey=b {\n\tmultiboot2 /boot/k.elf exp=none'
               '\n\tboot\n}\n'
               'if [ "$grub_platform" = "efi" ]; then\n'
               '\tmenuentry "pmu-testkernel: c" --hotkey=u {\n'
               '\t\tchainloader /boot/k.efi exp=all xsu=on\n\t\tboot\n\t}\nfi\n'
               'menuentry "Reboot" {\n\treboot\n}\n')
        timeout, entries = grub_menu(cfg)
        self.assertEqual(grub_rows(timeout, entries),
                         ["| a | `exp=all` | - |",
                          "| b | `exp=none` | the default, after 7 s, hotkey `b` |",
                          "| c | `exp=all xsu=on` | under UEFI only, hotkey `u` |",
                          "| Reboot | none | - |"])

    def test_a_count_that_differs_is_found(self):
        survey = [{"display_name": "Haswell", "measurements": 153, "events": 23},
                  {"display_name": "Haswell-EP", "measurements": 174, "events": 26}]
        texts = {"a.md": "The default suite's 37 runs of 10 s measure for at least 6 min 10 s.",
                 "b.md": "the suite of 46\nruns; 153 measurements of 100 ms on Haswell-EP take "
                         "at least 15.3 s; 153 measurements on Haswell (22 events: ...)"}
        problems, seen = count_problems(texts, 37, survey)
        self.assertEqual(problems, [
            "b.md: 'suite of 46 runs', but the default suite has 37 runs",
            "b.md: '153 measurements of 100 ms on Haswell-EP', but the survey makes 174 on "
            "Haswell-EP",
            "b.md: '153 measurements on Haswell (22 events', but the survey has 23 events on "
            "Haswell"])
        self.assertEqual(seen, {"runs": 2, "measurements": 2, "durations": 2})
        problems, _ = count_problems({"c.md": "37 runs of 500 ms, at least 20 s"}, 37, survey)
        self.assertEqual(problems, ["c.md: '37 runs of 500 ms, at least 20 s', but 37 x 500ms "
                                    "is 18.5 s"])

    def test_an_example_that_differs_is_found(self):
        page = ("text\n\n    $ tools/schedsim -n 5 -e x\n    ...\n    a 1\n    b 2\n\nmore\n")
        self.assertEqual(examples(page), [("tools/schedsim -n 5 -e x", ["a 1", "b 2"])])
        self.assertIsNone(example_problem(["a 1", "b 2"], ["head", "a 1", "x", "b 2", ""]))
        self.assertEqual(example_problem(["a 1", "b 2"], ["b 2", "a 1"]), "b 2")
        self.assertEqual(example_problem(["a 1"], ["a 1.0"]), "a 1")

    def test_an_example_goes_on_past_a_blank_line_to_its_paragraphs_end(self):
        page = ("    $ tools/pmu-report a.log b.log\n    x\n\n    y\n\nsaid\n\n    z\n")
        self.assertEqual(examples(page), [("tools/pmu-report a.log b.log", ["x", "y"])])



if __name__ == "__main__":
    unittest.main()
