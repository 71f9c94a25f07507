"""Properties of pmu-report on generated logs (Debian's python3-hypothesis): whatever the input,
no exception escapes, the exit status is one of the table in docs/report.md, and it is 4 exactly
when no line holds a record envelope.

Inputs: random bytes with fragments of records mixed in; logs of records with valid CRCs whose
values are drawn from the contract itself (pmu_schema.py), valid or with one value broken; the
standard logs with one record changed, a key removed or a value of a JSON type its key does not
take (the record and the key are named, exit 5 or worse, no "?" in a heading); the standard logs
damaged the ways a serial line damages them, with any line ends. A check of the drawing itself:
every key of the contract, optional ones included, and every value of a fixed set is drawn.

The budget is fixed and the run reproducible: every property is derandomized (the same examples
on every run, no example database) and has its own max_examples (BUDGET below: 924 examples,
about 40 s on one core, most of it in drawing the examples; and 60 records of each type, 3 s,
for the check of the drawing)."""

import collections
import contextlib
import importlib.machinery
import importlib.util
import io
import json
import os
import re
import shutil
import tempfile
import unittest

import hypothesis.configuration
from hypothesis import HealthCheck, given, settings, strategies as st

from reporttest import TOOL, lost, matplotlib_available
import logfixture
import pmu_export
import pmu_model
import pmu_plots
import pmu_records
import pmu_schema
import pmu_spec
import pmu_text

# Hypothesis keeps a cache (Unicode tables) in its home folder: outside the work tree.
hypothesis.configuration.set_hypothesis_home_dir(
    os.path.join(tempfile.gettempdir(), "pmu-report-hypothesis"))

BUDGET = {"bytes": 200, "valid": 100, "one_bad_value": 100, "any_values": 100, "damage": 100,
          "line_ends": 20, "plots": 4, "key_removed": 150, "wrong_type": 150, "drawn_keys": 60}


# A deeper run by hand: PMU_REPORT_EXAMPLES=20 multiplies every budget (still derandomized).
SCALE = int(os.environ.get("PMU_REPORT_EXAMPLES", "1"))


def bounded(name):
    return settings(max_examples=BUDGET[name] * SCALE, derandomize=True, database=None,
                    deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


def load_tool():
    """tools/pmu-report as a module (its file has no .py), to call main() in this process."""
    loader = importlib.machinery.SourceFileLoader("pmu_report_cli", TOOL)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


CLI = load_tool()
TABLE = {pmu_model.EXIT_OK, pmu_model.EXIT_FAIL, pmu_model.EXIT_DAMAGED,
         pmu_model.EXIT_NO_RECORDS, pmu_model.EXIT_CONTRACT}


class Exercise:
    """Runs the whole tool on a text: parse, model, text, CSV and JSON (plots on request)."""

    def __init__(self):
        self.out = tempfile.mkdtemp(prefix="pmu-report-properties-")

    def close(self):
        shutil.rmtree(self.out, ignore_errors=True)

    def report(self, text):
        report = pmu_model.build(pmu_records.parse(text), source="generated")
        pmu_text.render_text(report)
        pmu_export.write_csv_files(report, self.out)
        json.dumps(pmu_export.report_json(report), allow_nan=False)
        return report

    def cli(self, data):
        """main() on the bytes as a file, as a user runs it; returns its exit status."""
        path = os.path.join(self.out, "input.log")
        with open(path, "wb") as f:
            f.write(data)
        with contextlib.redirect_stdout(io.StringIO()):
            return CLI.main(["--csv", "--json", "--out", self.out, path])


class Case(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tool = Exercise()

    @classmethod
    def tearDownClass(cls):
        cls.tool.close()

    def assert_table(self, report):
        self.assertIn(report.exit_code, TABLE)
        self.assertEqual(report.exit_code == pmu_model.EXIT_NO_RECORDS,
                         report.stream.envelopes == 0)

    def assert_not_to_contract(self, report):
        """Exit 5, or 3 when the change damaged the log too (an end record's count)."""
        self.assertTrue(report.stream.breaches())
        self.assertFalse(report.passed)
        self.assertEqual(report.exit_code, pmu_model.EXIT_DAMAGED if report.stream.damage()
                         else pmu_model.EXIT_CONTRACT)


# ---- random bytes -------------------------------------------------------------------------------

FRAGMENTS = [b"@", b"@0 ", b"@17 ", b"0d4c7402 ", b"{", b"}", b'{"type":"boot"}', b"\r", b"\n",
             b"\r\n", b"\x1b[0m", b"\x00", b"\xff\xfe", b'"', b"@99999999999999999999999 "]


class RandomBytes(Case):
    @bounded("bytes")
    @given(st.lists(st.one_of(st.binary(max_size=64), st.sampled_from(FRAGMENTS)), max_size=60))
    def test_no_exception_and_an_exit_status_of_the_table(self, pieces):
        data = b"".join(pieces)
        status = self.tool.cli(data)
        report = pmu_model.build(pmu_records.parse(pmu_records.decode(data)))
        self.assertEqual(status, report.exit_code)
        self.assert_table(report)


# ---- records drawn from the contract ------------------------------------------------------------

def json_values(scalars):
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) |
                        st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)


