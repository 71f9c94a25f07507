"""tools/pmu_records.py: checking a record stream, on good and damaged logs."""

import os
import unittest

from reporttest import REPO, lost
import logfixture
import pmu_model
import pmu_records
import pmu_text


def parse(log, **render_args):
    return pmu_records.parse(log.render(**render_args))


def kinds(stream):
    return sorted(p.kind for p in stream.problems)


def small_log(n_counts=6):
    """boot, then n_counts records, then end: short logs where each seq is easy to follow."""
    log = logfixture.Log()
    log.text("GRUB loading.")
    log.record("boot", **logfixture.boot_record())
    for i in range(n_counts):
        log.text("human text %d" % i)
        log.record("progress", exp="x", phase="measure", xsu="off", sched="greedy", rep=0,
                   done_pct=i, elapsed_ns=i * 1000)
    log.end()
    return log


class GoodLogs(unittest.TestCase):
    def test_suite_log_is_intact(self):
        log = logfixture.suite()
        s = parse(log)
        self.assertEqual(s.problems, [])
        self.assertEqual([r.seq for r in s.records], list(range(log.next_seq)))
        self.assertEqual(s.boot.seq, 0)
        self.assertEqual(s.end.get("records"), log.next_seq - 1)
        self.assertEqual(lost(s), [])

    def test_crlf_and_ansi_noise_change_nothing(self):
        log = logfixture.suite()
        plain = parse(log)
        noisy = parse(log, newline="\r\n", ansi=True)
        self.assertEqual(noisy.problems, [])
        self.assertEqual([r.obj for r in noisy.records], [r.obj for r in plain.records])

    def test_record_after_text_on_the_same_line(self):
        log = small_log()
        log.glue_text_before(3, "SeaBIOS (version 1.16.2)\x1b[0m   ")
        s = parse(log)
        self.assertEqual(s.problems, [])
        self.assertEqual(s.records[3].line_no, log.line_no(3))

    def test_text_lines_are_counted_not_reported(self):
        s = parse(small_log(4))
        self.assertEqual(s.text_lines, 5)  # "GRUB loading." and four "human text"

    def test_line_numbers_ignore_lone_carriage_returns(self):
        # GRUB redraws with bare CRs; an editor shows them inside one line, so must we.
        log = small_log()
        log.lines[0].text = "GRUB menu\rredrawn\rtwice"
        log.flip_crc(4)
        s = parse(log)
        crc = [p for p in s.problems if p.kind == "crc"][0]
        self.assertEqual(crc.line_no, log.line_no(4))

    def test_the_example_in_the_schema_document_is_a_valid_record(self):
        with open(os.path.join(REPO, "docs", "records.md"), encoding="utf-8") as f:
            example = [line.strip() for line in f if line.strip().startswith("@0 ")][0]
        s = pmu_records.parse(example + "\n")
        self.assertEqual(kinds(s), ["no_end"])
        self.assertEqual(s.boot.get("cpu")["model"], 60)


