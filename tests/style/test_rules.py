"""The verdict rules as docs/ARCHITECTURE.md describes them ("The payload"), checked on the
committed sources.

- A rule is a short judge over data: no function of a rule file (tests/experiments/rules_*.c,
  survey_rule.c, verdict.c, rule.c, thresholds.c) is longer than 40 lines, counted as
  tests/style/test_structure.py counts (from the line of its name to its closing brace).
- The thresholds are one table, tests/experiments/thresholds.c (tests/thresholds.py reads it):
  docs/experiments.md's table of thresholds is that table, row for row, and every link of the
  docs to it that cites a threshold ("[the pace threshold (25%)](experiments.md#thresholds)")
  gives its name and value as the table does: a value in prose is a citation, not a copy.
"""

import os
import re
import subprocess
import unittest

from tests import thresholds
from tests.style.test_structure import function_lengths, read

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_RULE_FUNCTION_LINES = 40
RULE_FILES = re.compile(r"^tests/experiments/(rules_\w+|survey_rule|verdict|rule|thresholds)\.c$")
DOC = "docs/experiments.md"
HEADING = "## Thresholds"
HEADER = ["| threshold | value | rules | whose | why |", "| --- | --- | --- | --- | --- |"]
# A link to the table: [the NAME threshold (VALUE)](...#thresholds).
CITED = re.compile(r"\[([^\]]*)\]\((?:experiments\.md)?#thresholds\)")
CITATION = re.compile(r"^the (.+) threshold \(([^)]+)\)$")