JSON_SCALARS = (st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) |
                st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12))
JSON_VALUES = json_values(JSON_SCALARS)
# json.dumps writes an infinity as Infinity, which is not JSON; the tests also turn it into
# 1e999, which is JSON and reads as an infinity.
JSON_VALUES_AND_INFINITIES = json_values(JSON_SCALARS | st.sampled_from([float("inf"),
                                                                         float("-inf")]))


def values_of(spec):
    """A strategy for the values a pmu_spec spec accepts."""
    if isinstance(spec, pmu_spec.Int):
        return st.integers(spec.low, spec.high)
    if isinstance(spec, pmu_spec.Num):
        return st.floats(spec.low, spec.high, allow_nan=False, allow_infinity=False) | \
            st.integers(max(int(max(spec.low, -1e18)), -2 ** 62), int(min(spec.high, 1e18)))
    if isinstance(spec, pmu_spec.Str):
        return st.from_regex(spec.pattern, fullmatch=True) if spec.pattern else \
            st.text(max_size=16)
    if isinstance(spec, pmu_spec.Enum):
        return st.sampled_from(spec.values)
    if isinstance(spec, pmu_spec.Bool):
        return st.booleans()
    if isinstance(spec, pmu_spec.Hex):
        return st.integers(0, pmu_spec.U64_MAX).map(hex) | st.integers(0, pmu_spec.U64_MAX)
    if isinstance(spec, pmu_spec.Null):
        return st.none() | values_of(spec.spec)
    if isinstance(spec, pmu_spec.Array):
        return st.lists(values_of(spec.item), max_size=3)
    if isinstance(spec, pmu_spec.Obj):
        return objects_of(spec)
    if isinstance(spec, pmu_spec.AnyJson):
        return JSON_VALUES
    raise TypeError(spec)


def objects_of(spec):
    """An object inside a record: any of its keys, and others where it has a spec for them."""
    others = st.dictionaries(st.text(max_size=8), values_of(spec.others), max_size=3) \
        if spec.others else st.just({})
    if not spec.keys and not spec.others:
        return st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=3)
    return st.tuples(others, st.fixed_dictionaries(
        {}, optional={k: values_of(s) for k, s in spec.keys.items()})).map(
        lambda pair: dict(pair[0], **pair[1]))


def keys_of(record_type):
    """A record's keys (but its type): every key it always has, any of the others, and with a
    shape's marker every key of that shape."""
    always = {k: values_of(record_type.specs[k]) for k in record_type.always}
    sometimes = {k: values_of(s) for k, s in record_type.specs.items()
                 if k not in record_type.always}

    def complete(obj):
        for marker, keys in record_type.shapes.items():
            if marker in obj:
                return st.fixed_dictionaries({k: values_of(record_type.specs[k]) for k in keys
                                              if k not in obj}).map(lambda more: dict(obj, **more))
        return st.just(obj)
    return st.fixed_dictionaries(always, optional=sometimes).flatmap(complete)


