"""pmu-report on logs that are odd rather than damaged in transit (issue 13): records with a valid
CRC and valid JSON whose values break the contract, records in impossible places, binary noise,
logs whose line ends are CRs. Each is a problem on its line and an exit status of the table
(docs/report.md, "Exit status"), never a traceback."""

import json
import os
import random
import re
import unittest

from reporttest import DATA, TempDirCase, build, lost
from test_report import with_verdict
import logfixture
import pmu_model
import pmu_records
import pmu_schema
import pmu_text


def with_record(obj_of, **match):
    """The suite log with the first record of a type (matching `match`) replaced by
    obj_of(its JSON object), with a CRC that matches: the record keeps the envelope and breaks
    only the contract."""
    log = logfixture.suite()
    type_name = match.pop("type")
    seq = log.seq_of(type_name, **match)
    line = log.lines[log.index_of(seq)]
    obj = json.loads(line.text.split(" ", 2)[2])
    log.replace_line(seq, logfixture.record_line(seq, obj_of(obj)))
    return log, seq


def changed(key, value):
    def change(obj):
        obj[key] = value
        return json.dumps(obj, separators=(",", ":"))
    return change


def breaches(report):
    return report.stream.breaches()


class ValuesThatBreakTheContract(unittest.TestCase):
    def assert_problem_on_its_line(self, log, seq, *words):
        r = build(log)
        problems = breaches(r)
        self.assertEqual({(p.seq, p.line_no) for p in problems}, {(seq, log.line_no(seq))})
        self.assertEqual(r.stream.damage(), [])  # intact: the CRC held
        details = "\n".join(p.detail for p in problems)
        for word in words:
            self.assertIn(word, details)
        self.assertEqual(r.exit_code, pmu_model.EXIT_CONTRACT)
        pmu_text.render_text(r)  # and the text of it all, without an exception
        return r

    def test_a_count_of_1e999(self):
        # JSON allows 1e999; Python reads it as infinity, which int() refuses.
        log, seq = with_record(lambda o: json.dumps(o, separators=(",", ":")).replace(
            '"raw":40960843', '"raw":1e999'), type="count", exp="ch4-branch-misses", xsu="off",
            phase="measure", thread=1)
        r = self.assert_problem_on_its_line(
            log, seq, "record @%d (count): key raw: inf (out of range) is not an integer in "
            "0..2^64-1" % seq)
        # The rest of the count stays: its scaled value is still shown.
        run = r.experiments["ch4-branch-misses"].runs[("measure", "off", "greedy", None)]
        self.assertEqual(run.cell(1, "r00c5:u").value, 40_960_843)

    def test_an_xsu_that_is_an_array(self):
        for match in (dict(type="count", exp="ch7-three-events", xsu="on", thread=1,
                           event="r81d0:u"),
                      dict(type="verdict", exp="ch8-starvation", xsu="on")):
            log, seq = with_record(changed("xsu", []), **match)
            self.assert_problem_on_its_line(
                log, seq, "(%s): key xsu: [] is not one of off, on, core" % match["type"])

    def test_a_result_of_maybe(self):
        log, seq = with_record(changed("result", "maybe"), type="verdict", exp="ch8-starvation",
                               xsu="on")
        r = self.assert_problem_on_its_line(
            log, seq, 'key result: "maybe" is not one of pass, fail, skip')
        # Without a usable verdict, the mode has none: the log cannot prove a pass.
        self.assertEqual(r.missing_verdicts(), [("ch8-starvation", "on")])

    def test_a_negative_count_and_a_string_thread(self):
        log, seq = with_record(lambda o: json.dumps(dict(o, running=-5, thread="1")),
                               type="count", exp="ch8-starvation", xsu="off", thread=1)
        self.assert_problem_on_its_line(log, seq, "key running: -5 is not",
                                        'key thread: "1" is not')

    def test_a_type_that_is_not_a_string_is_bad_json(self):
        log, seq = with_record(lambda o: json.dumps(dict(o, type=7)), type="exp_end",
                               exp="ch4-branch-misses", xsu="on")
        s = pmu_records.parse(log.render())
        self.assertEqual([(p.kind, p.seq) for p in s.problems], [("json", seq)])

    def test_an_experiment_name_that_would_leave_the_results_folder(self):
        log, seq = with_record(changed("exp", "../../outside"), type="count",
                               exp="ch8-starvation", xsu="off", thread=1)
        r = self.assert_problem_on_its_line(log, seq, 'key exp: "../../outside" is not')
        self.assertNotIn("../../outside", r.experiments)

    def test_a_record_the_kernel_truncated(self):
        log, seq = with_record(lambda o: json.dumps({"type": o["type"], "truncated": True}),
                               type="count", exp="ch8-starvation", xsu="off", thread=1)
        self.assert_problem_on_its_line(log, seq, "truncated")

    def test_unknown_keys_and_types_are_no_problem(self):
        log, _ = with_record(changed("colour", [1, {"x": None}]), type="count",
                             exp="ch8-starvation", xsu="off", thread=1)
        self.assertEqual(build(log).exit_code, pmu_model.EXIT_OK)


