"""The record contract (issue 20): docs/records.md and tools/pmu_schema.py say the same, and
pmu-report holds every record to it: each key a record lacks or holds wrong is named on a line
of its own and makes the log "intact but not to contract" (exit status 5); a record of a type
the contract does not list is named by type and number and kept in report.json."""

import json
import os
import re
import unittest

from reporttest import DATA, REPO, TempDirCase, build
import contractdoc
import logfixture
import pmu_export
import pmu_model
import pmu_records
import pmu_schema
import pmu_spec
import pmu_text

DOC = os.path.join(REPO, "docs", "records.md")


def read_doc():
    with open(DOC, encoding="utf-8") as f:
        return f.read()


def changed(log, type_name, change, **match):
    """The log with the first record of a type (matching `match`) changed by change(obj) and
    a CRC that matches: intact, but maybe not to contract. Returns its number."""
    seq = log.seq_of(type_name, **match)
    line = log.lines[log.index_of(seq)]
    obj = json.loads(line.text.split(" ", 2)[2])
    change(obj)
    line.text = logfixture.record_text(seq, obj)
    return seq


def without(key):
    return lambda obj: obj.pop(key)


def setting(key, value):
    return lambda obj: obj.__setitem__(key, value)


def details(report):
    return [p.detail for p in report.stream.breaches()]


class DocumentAndSchema(unittest.TestCase):
    def test_the_document_and_the_schema_say_the_same(self):
        self.assertEqual(contractdoc.differences(read_doc(), pmu_schema.RECORDS), [])

    def test_every_record_type_has_a_table(self):
        tables = contractdoc.record_tables(read_doc())
        self.assertEqual(sorted(tables), sorted(pmu_schema.RECORDS))
        self.assertTrue(all(tables.values()))

    def test_a_key_added_to_the_schema_alone_is_found(self):
        records = dict(pmu_schema.RECORDS, exp_end=with_key("exp_end", "fan_rpm",
                                                             pmu_schema.U64))
        self.assertEqual(contractdoc.differences(read_doc(), records),
                         ["exp_end.fan_rpm: in the schema, not in the document"])

    def test_a_key_added_as_a_line_and_a_row(self):
        # What the lead does for a new key: one line in pmu_schema.RECORDS, one row in the
        # document; then a record without it is named.
        records = dict(pmu_schema.RECORDS, exp_end=with_key("exp_end", "fan_rpm",
                                                             pmu_schema.U64))
        doc = read_doc().replace(
            "| `ticks_lost` | array of integers |",
            "| `fan_rpm` | integer | the fan's speed |\n| `ticks_lost` | array of integers |")
        self.assertEqual(contractdoc.differences(doc, records), [])
        clean, problems, usable = records["exp_end"].check({"rep": 0})
        self.assertIn("no key fan_rpm", problems)

    def test_rows_that_say_something_else_are_found(self):
        doc = read_doc()
        for old, new, found in [
                ("| `units` | array of integers | units", "| `units` | array of numbers | units",
                 "exp_end.units: the document says 'array of numbers', the schema 'array of "
                 "integers'"),
                ("| `leak` | integer | only with", "| `leak` | integer | with",
                 "count.leak: the document says always, the schema optional"),
                ('`"too_few_counters"`', "too few counters",
                 'verdict.skip: the document does not name the value "too_few_counters"'),
                ("| `cpl` | integer | privilege", "| `ring` | integer | privilege",
                 "exception.ring: in the document, not in the schema")]:
            self.assertEqual(doc.count(old), 1, old)
            self.assertIn(found, contractdoc.differences(doc.replace(old, new),
                                                         pmu_schema.RECORDS))

    def test_the_exit_statuses_are_the_documents(self):
        doc = read_doc()
        table = doc[doc.index("| status | meaning |"):].split("\n\n")[0]
        statuses = [int(m) for m in re.findall(r"^\| (\d) \|", table, re.M)]
        self.assertEqual(statuses, sorted(pmu_model.EXIT_STATUSES))
        self.assertIn("in the order 4, 3, 5, 1, 0", doc)


def with_key(type_name, key, spec):
    """A copy of a record type with one more key every record has."""
    record_type = pmu_schema.RECORDS[type_name]
    keys = {k: s if k in record_type.always else pmu_spec.optional(s)
            for k, s in record_type.specs.items()}
    keys[key] = spec
    return pmu_spec.RecordType(keys, record_type.place, record_type.shapes)