# Experiments and events from a small pool, so that records of one run meet in one table.
EXPS = st.sampled_from(["a", "b-1", "ch7"])
EVENTS = st.sampled_from(["r81d0:u", "r20cc:u", "branches"])
PLACES = {"exp": EXPS, "event": EVENTS, "thread": st.integers(0, 2), "rep": st.integers(0, 2),
          "index": st.integers(0, 4), "sibling_index": st.integers(0, 4),
          "xsu": st.sampled_from(pmu_schema.XSU_MODES), "phase": st.sampled_from(["measure",
                                                                                  "baseline"])}


def record_of(type_name):
    """A strategy for a record of a type the contract defines, every value keeping it."""
    record_type = pmu_schema.RECORDS[type_name]
    overrides = {k: v for k, v in PLACES.items() if k in record_type.specs}
    return keys_of(record_type).flatmap(lambda obj: st.fixed_dictionaries(
        {k: overrides[k] for k in obj if k in overrides}).map(
        lambda places: dict(obj, **places, type=type_name)))


MIDDLE_TYPES = [t for t in pmu_schema.RECORDS if t not in ("boot", "end")]


@st.composite
def valid_logs(draw):
    """(record objects, log text): boot first, end last, numbered without gaps; every value drawn
    from the contract."""
    records = [draw(record_of("boot"))]
    records += draw(st.lists(st.sampled_from(MIDDLE_TYPES).flatmap(record_of), max_size=14))
    end = draw(record_of("end"))
    end["records"] = len(records)
    records.append(end)
    return records, render(records)


def render(records, newline="\n"):
    return "".join(logfixture.record_text(seq, obj) + newline for seq, obj in enumerate(records))


def breaks(spec, value):
    return bool(spec.check(value, "x")[1])


class ContractValues(Case):
    @bounded("valid")
    @given(valid_logs())
    def test_a_log_of_valid_records_is_intact_and_judged_by_its_verdicts(self, drawn):
        records, text = drawn
        report = self.tool.report(text)
        self.assertEqual(report.stream.problems, [])
        self.assertIn(report.exit_code, (pmu_model.EXIT_OK, pmu_model.EXIT_FAIL))
        placed = {o["exp"] for o in records if o["type"] in
                  ("exp", "count", "exp_end", "verdict", "survey")}
        self.assertEqual(set(report.experiments), placed)

    @bounded("one_bad_value")
    @given(valid_logs(), st.data())
    def test_one_broken_value_is_a_problem_on_its_line(self, drawn, data):
        records, _ = drawn
        seq = data.draw(st.integers(0, len(records) - 1))
        specs = pmu_schema.RECORDS[records[seq]["type"]].specs
        key = data.draw(st.sampled_from(sorted(specs)))
        records[seq][key] = data.draw(JSON_VALUES.filter(lambda v: breaks(specs[key], v)))
        report = self.tool.report(render(records))
        self.assertEqual({(p.seq, p.line_no) for p in report.stream.breaches()},
                         {(seq, seq + 1)})
        self.assert_not_to_contract(report)

    @bounded("any_values")
    @given(st.lists(st.tuples(st.integers(0, 40), st.sampled_from(
        list(pmu_schema.RECORDS) + ["tick", "x"]), st.dictionaries(
        st.sampled_from(sorted({k for s in pmu_schema.RECORDS.values() for k in s.specs})),
        JSON_VALUES_AND_INFINITIES, max_size=8)), max_size=20), st.booleans())
    def test_records_of_any_values_in_any_order(self, entries, overflow):
        lines = []
        for seq, type_name, obj in entries:
            body = json.dumps(dict(obj, type=type_name))
            if overflow:  # what json.dumps writes as Infinity, a kernel could write as 1e999
                body = body.replace("Infinity", "1e999")
            lines.append(logfixture.record_line(seq, body))
        report = self.tool.report("\n".join(lines) + "\n")
        self.assert_table(report)
        self.assertEqual(report.stream.envelopes, len(entries))