def kernel_log(name):
    """A log the kernel wrote (tests/report/data/kernel-NAME.log)."""
    with open(os.path.join(DATA, "kernel-%s.log" % name), encoding="utf-8", newline="") as f:
        return f.read()


class KernelRecordsOfARunThatStopped(unittest.TestCase):
    """The records of bring-ups that cannot go on keep the contract (QEMU boots of a CPU model
    without a local APIC and of a 486, which has no long mode)."""

    def test_no_local_apic(self):
        s = pmu_records.parse(kernel_log("no-local-apic"))
        self.assertEqual(s.problems, [])
        self.assertEqual((s.boot.get("step"), s.boot.get("core"), s.boot.get("tsc_ref")),
                         ("local APIC", None, None))
        r = pmu_model.build(s)
        self.assertEqual(r.exit_code, pmu_model.EXIT_FAIL)
        self.assertIn("no SMT sibling", pmu_text.render_text(r))

    def test_no_long_mode(self):
        s = pmu_records.parse(kernel_log("no-long-mode"))
        self.assertEqual(s.problems, [])
        self.assertEqual(sorted(s.boot.obj), ["boot", "error", "type", "version"])
        self.assertEqual(pmu_model.build(s).exit_code, pmu_model.EXIT_FAIL)

    def test_only_a_boot_record_with_an_error_may_have_four_keys(self):
        text = kernel_log("no-long-mode").replace('"error"', '"errors"')
        s = pmu_records.parse(re.sub(r"@0 [0-9a-f]{8} (.*)", lambda m: logfixture.record_line(
            0, m.group(1).rstrip("\r")), text, count=1))
        self.assertEqual(s.damage(), [])
        details = [p.detail for p in s.breaches()]
        self.assertIn("record @0 (boot): no key cmdline", details)
        self.assertEqual(len(details), len(pmu_schema.RECORDS["boot"].always) - 2)


class RecordsInImpossiblePlaces(unittest.TestCase):
    def test_a_second_boot_in_the_middle(self):
        log = logfixture.suite(end=False)
        seq = log.record("boot", **logfixture.boot_record())
        log.end()
        r = build(log)
        self.assertEqual([(p.kind, p.seq, p.line_no) for p in r.stream.problems],
                         [("boot_again", seq, log.line_no(seq))])
        self.assertEqual(r.exit_code, pmu_model.EXIT_DAMAGED)

    def test_an_end_record_in_the_middle(self):
        log = logfixture.suite()
        seq = log.seq_of("verdict", exp="ch7-three-events", xsu="on")
        log.replace_line(seq, logfixture.record_text(seq, {
            "type": "end", "records": seq, "verdict": "pass", "failures": 0, "reason": None}))
        r = build(log)
        self.assertIn(("after_end", seq, log.line_no(seq)),
                      [(p.kind, p.seq, p.line_no) for p in r.stream.problems])
        self.assertEqual(r.exit_code, pmu_model.EXIT_DAMAGED)

    def test_a_huge_sequence_number_is_a_gap_not_a_hang(self):
        log = logfixture.suite(end=False)
        log.next_seq = 10 ** 19
        log.end()
        s = pmu_records.parse(log.render())
        self.assertEqual(s.lost_spans(), [(74, 10 ** 19 - 1)])
        self.assertEqual(s.lost_count(), 10 ** 19 - 74)
        self.assertIn("@74-@9999999999999999999", pmu_text.render_text(pmu_model.build(s)))

    def test_a_sequence_number_of_more_than_20_digits_is_garbled(self):
        s = pmu_records.parse(logfixture.record_text(10 ** 30, {"type": "boot"}) + "\n")
        self.assertEqual([(p.kind, p.seq) for p in s.problems],
                         [("garbled", None), ("no_records", None)])