class RecordsOffTheContract(unittest.TestCase):
    """Each case of issue 20, on the standard log."""

    def report(self, log):
        r = build(log)
        self.text = pmu_text.render_text(r)
        return r

    def assert_named(self, log, *lines):
        r = self.report(log)
        self.assertEqual(details(r), list(lines))
        self.assertEqual(r.stream.damage(), [])
        self.assertEqual(r.exit_code, pmu_model.EXIT_CONTRACT)
        self.assertFalse(r.passed)
        for line in lines:
            self.assertRegex(self.text, r"\n  %s \(line \d+\)\n" % re.escape(line))
        self.assertIn("intact but NOT TO CONTRACT: %d record" % len({p.seq for p in
                                                                       r.stream.breaches()}),
                      self.text)
        self.assertIn("Log intact but NOT TO CONTRACT. Exit status 5.", self.text)
        self.assertNotIn("complete and intact", self.text)
        self.assertNotIn("?", self.text.split("\n\n", 1)[1])
        return r

    def test_a_count_without_xsu(self):
        log = logfixture.suite()
        seq = changed(log, "count", without("xsu"), exp="ch7-three-events", xsu="on",
                      thread=1, event="r81d0:u")
        r = self.assert_named(log, "record @%d (count): no key xsu" % seq)
        # Left out of the tables, whose columns stay XSU off and on.
        run = r.experiments["ch7-three-events"].runs[("measure", "on", "greedy", None)]
        self.assertIsNone(run.cell(1, "r81d0:u"))
        self.assertEqual([c.label for c in r.experiments["ch7-three-events"].columns()],
                         ["XSU off", "XSU on"])

    def test_a_verdict_without_xsu(self):
        log = logfixture.suite()
        seq = changed(log, "verdict", without("xsu"), exp="ch8-starvation", xsu="on")
        r = self.assert_named(log, "record @%d (verdict): no key xsu" % seq)
        self.assertEqual(r.missing_verdicts(), [("ch8-starvation", "on")])

    def test_records_of_a_run_without_phase(self):
        log = logfixture.suite()
        first = changed(log, "exp", without("phase"), exp="ch4-branch-misses", xsu="off",
                        phase="baseline")
        second = changed(log, "count", without("phase"), exp="ch4-branch-misses", xsu="off",
                         phase="baseline")
        r = self.assert_named(log, "record @%d (exp): no key phase" % first,
                              "record @%d (count): no key phase" % second)
        # Not taken as a measurement: the baseline column lost its count, XSU off kept its own.
        runs = r.experiments["ch4-branch-misses"].runs
        self.assertIsNone(runs[("baseline", "off", "greedy", None)].cell(1, "r00c5:u"))
        self.assertEqual(runs[("measure", "off", "greedy", None)].cell(1, "r00c5:u").value,
                         40_960_843)

    def test_a_scheduler_that_is_not_one(self):
        log = logfixture.suite()
        seq = changed(log, "count", setting("sched", "str"), exp="ch8-starvation", xsu="off",
                      thread=1)
        self.assert_named(log, 'record @%d (count): key sched: "str" is not one of greedy, hk'
                          % seq)

    def test_an_empty_code(self):
        log = logfixture.suite()
        seq = changed(log, "count", setting("code", ""), exp="ch8-starvation", xsu="off",
                      thread=0, event="r81d0:u")
        r = self.assert_named(log, 'record @%d (count): key code: "" is not "0x" and four '
                              'lowercase hex digits or null' % seq)
        # The rest of the count is kept: only the code is left out.
        cell = r.experiments["ch8-starvation"].runs[("measure", "off", "greedy", None)].cell(
            0, "r81d0:u")
        self.assertEqual(cell.value, 5_470_671_639)

    def test_every_key_of_a_record_on_a_line_of_its_own(self):
        log = logfixture.suite()
        seq = changed(log, "exp_end", lambda o: o.update(units="many", overlap_pct=101) or
                      o.pop("exposure"), exp="ch7-three-events", xsu="off")
        self.assert_named(log, 'record @%d (exp_end): key units: "many" is not an array of '
                          'integers in 0..2^64-1' % seq,
                          "record @%d (exp_end): key overlap_pct: 101 is not an integer in "
                          "0..100" % seq,
                          "record @%d (exp_end): no key exposure" % seq)

    def test_a_key_inside_an_object(self):
        log = logfixture.suite()
        seq = changed(log, "exp", lambda o: o["threads"][1].update(offset_ns=-1),
                      exp="ch7-three-events", xsu="on")
        self.assert_named(log, "record @%d (exp): key threads[1].offset_ns: -1 is not an "
                          "integer in 0..2^64-1" % seq)

    def test_off_contract_wins_over_a_failed_verdict(self):
        log = logfixture.suite(verdict="fail")
        changed(log, "count", without("raw"), exp="ch8-starvation", xsu="off", thread=1)
        r = self.report(log)
        self.assertTrue(r.failures())
        self.assertEqual(r.exit_code, pmu_model.EXIT_CONTRACT)

    def test_damage_wins_over_off_contract_and_both_are_listed(self):
        log = logfixture.suite()
        seq = changed(log, "count", without("raw"), exp="ch8-starvation", xsu="off", thread=1)
        log.drop(5)
        r = self.report(log)
        self.assertEqual(r.exit_code, pmu_model.EXIT_DAMAGED)
        self.assertIn("DAMAGED: 1 problem;", self.text)
        self.assertIn("  NOT TO CONTRACT: 1 record breaks docs/records.md (1 problem)",
                      self.text)
        self.assertIn("record @%d (count): no key raw (line" % seq, self.text)
        self.assertIn("Log DAMAGED. Exit status 3.", self.text)

    def test_report_json_says_intact_but_not_to_contract(self):
        log = logfixture.suite()
        seq = changed(log, "count", without("xsu"), exp="ch8-starvation", xsu="off", thread=1)
        j = pmu_export.report_json(build(log))
        self.assertEqual((j["log"]["complete"], j["log"]["intact"], j["log"]["to_contract"]),
                         (True, True, False))
        self.assertEqual([(p["kind"], p["seq"], p["line"], p["detail"])
                          for p in j["log"]["problems"]],
                         [("contract", seq, log.line_no(seq),
                           "record @%d (count): no key xsu" % seq)])
        self.assertEqual(j["summary"]["exit"], pmu_model.EXIT_CONTRACT)

    def test_the_good_logs_keep_the_contract(self):
        for log in (logfixture.suite(), logfixture.extended_suite()):
            r = self.report(log)
            self.assertEqual((r.stream.problems, r.exit_code), ([], pmu_model.EXIT_OK))
            self.assertIn("keeps the contract of docs/records.md", self.text)