class DrawnKeys(unittest.TestCase):
    """The records drawn above reach every key of the contract, the optional ones too (such as
    exp_end's tick_tsc_total and msr_writes_per_tick, survey's sibling_state), and every value
    of a key of a fixed set, so that every property runs the report on them."""

    def test_every_key_and_every_value_of_a_fixed_set_is_drawn(self):
        seen = collections.defaultdict(set)
        for type_name in pmu_schema.RECORDS:
            @bounded("drawn_keys")
            @given(record_of(type_name))
            def draw(obj):
                for key, value in obj.items():
                    seen[(obj["type"], key)].add(value if isinstance(value, str) else None)
            draw()
        missed = ["%s.%s" % (t, k) for t, r in pmu_schema.RECORDS.items() for k in r.specs
                  if (t, k) not in seen]
        self.assertEqual(missed, [])
        for (t, k), values in seen.items():
            spec = pmu_schema.RECORDS[t].specs.get(k)
            if isinstance(spec, pmu_spec.Enum) and k not in PLACES:  # PLACES: a few on purpose
                self.assertEqual(set(spec.values) - values, set(), "%s.%s" % (t, k))


# ---- the standard logs, a record off the contract ----------------------------------------------

# Values of each JSON type; a spec's json_type() says which types it takes.
JSON_TYPES = {
    "integer": st.integers(-2 ** 70, 2 ** 70),
    "number": st.floats(allow_nan=False, allow_infinity=False).filter(
        lambda f: not f.is_integer()),
    "string": st.text(max_size=12),
    "boolean": st.booleans(),
    "null": st.none(),
    "array": st.lists(JSON_SCALARS, max_size=3),
    "object": st.dictionaries(st.text(max_size=6), JSON_SCALARS, max_size=3),
}


def json_types(spec):
    """The JSON types a spec takes: "integer or null" -> {"integer", "null"}."""
    words = spec.json_type().split(" or ")
    types = {w.split()[0] for w in words}
    if "any" in types:
        return set(JSON_TYPES)
    return types | ({"integer"} if "number" in types else set())


def wrong_types(spec):
    """Values of the JSON types a spec does not take."""
    return st.sampled_from(sorted(set(JSON_TYPES) - json_types(spec))).flatmap(JSON_TYPES.get)


# The interfered mark of a cell ("? 5,656,000,000") and its legend: the only question marks the
# report's own words may hold (pmu_text: `?` marks a count firmware changed).
INTERFERED_RE = re.compile(r"\? (?=[\d,]+ \[)|\? = the counter went down.*")


UNKNOWN_RE = re.compile(r"\?|\bNone\b")


def question_marks(text):
    """The lines after the log check (boot, tables, verdicts, summary) that hold a "?" of the
    report's own or a Python None: an unknown heading, label or value."""
    after_check = text.split("\n\n", 1)[1]
    return [line for line in after_check.splitlines()
            if UNKNOWN_RE.search(INTERFERED_RE.sub("", line))]


class FixtureRecordsOffContract(Case):
    """The standard logs with one record changed (its CRC made to match): a key removed, or a
    value of a JSON type its key does not take."""

    def change(self, name, data, how):
        log = getattr(logfixture, name)()
        line = data.draw(st.sampled_from([line for line in log.lines if line.seq is not None]))
        obj = json.loads(line.text.split(" ", 2)[2])
        key = data.draw(st.sampled_from(sorted(k for k in obj if k != "type")))
        record_type = pmu_schema.RECORDS[obj["type"]]
        required = key in record_type.required(obj)
        how(obj, key, record_type.specs[key])
        line.text = logfixture.record_text(line.seq, obj)
        report = self.tool.report(log.render())
        status = self.tool.cli(log.render().encode())
        self.assertEqual(status, report.exit_code)
        self.assertEqual(question_marks(pmu_text.render_text(report)), [])
        return report, line.seq, obj["type"], key, required

    @bounded("key_removed")
    @given(st.sampled_from(["suite", "extended_suite"]), st.data())
    def test_a_key_removed_is_named_if_the_record_needs_it(self, name, data):
        def remove(obj, key, spec):
            del obj[key]
        report, seq, type_name, key, required = self.change(name, data, remove)
        if required:
            self.assertIn("record @%d (%s): no key %s" % (seq, type_name, key),
                          [p.detail for p in report.stream.breaches()])
            self.assert_not_to_contract(report)
        else:  # an optional key: the record keeps the contract
            self.assertEqual(report.stream.problems, [])
            self.assertEqual(report.exit_code, pmu_model.EXIT_OK)

    @bounded("wrong_type")
    @given(st.sampled_from(["suite", "extended_suite"]), st.data())
    def test_a_value_of_the_wrong_type_is_named(self, name, data):
        def replace(obj, key, spec):
            obj[key] = data.draw(wrong_types(spec))
            self.assertTrue(breaks(spec, obj[key]))
        report, seq, type_name, key, _ = self.change(name, data, replace)
        prefix = "record @%d (%s): key %s" % (seq, type_name, key)
        self.assertTrue([p for p in report.stream.breaches() if p.detail.startswith(prefix)],
                        [p.detail for p in report.stream.breaches()])
        self.assert_not_to_contract(report)