def rule_files():
    out = subprocess.run(["git", "ls-files", "tests/experiments"], cwd=TOP, capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        return None
    return [f for f in out.stdout.split("\n") if RULE_FILES.match(f)]


def long_functions(files, text_of, limit=MAX_RULE_FUNCTION_LINES):
    return ["%s %s (%d lines)" % (f, name, n) for f in files
            for name, n in function_lengths(text_of(f)) if n > limit]


def rows(table):
    """docs/experiments.md's rows of the table, as they must read."""
    return ["| %s (`%s`) | %s | %s | %s | %s |"
            % (t.name, t.id, t.value_text(), t.rules, t.source_text(), t.why)
            for t in table.values()]


def documented_rows(text):
    """The table's lines under HEADING in a page: header, separator and rows."""
    lines = text.split("\n")
    if HEADING not in lines:
        return None
    start = lines.index(HEADING) + 1
    found = []
    for line in lines[start:]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            found.append(line)
    return found


def wrong_citations(text, table):
    """Links to the table that cite a threshold ("... threshold (...") otherwise than as "the NAME
    threshold (VALUE)" of one of the table."""
    by_name = {t.name: t for t in table.values()}
    wrong = []
    for m in CITED.finditer(text):
        if " threshold (" not in m.group(1):
            continue
        c = CITATION.match(m.group(1))
        t = by_name.get(c.group(1)) if c else None
        if not t or c.group(2) != t.value_text():
            wrong.append(m.group(0))
    return wrong


class Rules(unittest.TestCase):
    def setUp(self):
        self.files = rule_files()
        if self.files is None:
            self.skipTest("not a git checkout: no list of the committed sources")

    def test_rule_functions_are_short(self):
        self.assertTrue(len(self.files) >= 9, self.files)
        found = long_functions(self.files, read)
        self.assertEqual(found, [], "rule functions over %d lines: %s"
                         % (MAX_RULE_FUNCTION_LINES, found))

    def test_the_docs_table_is_the_kernels(self):
        table = thresholds.table()
        self.assertEqual(len(table), 18)  # every enum threshold_id but THRESHOLD_COUNT
        want = HEADER + rows(table)
        got = documented_rows(read(DOC))
        self.assertEqual(got, want, "%s's %s is not tests/experiments/thresholds.c's table; it "
                         "reads:\n%s" % (DOC, HEADING, "\n".join(want)))

    def test_every_citation_of_a_threshold_is_right(self):
        table = thresholds.table()
        pages = ["README.md"] + ["docs/" + f for f in sorted(os.listdir(os.path.join(TOP, "docs")))
                                 if f.endswith(".md")]
        wrong = {p: w for p in pages for w in [wrong_citations(read(p), table)] if w}
        self.assertEqual(wrong, {}, "links to the thresholds that do not name one as the table "
                         "does: %s" % wrong)


class TheChecksThemselves(unittest.TestCase):
    """Each check must catch what it is there for."""

    C_TABLE = ("const struct threshold thresholds[THRESHOLD_COUNT] = {\n"
               "\t[TH_PACE] = {\n"
               "\t\t.name = \"pace\",\n"
               "\t\t.value = 25,\n"
               "\t\t.unit = UNIT_PERCENT,\n"
               "\t\t.source = BY_BUSY_HOST,\n"
               "\t\t.rules = \"every rule\",\n"
               "\t\t.why = \"a thread's work, \"\n"
               "\t\t       \"sampled\",\n"
               "\t},\n"
               "\t[TH_HANDOVER] = {\n"
               "\t\t.name = \"handover\",\n"
               "\t\t.value = 25,\n"
               "\t\t.unit = UNIT_PER_MILLE,\n"
               "\t\t.source = BY_HARDWARE,\n"
               "\t\t.rules = \"loss\",\n"
               "\t\t.why = \"IPIs\",\n"
               "\t},\n"
               "};\n")

    def test_a_long_rule_function_is_found(self):
        body = "\n".join("\tx++;" for _ in range(38))
        text = {"tests/experiments/rules_x.c": "static void judge(void)\n{\n" + body + "\n}\n",
                "tests/experiments/rule.c": "static void ok(void)\n{\n" + body[6:] + "\n}\n"}
        self.assertEqual(long_functions(sorted(text), text.get),
                         ["tests/experiments/rules_x.c judge (41 lines)"])
        self.assertTrue(RULE_FILES.match("tests/experiments/survey_rule.c"))
        self.assertFalse(RULE_FILES.match("tests/experiments/runner.c"))

    def test_the_table_is_read_from_the_source(self):
        table = thresholds.parse(self.C_TABLE)
        self.assertEqual(list(table), ["TH_PACE", "TH_HANDOVER"])
        self.assertEqual(table["TH_PACE"].why, "a thread's work, sampled")
        self.assertEqual(table["TH_PACE"].text(), "the pace threshold (25%, a busy host's)")
        self.assertEqual(table["TH_HANDOVER"].value_text(), "2.5%")
        self.assertEqual(table["TH_HANDOVER"].percent(), 2.5)
        self.assertEqual(rows(table)[1], "| handover (`TH_HANDOVER`) | 2.5% | loss | the "
                         "hardware's | IPIs |")
        with self.assertRaises(ValueError):
            thresholds.parse(self.C_TABLE.replace("\t\t.rules = \"loss\",\n", ""))

    def test_a_table_that_differs_is_found(self):
        page = "# x\n\n%s\n\nwords\n\n%s\n| a | b |\n\n## Next\n| c |\n" % (
            HEADING, "\n".join(HEADER))
        self.assertEqual(documented_rows(page), HEADER + ["| a | b |"])
        self.assertIsNone(documented_rows("# x\n| a |\n"))

    def test_a_wrong_citation_is_found(self):
        table = thresholds.parse(self.C_TABLE)
        text = ("[the pace threshold (25%)](experiments.md#thresholds), "
                "[the pace threshold (20%)](experiments.md#thresholds), "
                "[the speed threshold (25%)](#thresholds), [the table](experiments.md#thresholds)"
                ", [a pace threshold (25%)](#thresholds), [the pace threshold (20%)](x.md#y)")
        self.assertEqual(wrong_citations(text, table),
                         ["[the pace threshold (20%)](experiments.md#thresholds)",
                          "[the speed threshold (25%)](#thresholds)",
                          "[a pace threshold (25%)](#thresholds)"])


if __name__ == "__main__":
    unittest.main()
