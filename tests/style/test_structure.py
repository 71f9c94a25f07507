"""The structure docs/ARCHITECTURE.md promises, checked on the committed sources.

- Dependencies point one way: no cycle among the units of boot/, kernel/, pmu/ and the payload
  (tests/ but for the host-side tests/host and tests/fuzz). A unit is a .c file with its .h (or a
  header alone); unit A depends on unit B when either file of A includes B's header.
- pmu/ is pure: it includes nothing from kernel/ (nor from tests/); kernel/, pmu/ and boot/
  include nothing from the payload.
- No two folders include each other in a circle either: folder A depends on folder B when a file
  of A (C, header or NASM) includes a file of B, and the folders' graph has no cycle (a sub-folder
  is a folder of its own: kernel/qr is not kernel/).
- Functions fit on a screen: none in boot/, kernel/, pmu/ or the payload is longer than 60 lines
  (from the line of its name to its closing brace, as ctags counts).
"""

import os
import re
import subprocess
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FOLDERS = ("boot", "kernel", "pmu", "tests")
HOST_SIDE = ("tests/host/", "tests/fuzz/")
MAX_FUNCTION_LINES = 60
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# C's #include and NASM's %include, for the folders' graph.
ANY_INCLUDE = re.compile(r'^\s*[#%]\s*include\s+"([^"]+)"', re.M)


