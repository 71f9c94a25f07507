"""The documentation holds together: the README stays short, every relative link of README.md and
docs/*.md reaches a file of the repository (and, with a #anchor, a heading of it, as GitHub names
headings), every page of docs/ is in the index, in one row, and no file points outside the
repository."""

import os
import re
import subprocess
import unittest
import urllib.parse

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

README_MAX_LINES = 400  # issue 17: "the README at most 400 lines"

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^ {0,3}(```|~~~)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")

# Where this machine keeps what is not the project's; written in pieces so that this file does not
# name them itself.
OUTSIDE = ["../" + "shared", "/" + "work/", "." + "library/", "." + "mirror/", "/tmp/" + "bash_jobs"]


def files():
    """The repository's files, committed or about to be (git's list, ignored files left out)."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=TOP, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        return None
    return sorted(f for f in out.stdout.split("\n") if f and os.path.isfile(os.path.join(TOP, f)))


def pages():
    docs = os.path.join(TOP, "docs")
    return ["README.md"] + sorted("docs/" + f for f in os.listdir(docs) if f.endswith(".md"))


def prose(text):
    """The lines of a Markdown text outside fenced code blocks, inline code spans removed."""
    out, fenced = [], False
    for line in text.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            out.append("")
            continue
        out.append("" if fenced else re.sub(r"`+[^`]*`+", "", line))
    return out


def slug(heading):
    """GitHub's anchor of a heading: its text without markup, lower case, every character but
    letters, digits, '-', '_' and spaces dropped, spaces as '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"<[^>]+>", "", text)
    text = text.lower()
    text = "".join(c for c in text if c.isalnum() or c in "-_ ")
    return text.replace(" ", "-")


def anchors(path):
    """Every anchor GitHub gives the headings of a Markdown file (a repeated one gets -1, -2...)."""
    seen, out, fenced = {}, set(), False
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for line in lines:
        if FENCE.match(line):
            fenced = not fenced
            continue
        m = None if fenced else HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else "%s-%d" % (base, n))
    return out


def links(path):
    """(line number, target) of every link and link reference definition of a Markdown file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for number, line in enumerate(prose(text), 1):
        for m in LINK.finditer(line):
            yield number, m.group(1)
        m = REFERENCE.match(line)
        if m:
            yield number, m.group(1)


def broken(page, target):
    """Why a relative link of page (a path from the top) does not hold, or None when it does."""
    if SCHEME.match(target):
        return None  # a URL: not a file of the repository
    part, _, anchor = target.partition("#")
    part = urllib.parse.unquote(part)
    if part:
        where = os.path.normpath(os.path.join(os.path.dirname(os.path.join(TOP, page)), part))
    else:
        where = os.path.join(TOP, page)  # "#anchor": a heading of the page itself
    if os.path.relpath(where, TOP).startswith(".."):
        return "points outside the repository"
    if not os.path.exists(where):
        return "no such file"
    if not anchor:
        return None
    if not where.endswith(".md") or os.path.isdir(where):
        return "an anchor on something that is not a Markdown page"
    if urllib.parse.unquote(anchor) not in anchors(where):
        return "no heading with that anchor"
    return None


class Docs(unittest.TestCase):
    def test_readme_is_short(self):
        with open(os.path.join(TOP, "README.md"), encoding="utf-8") as f:
            count = len(f.read().rstrip("\n").split("\n"))
        self.assertLessEqual(count, README_MAX_LINES,
                             "README.md has %d lines; move the details to a docs/ page" % count)

    def test_every_relative_link_reaches_a_file_and_heading(self):
        problems, checked = [], 0
        for page in pages():
            for number, target in links(os.path.join(TOP, page)):
                checked += 1
                why = broken(page, target)
                if why:
                    problems.append("%s:%d: %s: %s" % (page, number, target, why))
        self.assertGreater(checked, 20)
        self.assertEqual(problems, [], "broken links:\n" + "\n".join(problems))

    def test_every_page_is_in_the_index_once(self):
        index = os.path.join(TOP, "docs", "README.md")
        with open(index, encoding="utf-8") as f:
            rows = [line for line in f.read().split("\n") if line.startswith("| [")]
        firsts = [os.path.normpath(LINK.search(r).group(1).partition("#")[0]) for r in rows]
        listed = {os.path.normpath(t.partition("#")[0]) for _, t in links(index)}
        missing = [p for p in pages() if p.startswith("docs/") and p != "docs/README.md"
                   and os.path.basename(p) not in listed]
        self.assertEqual(missing, [], "docs/README.md does not list: " + ", ".join(missing))
        twice = sorted({f for f in firsts if firsts.count(f) > 1})
        self.assertEqual(twice, [], "docs/README.md has more than one row of: " + ", ".join(twice))
        self.assertGreater(len(rows), 15)

    def test_no_file_points_outside_the_repository(self):
        names = files()
        if names is None:
            self.skipTest("not a git checkout: no list of the repository's files")
        found = []
        for name in names:
            with open(os.path.join(TOP, name), "rb") as f:
                data = f.read()
            if b"\0" in data:
                continue  # binary: no text to point anywhere
            text = data.decode("utf-8", errors="replace")
            for number, line in enumerate(text.split("\n"), 1):
                for outside in OUTSIDE:
                    if outside in line:
                        found.append("%s:%d: %s" % (name, number, outside))
        self.assertEqual(found, [], "files pointing outside the repository:\n" + "\n".join(found))


class Anchors(unittest.TestCase):
    """The anchor rule itself, on headings of the kind these pages have."""

    def test_github_slugs(self):
        self.assertEqual(slug("Core-wide XSU (`xsu=core`)"), "core-wide-xsu-xsucore")
        self.assertEqual(slug("Counting from ring 3: RDPMC"), "counting-from-ring-3-rdpmc")
        self.assertEqual(slug("The model PMU (when there are no real counters)"),
                         "the-model-pmu-when-there-are-no-real-counters")
        self.assertEqual(slug("schedsim: the scheduling simulator"),
                         "schedsim-the-scheduling-simulator")

    def test_a_missing_anchor_and_an_escape_are_refused(self):
        self.assertIsNone(broken("README.md", "docs/testing.md#fuzzing-the-parsers"))
        self.assertEqual(broken("README.md", "docs/testing.md#no-such-heading"),
                         "no heading with that anchor")
        self.assertEqual(broken("docs/README.md", "../../elsewhere.md"),
                         "points outside the repository")
        self.assertEqual(broken("README.md", "docs/no-such-page.md"), "no such file")
        self.assertIsNone(broken("docs/real-machine.md", "#what-the-screen-shows"))
        self.assertEqual(broken("docs/real-machine.md", "#nowhere"), "no heading with that anchor")


if __name__ == "__main__":
    unittest.main()
