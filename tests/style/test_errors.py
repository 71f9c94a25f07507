"""The error conventions of docs/ARCHITECTURE.md ("Errors"), checked on the committed sources.

Product code (boot/, kernel/, pmu/ and the payload in tests/, but not the host-side tests/host and
tests/fuzz) signals a failure with a status: a bool or an enum, the reason in words beside it. It
never signals one with a negative number, so no return statement of a function in product code
gives one:

- a minus sign before a number (`return -1;`, `return (int)-1;`, `return (-2);`),
- a minus sign before an errno-like name, E and capitals (`return -EINVAL;`),
- a negative number as an arm of a conditional (`return ok ? n : -1;`).

A comparison is the one exception: a function named `*cmp` or `*compare*` answers less, equal or
greater as memcmp() does, and its -1 is an order, not a failure. A minus sign before any other name is arithmetic (`return -delta;`) and allowed; so is a count or
an index that is returned as such, as long as no negative value is mixed into it for "none" or
"failed" (a bool and an out-parameter say that).
"""

import re
import unittest

from tests.style.test_structure import blank_comments_and_strings, committed_sources, read

RETURN = re.compile(r"\breturn\b([^;]*);")
CAST = r"(?:\(\s*[A-Za-z_][\w\s\*]*\)\s*)?"
NEGATIVE = re.compile(r"^\s*\(*\s*" + CAST + r"\(*\s*-\s*(?:\d|E[A-Z0-9_]+\b)")
NEGATIVE_ARM = re.compile(r"[?:]\s*\(*\s*" + CAST + r"\(*\s*-\s*\d")


def function_at(lines, line):
    """The name of the function whose body holds line (1-based), kernel style: the body's
    braces in column 0, the name on the lines before the opening one; None outside a body."""
    i = line - 1
    while i >= 0 and not lines[i].startswith(("{", "}")):
        i -= 1
    if i < 0 or lines[i].startswith("}"):
        return None
    start = i - 1
    while start > 0 and (not lines[start][:1].strip() or lines[start][:1] in "\t "):
        start -= 1
    name = re.search(r"(\w+)\s*\(", " ".join(lines[start:i]))
    return name.group(1) if name else None


def is_comparison(name):
    return bool(name) and (name.endswith("cmp") or "compare" in name)


def negative_returns(text):
    """[(line number, statement)] of the return statements that give a negative number, but in
    a comparison."""
    blank = blank_comments_and_strings(text)
    lines = blank.split("\n")
    found = []
    for m in RETURN.finditer(blank):
        value = m.group(1)
        line = blank.count("\n", 0, m.start()) + 1
        if (NEGATIVE.match(value) or NEGATIVE_ARM.search(value)) and \
                not is_comparison(function_at(lines, line)):
            found.append((line, " ".join(m.group(0).split())))
    return found


class Errors(unittest.TestCase):
    def setUp(self):
        self.files = committed_sources()
        if self.files is None:
            self.skipTest("not a git checkout: no list of the committed sources")

    def test_no_negative_number_for_a_failure(self):
        wrong = ["%s:%d: %s" % (f, line, statement)
                 for f in self.files
                 for line, statement in negative_returns(read(f))]
        self.assertEqual(wrong, [], "a failure signalled by a negative number (docs/"
                         "ARCHITECTURE.md, Errors: return a bool or an enum status and the "
                         "reason): %s" % wrong)


class TheCheckItself(unittest.TestCase):
    """The check must catch each way of returning a negative number, and only those."""

    def test_bad_examples_are_caught(self):
        text = ("int a(void)\n{\n\treturn -1;\n}\n"
                "int b(int x)\n{\n\tif (x)\n\t\treturn -EINVAL;\n\treturn (int)-1;\n}\n"
                "int c(int n, bool ok)\n{\n\treturn ok ? n\n\t\t  : -1;\n}\n"
                "long d(void)\n{\n\treturn (-2);\n}\n")
        self.assertEqual([line for line, _ in negative_returns(text)], [3, 8, 9, 13, 18])

    def test_good_examples_pass(self):
        text = ("/* return -1; would be wrong */\n"
                "bool a(unsigned *n)\n{\n\t*n = 3;\n\treturn true;\n}\n"
                "int b(int x)\n{\n\treturn -x;\n}\n"
                "int c(int n)\n{\n\treturn n - 1;\n}\n"
                "long d(long q, long num)\n{\n\treturn num < 0 ? -q : q;\n}\n"
                "const char *e(void)\n{\n\treturn \"return -1;\";\n}\n"
                "enum s f(void)\n{\n\treturn STATUS_REFUSED;\n}\n"
                "static int\nscore_compare(int a, int b)\n{\n\treturn a < b ? -1 : a > b;\n}\n"
                "int strcmp(const char *a, const char *b)\n{\n\treturn *a < *b ? -1 : 1;\n}\n")
        self.assertEqual(negative_returns(text), [])

    def test_a_comparison_is_found_by_its_name(self):
        lines = "static int\nby_size(const void *a,\n\tconst void *b)\n{\n\treturn -1;\n}\n"
        self.assertEqual(negative_returns(lines), [(5, "return -1;")])
        self.assertEqual(function_at(lines.split("\n"), 5), "by_size")
        self.assertIsNone(function_at(lines.split("\n"), 1))


if __name__ == "__main__":
    unittest.main()