# ---- the standard logs, damaged -----------------------------------------------------------------

DAMAGE = st.sampled_from(["drop", "flip_crc", "break_json", "swap", "duplicate", "cut"])


class Damage(Case):
    @bounded("damage")
    @given(st.sampled_from(["suite", "extended_suite"]), st.lists(
        st.tuples(DAMAGE, st.integers(0, 10 ** 6), st.integers(1, 200)), min_size=1,
        max_size=4), st.sampled_from(["\n", "\r\n", "\r"]), st.booleans(),
        st.lists(st.binary(max_size=40), max_size=3))
    def test_damage_is_reported_and_never_passes(self, name, steps, newline, ansi, junk):
        log = getattr(logfixture, name)()
        intact = log.render()
        named = set()  # records the damage removed whole: each must be named as lost
        copied = set()  # records duplicated: a copy may survive what happens to the record
        cut = set()     # the record a cut ended in: no longer a record line to damage
        for kind, which, keep in steps:
            seqs = [line.seq for line in log.lines if line.seq is not None and
                    line.seq not in cut]
            if not seqs:
                break
            seq = seqs[which % len(seqs)]
            if kind == "swap":
                other = seqs[(which + 1) % len(seqs)]
                if other == seq:
                    continue
                log.swap(seq, other)
            elif kind == "cut":
                log.cut(seq, keep)
                cut.add(seq)
                named = {s for s in named if s < seq}
            else:
                getattr(log, kind)(seq)
                if kind == "duplicate":
                    copied.add(seq)
                elif seq not in copied:
                    named.add(seq)
        undone = log.render() == intact  # two swaps of the same pair, say
        for i, data in enumerate(junk):  # text, unless it looks like a record ("@5")
            log.lines.insert(1 + i * 7, logfixture.Line(pmu_records.decode(data)))
        report = self.tool.report(log.render(newline=newline, ansi=ansi))
        self.assert_table(report)  # 4 when the damage left no record at all
        if undone:
            self.assertIn(report.exit_code, (pmu_model.EXIT_OK, pmu_model.EXIT_DAMAGED))
        else:
            self.assertIn(report.exit_code, (pmu_model.EXIT_DAMAGED, pmu_model.EXIT_NO_RECORDS))
            self.assertFalse(report.passed)
        end = log.next_seq - 1
        self.assertLessEqual(named - {end}, set(lost(report.stream)))


class LineEnds(Case):
    @bounded("line_ends")
    @given(st.sampled_from(["suite", "extended_suite"]), st.sampled_from(["\r\n", "\r", "\n\r"]),
           st.booleans())
    def test_line_ends_change_no_record(self, name, newline, ansi):
        log = getattr(logfixture, name)()
        plain = pmu_records.parse(log.render())
        other = pmu_records.parse(log.render(newline=newline, ansi=ansi))
        self.assertEqual(other.problems, [])
        self.assertEqual([r.obj for r in other.records], [r.obj for r in plain.records])


@unittest.skipUnless(matplotlib_available(), "python3-matplotlib is not installed")
class Plots(Case):
    @bounded("plots")
    @given(valid_logs())
    def test_plots_of_valid_records(self, drawn):
        _, text = drawn
        report = self.tool.report(text)
        plt = pmu_plots.load_pyplot()
        for p in pmu_plots.write_plots(report, self.tool.out, plt):
            self.assertTrue(os.path.isfile(p["file"]))


if __name__ == "__main__":
    unittest.main()