class UnknownTypes(TempDirCase):
    def log(self):
        log = logfixture.Log()
        logfixture.boot_and_pmu(log)
        log.record("END", records=3)
        logfixture.exp_branch_misses(log)
        log.record("tock", cpu=1)
        log.record("END", records=99, note=[1, {"x": None}])
        log.end()
        return log

    def test_named_by_type_and_number_and_kept_in_report_json(self):
        log = self.log()
        run = self.run_tool("--json", "--quiet", self.write_log(log))
        self.assertEqual((run.code, run.stderr), (pmu_model.EXIT_OK, ""))
        self.assertIn("complete and intact", run.stdout)
        self.assertIn("  3 records of a type this report does not know: END @3, @21; tock @20 "
                      "(kept in report.json)", run.stdout)
        with open(run.path("report.json"), encoding="utf-8") as f:
            j = json.load(f)
        self.assertEqual([(u["seq"], u["line"], u["type"]) for u in j["unknown_records"]],
                         [(3, log.line_no(3), "END"), (21, log.line_no(21), "END"),
                          (20, log.line_no(20), "tock")])
        self.assertEqual(j["unknown_records"][1]["record"],
                         {"type": "END", "records": 99, "note": [1, {"x": None}]})
        self.assertEqual(j["other_records"], {})

    def test_one_of_them(self):
        log = logfixture.suite(end=False)
        seq = log.record("END")
        log.end()
        text = pmu_text.render_text(build(log), quiet=True)
        self.assertIn("  1 record of a type this report does not know: END @%d" % seq, text)


class WarningsAccepted(unittest.TestCase):
    """docs/records.md and the kernel agree on a warning's `accepted`: a string, listing every
    key for an unknown one (kernel/cmdline.c); the array the document once described is not the
    contract."""

    def test_the_kernels_warnings_keep_the_contract(self):
        with open(os.path.join(DATA, "kernel-bad-cmdline.log"), encoding="utf-8") as f:
            r = pmu_model.build(pmu_records.parse(f.read()))
        self.assertEqual(r.stream.problems, [])
        accepted = {w.get("key"): w.get("accepted") for w in r.warnings}
        self.assertEqual(accepted["sched"], "greedy|hk")
        self.assertEqual(accepted["foo"].split("|")[:3], ["exp", "xsu", "sched"])
        self.assertEqual(accepted["foo"], accepted["loose"])

    def test_an_array_breaks_it(self):
        log = logfixture.suite()
        seq = changed(log, "warn", setting("accepted", []))
        self.assertEqual(details(build(log)),
                         ["record @%d (warn): key accepted: [] is not a string" % seq])


if __name__ == "__main__":
    unittest.main()