class NotJson(unittest.TestCase):
    def parse_body(self, body):
        return pmu_records.parse(logfixture.record_line(0, body) + "\n")

    def test_nan_and_infinity_are_not_json(self):
        for body in ('{"type":"boot","mem_mib":NaN}', '{"type":"boot","x":-Infinity}'):
            s = self.parse_body(body)
            self.assertEqual(s.problems[0].kind, "json", body)
            self.assertIn("is not a JSON value", s.problems[0].detail)

    def test_nesting_deeper_than_the_stack(self):
        s = self.parse_body('{"type":"boot","x":' + "[" * 100_000 + "]" * 100_000 + "}")
        self.assertEqual(s.problems[0].kind, "json")


class LineEnds(unittest.TestCase):
    """LF, CRLF, CR alone and mixtures give the same records; numbering follows LF when there is
    one."""

    def records(self, text):
        s = pmu_records.parse(text)
        return s, [(r.seq, r.obj) for r in s.records]

    def test_every_line_end_gives_the_same_records(self):
        log = logfixture.suite()
        _, expected = self.records(log.render())
        for newline in ("\r\n", "\r", "\n\r"):
            s, got = self.records(log.render(newline=newline, ansi=True))
            self.assertEqual((s.problems, got), ([], expected), repr(newline))

    def test_cr_only_lines_are_numbered_by_cr(self):
        log = logfixture.suite()
        log.flip_crc(20)
        s = pmu_records.parse(log.render(newline="\r"))
        self.assertEqual([(p.kind, p.line_no) for p in s.problems], [("crc", log.line_no(20))])

    def test_a_record_after_a_cr_inside_a_line(self):
        # GRUB's redraws, then the kernel's record, with one LF at the end.
        log = logfixture.suite()
        text = log.render().replace("\n@5 ", "\rGRUB menu\r@5 ", 1)
        s = pmu_records.parse(text)
        self.assertEqual((s.problems, len(s.records)), ([], log.next_seq))
        self.assertEqual(s.records[5].line_no, s.records[4].line_no)

    def test_a_rejected_record_beside_a_good_one_on_one_line(self):
        log = logfixture.suite()
        log.flip_crc(6)
        text = log.render().replace("\n@6 ", "\r@6 ", 1).replace("\n@7 ", "\r@7 ", 1)
        s = pmu_records.parse(text)
        self.assertEqual([(p.kind, p.seq) for p in s.problems], [("crc", 6)])
        self.assertEqual(lost(s), [6])


class Noise(TempDirCase):
    def test_random_binary_is_no_log(self):
        data = random.Random(13).randbytes(200_000)
        path = os.path.join(self.tmp, "noise.bin")
        with open(path, "wb") as f:
            f.write(data)
        run = self.run_tool("--csv", path)
        self.assertEqual((run.code, run.stderr), (pmu_model.EXIT_NO_RECORDS, ""))
        self.assertIn("not a single record", run.stdout)

    def test_only_lines_that_start_like_records_is_no_log(self):
        r = pmu_model.build(pmu_records.parse("@12 cut here\n@1\n"))
        self.assertEqual(r.exit_code, pmu_model.EXIT_NO_RECORDS)
        self.assertEqual([p.kind for p in r.stream.problems],
                         ["garbled", "garbled", "no_records"])

    def test_escape_sequences_and_odd_characters_in_strings(self):
        log = with_verdict("pass", exp="ch4-branch-misses",
                           reason="\x1b]0;owned\x07 \ud800 \u4e00 done")
        run = self.run_tool("--csv", "--json", self.write_log(log))
        self.assertEqual((run.code, run.stderr), (0, ""))
        self.assertIn("?]0;owned? \\ud800 \u4e00 done", run.stdout)
        self.assertNotIn("\x1b", run.stdout)


if __name__ == "__main__":
    unittest.main()