class DamagedLogs(unittest.TestCase):
    def test_lost_record_in_the_middle_is_named_with_its_neighbours_lines(self):
        log = small_log()
        before, after = log.line_no(2), log.line_no(4)
        log.drop(3)
        s = parse(log)
        self.assertEqual(kinds(s), ["gap"])
        gap = s.problems[0]
        self.assertEqual(gap.seq, (3, 3))
        self.assertIn("missing @3", gap.detail)
        self.assertIn("between @2 on line %d and @4 on line %d" % (before, after - 1),
                      gap.detail)
        self.assertEqual(lost(s), [3])

    def test_several_lost_records_make_ranges(self):
        log = small_log(8)
        for seq in (2, 3, 4, 7):
            log.drop(seq)
        s = parse(log)
        self.assertEqual(lost(s), [2, 3, 4, 7])
        details = " ".join(p.detail for p in s.problems)
        self.assertIn("missing @2-@4", details)
        self.assertIn("missing @7", details)

    def test_crc_mismatch_names_the_record_and_line(self):
        log = small_log()
        log.flip_crc(2)
        s = parse(log)
        self.assertEqual(kinds(s), ["crc"])  # no separate gap for the same record
        self.assertEqual((s.problems[0].seq, s.problems[0].line_no), (2, log.line_no(2)))
        self.assertEqual(lost(s), [2])

    def test_bad_json_with_a_matching_crc(self):
        log = small_log()
        log.break_json(5)
        s = parse(log)
        self.assertEqual(kinds(s), ["json"])
        self.assertEqual(s.problems[0].seq, 5)
        self.assertEqual(lost(s), [5])

    def test_cut_mid_record_names_the_cut_record_and_the_missing_end(self):
        log = small_log()
        log.cut(4, 20)  # "@4 xxxxxxxx {"type"..." cut after 20 characters
        s = parse(log)
        self.assertEqual(kinds(s), ["garbled", "no_end"])
        garbled = s.rejected()[0]
        self.assertEqual((garbled.seq, garbled.line_no), (4, log.line_no(4)))
        self.assertEqual(lost(s), [4])
        self.assertIn("stops after @3", [p for p in s.problems if p.kind == "no_end"][0].detail)

    def test_a_record_lost_just_before_the_cut_one_is_named(self):
        log = small_log()
        log.drop(3)
        log.cut(4, 20)
        s = parse(log)
        self.assertEqual(kinds(s), ["gap", "garbled", "no_end"])
        gap = [p for p in s.problems if p.kind == "gap"][0]
        self.assertIn("missing @3 (after @2 on line %d, before the rejected @4" % log.line_no(2),
                      gap.detail)
        self.assertEqual(lost(s), [3, 4])

    def test_cut_inside_the_sequence_number_names_no_number(self):
        log = small_log(12)
        log.cut(11, 2)  # "@1" of "@11": the number itself is cut
        s = parse(log)
        garbled = s.rejected()[0]
        self.assertIsNone(garbled.seq)
        self.assertEqual(garbled.line_no, log.line_no(11))
        self.assertEqual(lost(s), [])

    def test_cut_between_records_is_a_missing_end(self):
        log = small_log()
        log.cut_before(log.next_seq - 1)
        s = parse(log)
        self.assertEqual(kinds(s), ["no_end"])
        self.assertIsNone(s.end)

    def test_out_of_order_record_is_late_not_lost(self):
        log = small_log()
        log.swap(3, 4)
        s = parse(log)
        self.assertEqual(kinds(s), ["order"])
        self.assertEqual(s.problems[0].seq, 3)
        self.assertEqual([r.seq for r in s.late], [3])
        self.assertEqual(lost(s), [])
        self.assertEqual([r.seq for r in s.usable_records()], list(range(log.next_seq)))

    def test_duplicate_record(self):
        log = small_log()
        log.duplicate(2)
        s = parse(log)
        self.assertEqual(kinds(s), ["duplicate"])
        self.assertEqual((s.problems[0].seq, s.problems[0].line_no), (2, log.line_no(2) + 1))
        self.assertEqual(len(s.duplicates), 1)
        self.assertEqual(len(s.usable_records()), log.next_seq)

    def test_end_count_mismatch(self):
        log = small_log()
        log.drop(log.next_seq - 1)
        log.next_seq -= 1
        log.end(records=99)
        s = parse(log)
        self.assertEqual(kinds(s), ["end_count"])
        self.assertIn("99", s.problems[0].detail)

    def test_records_after_end(self):
        log = small_log()
        end = log.next_seq - 1
        log.record("progress", exp="x", phase="measure", xsu="on", sched="hk", rep=0, done_pct=1,
                   elapsed_ns=1000)
        s = parse(log)
        self.assertEqual(kinds(s), ["after_end", "no_end"])
        after = [p for p in s.problems if p.kind == "after_end"][0]
        self.assertEqual((after.seq, after.line_no), (end, log.line_no(end)))

    def test_first_record_not_boot(self):
        log = small_log()
        log.drop(0)
        s = parse(log)
        self.assertIn("no_boot", kinds(s))
        self.assertEqual(lost(s), [0])
        # Labelled by where it is, the start of the log, not its end.
        text = pmu_text.render_text(pmu_model.build(s))
        self.assertRegex(text, r"\n  log start    -         no boot record +the first record is "
                               r"\w+ @1, not boot @0\n")
        self.assertNotIn("end of log", text)

    def test_no_records_at_all(self):
        s = pmu_records.parse("BIOS text\nmore text\n")
        self.assertEqual(kinds(s), ["no_records"])
        self.assertEqual(s.text_lines, 2)

    def test_garbled_number_that_does_not_fit_is_not_trusted(self):
        # A CRC-failing line claims @1, but it sits between @4 and @6: its number is damaged too.
        log = small_log()
        line = log.lines[log.index_of(5)]
        line.text = "@1 " + line.text.split(" ", 1)[1].replace('"type"', '"tipe"')
        s = parse(log)
        crc = s.rejected()[0]
        self.assertIsNone(crc.seq)
        self.assertIn("does not fit", crc.detail)
        self.assertEqual(lost(s), [5])  # found as a gap instead

    def test_every_damage_at_once_is_reported_exactly(self):
        log = logfixture.suite()
        log.drop(10)
        log.flip_crc(20)
        log.break_json(25)
        log.swap(30, 31)
        log.duplicate(40)
        log.cut(70, 30)
        s = parse(log, newline="\r\n", ansi=True)
        self.assertEqual(lost(s), [10, 20, 25, 70])
        self.assertEqual(kinds(s), ["crc", "duplicate", "gap", "garbled", "json", "no_end",
                                    "order"])
        by_kind = {p.kind: p for p in s.problems}
        self.assertEqual(by_kind["crc"].line_no, log.line_no(20))
        self.assertEqual(by_kind["json"].line_no, log.line_no(25))
        self.assertEqual(by_kind["order"].seq, 30)
        self.assertEqual(by_kind["garbled"].seq, 70)


if __name__ == "__main__":
    unittest.main()