def committed_sources(endings=(".c", ".h")):
    out = subprocess.run(["git", "ls-files", *FOLDERS], cwd=TOP, capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        return None
    return [f for f in out.stdout.split("\n")
            if f.endswith(endings) and not f.startswith(HOST_SIDE)]


def read(path):
    with open(os.path.join(TOP, path), encoding="utf-8", errors="replace") as f:
        return f.read()


def unit_graph(files, text_of):
    """{unit: set of units it depends on}, from the includes of its files."""
    units = {f[:-2] for f in files}
    deps = {u: set() for u in units}
    for f in files:
        for header in INCLUDE.findall(text_of(f)):
            target = header[:-2] if header.endswith(".h") else None
            if target in units and target != f[:-2]:
                deps[f[:-2]].add(target)
    return deps


def folder_graph(files, text_of):
    """{folder: set of other folders it includes from}, over C, headers and NASM."""
    deps = {os.path.dirname(f): set() for f in files}
    for f in files:
        for included in ANY_INCLUDE.findall(text_of(f)):
            folder = os.path.dirname(included)
            if folder and folder != os.path.dirname(f):
                deps[os.path.dirname(f)].add(folder)
                deps.setdefault(folder, set())
    return deps


def cycles(deps):
    """The strongly connected components of more than one unit (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(deps):
        if root in index:
            continue
        work = [(root, iter(sorted(deps[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(deps[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def blank_comments_and_strings(text):
    """The text with comments, strings and character constants blanked, line breaks kept."""
    pattern = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def function_lengths(text):
    """[(name, lines)] of the function definitions (kernel style: braces in column 0)."""
    lines = blank_comments_and_strings(text).split("\n")
    found = []
    for i, line in enumerate(lines):
        if not line.startswith("{"):
            continue
        start = i - 1
        while start > 0 and (not lines[start][:1].strip() or lines[start][:1] in "\t "):
            start -= 1
        signature = " ".join(lines[start:i])
        name = re.search(r"(\w+)\s*\(", signature)
        end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("}")), None)
        if name and end is not None and not signature.rstrip().endswith(("=", ",")):
            found.append((name.group(1), end - start + 1))
    return found


class Structure(unittest.TestCase):
    def setUp(self):
        self.files = committed_sources()
        if self.files is None:
            self.skipTest("not a git checkout: no list of the committed sources")

    def test_no_cycle_among_units(self):
        found = cycles(unit_graph(self.files, read))
        self.assertEqual(found, [], "units that include each other in a circle: %s" % found)

    def test_no_cycle_among_folders(self):
        files = committed_sources((".c", ".h", ".asm", ".inc"))
        found = cycles(folder_graph(files, read))
        self.assertEqual(found, [], "folders that include each other in a circle: %s" % found)

    def test_pmu_and_kernel_stay_below(self):
        wrong = []
        for f in self.files:
            for header in INCLUDE.findall(read(f)):
                if f.startswith("pmu/") and header.startswith(("kernel/", "tests/")):
                    wrong.append("%s includes %s" % (f, header))
                if f.startswith(("kernel/", "boot/")) and header.startswith("tests/"):
                    wrong.append("%s includes %s" % (f, header))
        self.assertEqual(wrong, [], "includes that point up: %s" % wrong)

    def test_functions_fit_on_a_screen(self):
        long_ones = ["%s %s (%d lines)" % (f, name, n)
                     for f in self.files if f.endswith(".c")
                     for name, n in function_lengths(read(f)) if n > MAX_FUNCTION_LINES]
        self.assertEqual(long_ones, [], "functions over %d lines: %s"
                         % (MAX_FUNCTION_LINES, long_ones))


class TheChecksThemselves(unittest.TestCase):
    """Each check must catch what it is there for."""

    def test_a_cycle_is_found(self):
        text = {"a/x.c": '#include "a/y.h"', "a/x.h": "", "a/y.c": "",
                "a/y.h": '#include "a/z.h"', "a/z.h": '#include "a/x.h"', "a/w.c": ""}
        found = cycles(unit_graph(list(text), text.get))
        self.assertEqual(found, [["a/x", "a/y", "a/z"]])

    def test_a_chain_is_no_cycle(self):
        text = {"a/x.c": '#include "a/y.h"', "a/y.c": '#include "a/z.h"', "a/y.h": "",
                "a/z.h": ""}
        self.assertEqual(cycles(unit_graph(list(text), text.get)), [])

    def test_a_folder_cycle_is_found(self):
        text = {"k/a.c": '#include "k/q/b.h"', "k/q/b.c": '#include "k/l/c.h"',
                "k/l/c.h": "", "k/x.asm": '%include "b/layout.inc"', "b/layout.inc": "",
                "b/y.c": '#include "k/a.h"'}
        self.assertEqual(cycles(folder_graph(list(text), text.get)), [["b", "k"]])
        del text["k/x.asm"]
        self.assertEqual(cycles(folder_graph(list(text), text.get)), [])

    def test_function_lengths(self):
        body = "\n".join("\tx++; /* { */" for _ in range(90))
        text = ("static int\nlong_one(int a,\n\t int b)\n{\n" + body + "\n}\n\n"
                "int short_one(void)\n{\n\treturn '}';\n}\n"
                "static const int table[] = {\n\t1,\n};\n")
        found = dict(function_lengths(text))
        self.assertEqual(found["long_one"], 94)  # from the line of its name, as ctags counts
        self.assertEqual(found["short_one"], 4)
        self.assertNotIn("table", found)


# ---- One XSU engine (issue 23; docs/ARCHITECTURE.md, "Scheduling") ---------------------------
# The multiplexer knows no XSU: pmu/mux.[ch] say nothing of it (the grep of the issue, line by
# line). One XSU planner: one enum of the XSU modes in product code (an enum with an _OFF, an _ON
# and a _CORE spelling), and no code outside the engine's files makes XSU's decisions: calls its
# primitives (the sibling's states, the joint placement, the catchers' places) or weighs an
# event's corrupting word against the sibling's counters (`corrupting` beside `^ 1`), as
# tests/owncode/passes.c once did beside the engine.

MUX_FILES = ("pmu/mux.c", "pmu/mux.h")
MUX_NOT_ITS_WORDS = re.compile(r"xsu|corrupt|catcher|leak", re.I)
XSU_ENGINE = ("pmu/xsu.", "pmu/xsu_core.", "pmu/xsu_passes.", "pmu/xsu_mode.", "pmu/core_sched.",
              "pmu/mux_pair.")
XSU_DECISIONS = re.compile(r"\b(xsu_mask|xsu_dynamic_constraint|xsu_start|xsu_release|xsu_commit|"
                           r"core_sched|xsu_catchers)\s*\(")
XSU_SIBLING_WEIGHED = re.compile(r"\bcorrupting\b.*\^\s*1\b|\^\s*1\b.*\bcorrupting\b")
ENUM_BODY = re.compile(r"\benum\s+(\w+)\s*\{([^}]*)\}")


def xsu_word_lines(text):
    """The lines that name XSU, a corrupting event, a catcher or a leak (grep -ci)."""
    return sum(1 for line in text.split("\n") if MUX_NOT_ITS_WORDS.search(line))


def xsu_mode_enums(text):
    """The enums of text that spell the three XSU modes."""
    found = []
    for name, body in ENUM_BODY.findall(blank_comments_and_strings(text)):
        spellings = re.findall(r"\b[A-Z][A-Z0-9_]*\b", body)
        if all(any(s.endswith(end) for s in spellings) for end in ("_OFF", "_ON", "_CORE")):
            found.append(name)
    return found


def xsu_planning_lines(text):
    """[(line number, line)] where code makes one of XSU's decisions itself."""
    lines = blank_comments_and_strings(text).split("\n")
    return [(i + 1, line.strip()) for i, line in enumerate(lines)
            if XSU_DECISIONS.search(line) or XSU_SIBLING_WEIGHED.search(line)]


class OneXsuEngine(unittest.TestCase):
    def setUp(self):
        self.files = committed_sources()
        if self.files is None:
            self.skipTest("not a git checkout: no list of the committed sources")

    def test_the_multiplexer_knows_no_xsu(self):
        counts = {f: xsu_word_lines(read(f)) for f in MUX_FILES}
        self.assertEqual(counts, {f: 0 for f in MUX_FILES},
                         "lines of the multiplexer that speak of XSU")

    def test_one_xsu_mode_enum(self):
        enums = ["%s: enum %s" % (f, name) for f in self.files
                 for name in xsu_mode_enums(read(f))]
        self.assertEqual(enums, ["pmu/xsu_mode.h: enum xsu_mode"])

    def test_one_xsu_planner(self):
        planners = ["%s:%d: %s" % (f, n, line) for f in self.files
                    if not f.startswith(XSU_ENGINE) for n, line in xsu_planning_lines(read(f))]
        self.assertEqual(planners, [], "XSU decided outside its engine: %s" % planners)


class TheXsuChecksThemselves(unittest.TestCase):
    """Each check of OneXsuEngine must catch what it is there for."""

    def test_xsu_words_are_counted(self):
        text = ("/* What the hooks allow. */\n"
                "static void commit(int c, bool corrupting);\n"
                "struct xsu_usage mux_usage(void); uint64_t leak;\n"
                "uint8_t catchers;\n")
        self.assertEqual(xsu_word_lines(text), 3)
        self.assertEqual(xsu_word_lines("void mux_tick(struct mux_thread *t);\n"), 0)

    def test_a_second_mode_enum_is_found(self):
        text = ("enum xsu_mode { XSU_MODE_OFF, XSU_MODE_ON, XSU_MODE_CORE, XSU_MODE_COUNT };\n"
                "enum bundle_xsu { BUNDLE_XSU_OFF, BUNDLE_XSU_ON, BUNDLE_XSU_CORE };\n"
                "enum key_kind { KEY_UINT, KEY_CORE };\n"
                "/* enum old { A_OFF, A_ON, A_CORE }; */\n")
        self.assertEqual(xsu_mode_enums(text), ["xsu_mode", "bundle_xsu"])

    def test_a_second_planner_is_found(self):
        # tests/owncode/passes.c's own exclusion and catchers, beside the engine's
        planner = ("\t\tfree &= (uint8_t)~s->corrupting[t ^ 1];\n"
                   "\tif (e->corrupting)\n"
                   "\t\tfree &= (uint8_t)~s->used[t ^ 1];\n"
                   "\tout->catchers[p][t ^ 1] = s.corrupting[t];\n"
                   "\tuint64_t m = xsu_mask(states, t, true);\n")
        self.assertEqual([n for n, _ in xsu_planning_lines(planner)], [1, 4, 5])
        # a bundle asking the engine, and words in comments, are no planner
        user = ("\t/* the sibling's corrupting events: t ^ 1 */\n"
                "\txsu_plan_passes(xsu_ops_of(s->b.params.xsu, false), in, &s->plan);\n"
                "\tpe->constraint.corrupting = uarch_event_corrupting(u, &ev);\n")
        self.assertEqual(xsu_planning_lines(user), [])


if __name__ == "__main__":
    unittest.main()
