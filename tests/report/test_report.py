"""The report of a log (pmu_model, pmu_text, pmu_export): its tables, verdicts, summary, JSON and
exit status."""

import json
import re
import unittest

from reporttest import build
import logfixture
import pmu_export
import pmu_format
import pmu_model
import pmu_records
import pmu_text

CELL_RE = re.compile(r"<not counted>|(?<!\S)-(?!\S)|(?:! )?[\d,]+ \[\s*[\d.]+%\]")


def section(text, exp):
    """The text of one experiment's section."""
    start = text.index("== %s:" % exp)
    end = text.find("\n== ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def table(text, exp, thread):
    """{event: [cell, ...]} of one thread's table, cells in column order, plus the header under
    the key None."""
    lines = section(text, exp).splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("HT%d (" % thread))
    rows = {None: lines[start]}
    for line in lines[start + 1:]:
        if not line.strip():
            break
        event, rest = line.split(None, 1)
        rows[event] = [" ".join(c.split()) for c in CELL_RE.findall(rest)]
    return rows


def labels(header):
    """Column labels of a table header, left to right."""
    return re.split(r"\s{2,}", header.split(")", 1)[1].strip())


class Tables(unittest.TestCase):
    def setUp(self):
        self.report = build(logfixture.suite())
        self.text = pmu_text.render_text(self.report)

    def test_baseline_off_and_on_side_by_side_with_thesis_numbers(self):
        t = table(self.text, "ch4-branch-misses", 1)
        self.assertEqual(labels(t[None]), ["baseline", "XSU off", "XSU on"])
        self.assertEqual(t["r00c5:u"], ["644 [100.00%]", "! 40,960,843 [100.00%]",
                                        "781 [100.00%]"])

    def test_event_absent_from_a_run_shows_a_dash(self):
        t = table(self.text, "ch4-branch-misses", 0)
        self.assertEqual(t["r81d0:u"], ["-", "5,565,857,411 [100.00%]", "5,465,161,580 [100.00%]"])

    def test_rows_follow_each_threads_list_order(self):
        t0 = table(self.text, "ch7-three-events", 0)
        t1 = table(self.text, "ch7-three-events", 1)
        self.assertEqual([k for k in t0 if k], ["r81d0:u", "r08d1:u", "r20cc:u"])
        self.assertEqual([k for k in t1 if k], ["r20cc:u", "r81d0:u", "r08d1:u"])

    def test_running_percentages_and_corruption_marks(self):
        t = table(self.text, "ch7-three-events", 1)
        self.assertEqual(t["r20cc:u"], ["! 137,641,709 [100.00%]", "0 [ 66.68%]"])
        self.assertTrue(t["r08d1:u"][1].endswith("[ 33.35%]"))
        self.assertNotIn("!", t["r81d0:u"][0])  # corrupting events are never marked

    def test_not_counted(self):
        t = table(self.text, "ch8-starvation", 1)
        self.assertEqual(t["branches"], ["459,733,444 [100.00%]", "<not counted>"])

    def test_scheduler_columns_and_mean_running(self):
        t = table(self.text, "xsu-hk-vs-greedy", 0)
        self.assertEqual(labels(t[None]), ["XSU on greedy", "XSU on hk"])
        self.assertEqual(t["r08a3:u"], ["34,000 [ 50.00%]", "34,000 [100.00%]"])
        s = section(self.text, "xsu-hk-vs-greedy")
        self.assertIn("running XSU on greedy: HT0 mean 75.00% min 50.00%, HT1 mean 100.00% "
                      "min 100.00%", s)
        self.assertIn("running XSU on hk:     HT0 mean 100.00% min 100.00%", s)

    def test_columns_line_up_across_the_threads_of_an_experiment(self):
        s = section(self.text, "ch4-branch-misses").splitlines()
        headers = [line for line in s if line.strip().startswith("HT")]
        self.assertEqual(len(headers), 2)
        self.assertEqual(headers[0].index("XSU on"), headers[1].index("XSU on"))

    def test_exposure_and_verdicts_per_mode(self):
        s = section(self.text, "ch4-branch-misses")
        self.assertIn("exposure (model):      baseline 0, XSU off 1,000, XSU on 0", s)
        self.assertRegex(s, r"verdict XSU off: +PASS  HT1 r00c5:u 40,960,843")
        self.assertRegex(s, r"verdict XSU on: +PASS  HT1 r00c5:u 781 within 200")

    def test_setup_lines_show_lists_and_offsets(self):
        s = section(self.text, "ch7-three-events")
        self.assertIn("HT1 r20cc:u,r81d0:u,r08d1:u +2.000 ms", s)
        self.assertIn("1000 ms per run, mux 1 ms", s)
        self.assertIn("tolerance:     10% of the baseline or 200 counts, whichever is larger",
                      section(self.text, "ch4-branch-misses"))

    def test_titles_come_from_exp_records(self):
        self.assertIn("== ch4-branch-misses: Branch mispredictions against the sibling's loads "
                      "(thesis 4.2)", self.text)
        self.assertIn("== ch7-three-events: Three events, lists in another order, started "
                      "apart (thesis 7.1)", self.text)
        self.assertIn("   rule:          XSU on: r20cc:u is 0 on both threads, exposure 0",
                      section(self.text, "ch7-three-events"))


class BootSummary(unittest.TestCase):
    def setUp(self):
        self.text = pmu_text.render_text(build(logfixture.suite()))

    def test_cpu_topology_and_pmu(self):
        self.assertIn("GenuineIntel family 6 model 0x3c stepping 4", self.text)
        self.assertIn("hypervisor TCGTCGTCGTCG", self.text)
        self.assertIn("2 CPUs, 1 package, 1 core, 2 threads per core; core 0 with threads "
                      "APIC 0 and 1", self.text)
        self.assertIn("TSC        2.500 GHz (calibrated against pit)", self.text)
        self.assertIn("PMU        model backend: CPUID 0x0A reports no architectural PMU",
                      self.text)
        self.assertIn("uarch      haswell, erratum HSD29", self.text)

    def test_what_is_modelled(self):
        self.assertIn("counts come from the model PMU, not from hardware counters; the erratum "
                      "moves 2.5% of 0x81d0, 50.0% of 0xd1 to the sibling's counter", self.text)

    def test_hardware_backend_says_nothing_is_modelled(self):
        log = logfixture.suite()
        seq = log.seq_of("pmu")
        log.replace_line(seq, logfixture.record_text(seq, {
            "type": "pmu", "backend": "hw", "reason": "architectural PMU version 3",
            "version": 3, "gp": 4, "gp_width": 48, "fixed": 3, "uarch": "haswell",
            "erratum": "HSD29"}))
        text = pmu_text.render_text(build(log))
        self.assertIn("modelled   nothing: counts come from the hardware counters", text)

    def test_no_smt_sibling_is_said_plainly(self):
        log = logfixture.Log()
        log.record("boot", boot="multiboot2", cmdline="", mem_mib=64, acpi_rsdp=None,
                   cpu={"vendor": "GenuineIntel", "family": 6, "model": 60, "stepping": 4,
                        "brand": "x"}, cpus=1, packages=1, cores=1, threads_per_core=1,
                   core=0, threads=[0], smt=False)
        log.end()
        self.assertIn("no SMT sibling", pmu_text.render_text(build(log)))

    def test_warn_records_are_listed(self):
        # The kernel's message names every key already: the accepted keys are not repeated.
        self.assertIn("@1 colour=blue: unknown key 'colour' (keys: exp|xsu|sched|", self.text)
        self.assertEqual(self.text.count("|survey_work"), 1)

    def test_a_warnings_accepted_values_are_shown_when_the_message_lacks_them(self):
        log = logfixture.suite()
        seq = log.seq_of("warn")
        log.replace_line(seq, logfixture.record_text(seq, {
            "type": "warn", "key": "sched", "value": "fast", "accepted": "greedy|hk",
            "used": "greedy", "source": "cmdline", "message": "sched=fast is unknown"}))
        r = build(log)
        self.assertEqual(r.exit_code, pmu_model.EXIT_OK)
        self.assertIn("@1 sched=fast: sched=fast is unknown (accepted: greedy|hk)",
                      pmu_text.render_text(r))


def with_verdict(result, exp="ch7-three-events", xsu="on", **extra):
    """The suite log with one verdict's result replaced."""
    log = logfixture.suite()
    seq = log.seq_of("verdict", exp=exp, xsu=xsu)
    obj = {"type": "verdict", "exp": exp, "xsu": xsu, "sched": "greedy", "result": result,
           "reason": "HT1 r20cc:u 12 > 0", "exposure": 0, "checked": 2, "corrupted": 0}
    obj.update(extra)
    log.replace_line(seq, logfixture.record_text(seq, obj))
    return log


class ExitStatus(unittest.TestCase):
    def test_good_log_passes(self):
        r = build(logfixture.suite())
        self.assertEqual((r.exit_code, r.passed, r.failures()), (pmu_model.EXIT_OK, True, []))

    def test_failed_verdict(self):
        r = build(with_verdict("fail"))
        self.assertEqual(r.exit_code, pmu_model.EXIT_FAIL)
        self.assertEqual(r.failures(), ["ch7-three-events XSU on failed: HT1 r20cc:u 12 > 0"])
        self.assertIn("Overall: FAIL (model PMU: nothing measured). 7 verdicts: 6 pass, 1 fail, "
                      "0 skip. Log complete and intact. Exit status 1.", pmu_text.render_text(r))

    def test_skipped_verdict_is_not_a_failure(self):
        r = build(with_verdict("skip", xsu="off", skip="no_erratum"))
        self.assertEqual(r.exit_code, pmu_model.EXIT_OK)
        self.assertRegex(pmu_text.render_text(r), r"verdict XSU off: +SKIP \(no_erratum\)")

    def test_end_record_saying_fail(self):
        self.assertEqual(build(logfixture.suite(verdict="fail")).exit_code,
                         pmu_model.EXIT_FAIL)

    def test_missing_verdict_in_a_complete_log_fails(self):
        log = logfixture.suite()
        seq = log.seq_of("verdict", exp="ch8-starvation", xsu="on")
        log.replace_line(seq, logfixture.record_text(seq, {"type": "note", "text": "x"}))
        r = build(log)
        self.assertEqual(r.exit_code, pmu_model.EXIT_FAIL)
        self.assertEqual(r.failures(), ["ch8-starvation XSU on has no verdict record"])

    def test_exception_fails_and_is_shown(self):
        log = logfixture.suite(end=False)
        log.record("exception", vector=14, name="#PF", description="#PF page fault",
                   error_code=2, rip="0xffffffff80102a3c", cr2="0x0000000000000008", cpu=1,
                   cpu_index=1, cpl=0, registers={"rax": "0x1", "rbx": "0x2"},
                   backtrace=["0xffffffff80102a00"])
        log.end("fail")
        r = build(log)
        self.assertEqual(r.exit_code, pmu_model.EXIT_FAIL)
        text = pmu_text.render_text(r)
        self.assertIn("CPU 1: #PF (vector 14), error code 0x2, RIP 0xffffffff80102a3c, "
                      "CR2 0x0000000000000008", text)
        self.assertIn("rax=0x1  rbx=0x2", text)

    def test_damage_wins_over_failure(self):
        log = with_verdict("fail")
        log.drop(5)
        self.assertEqual(build(log).exit_code, pmu_model.EXIT_DAMAGED)

    def test_overall_result_follows_the_verdicts_and_the_end_record(self):
        def overall(log):
            r = build(log)
            line = [x for x in pmu_text.render_text(r).splitlines()
                    if x.startswith("Overall:")][0]
            return r.result, line
        # A record lost, no verdict failed, the end record says pass: PASS, the log DAMAGED.
        log = logfixture.suite()
        log.drop(5)
        self.assertEqual(overall(log), ("pass", "Overall: PASS (model PMU: nothing measured). "
                                        "7 verdicts: 7 pass, 0 fail, 0 skip. Log DAMAGED. Exit "
                                        "status 3."))
        self.assertIn("the tables lack what was lost", pmu_text.render_text(build(log)))
        # A verdict failed: FAIL, damaged or not.
        log = with_verdict("fail")
        log.drop(5)
        self.assertEqual(overall(log)[0], "fail")
        self.assertIn("Overall: FAIL (model PMU: nothing measured). 7 verdicts: 6 pass, 1 fail",
                      overall(log)[1])
        # No end record and no verdict failed: the result is not known.
        log = logfixture.suite()
        log.cut_before(log.seq_of("end"))
        result, line = overall(log)
        self.assertIsNone(result)
        self.assertTrue(line.startswith("Overall: UNKNOWN (no end record; model PMU: nothing "
                                        "measured). 7 verdicts: 7 pass, 0 fail"), line)
        self.assertIn("without its end record the run's result is unknown",
                      pmu_text.render_text(build(log)))

    def test_truncated_log_is_damaged(self):
        log = logfixture.suite()
        log.cut_before(log.seq_of("verdict", exp="xsu-hk-vs-greedy"))
        r = build(log)
        self.assertEqual(r.exit_code, pmu_model.EXIT_DAMAGED)
        self.assertFalse(r.passed)

    def test_no_records(self):
        r = pmu_model.build(pmu_records.parse("just\ntext\n"))
        self.assertEqual(r.exit_code, pmu_model.EXIT_NO_RECORDS)

    def test_only_garbled_records_is_damage_not_emptiness(self):
        r = pmu_model.build(pmu_records.parse("@0 12345678 {\"type\":\"boot\"}\n"))
        self.assertEqual(r.exit_code, pmu_model.EXIT_DAMAGED)


class DamagedLogReport(unittest.TestCase):
    def test_problems_listed_by_line_with_exact_numbers(self):
        log = logfixture.suite()
        lost_between = (log.line_no(9), log.line_no(11) - 1)
        log.drop(10)
        log.flip_crc(20)
        log.cut(70, 30)
        text = pmu_text.render_text(build(log, newline="\r\n", ansi=True))
        self.assertIn("DAMAGED: 4 problems;", text)
        self.assertRegex(text, r"line +%d +@10 +lost +missing @10 \(between @9 on line %d and "
                         r"@11 on line %d\)" % (lost_between[1], lost_between[0],
                                                lost_between[1]))
        self.assertRegex(text, r"line +%d +@20 +CRC mismatch" % (log.line_no(20)))
        self.assertRegex(text, r"line +%d +@70 +garbled" % (log.line_no(70)))
        self.assertIn("records lost or rejected: @10, @20, @70 (3)", text)
        self.assertIn("the log stops during xsu-hk-vs-greedy XSU on (hk), after a count record",
                      text)

    def test_cut_during_a_run_says_how_far_it_got(self):
        log = logfixture.suite()
        progress = log.seq_of("progress", exp="ch8-starvation", xsu="on")
        log.cut_before(progress + 1)
        text = pmu_text.render_text(build(log), quiet=True)
        self.assertIn("the log stops during ch8-starvation XSU on, 50% done", text)

    def test_data_from_late_records_still_counts(self):
        log = logfixture.suite()
        seq = log.seq_of("count", exp="ch4-branch-misses", xsu="off", thread=1)
        log.swap(seq, seq + 1)
        r = build(log)
        self.assertEqual([p.kind for p in r.stream.problems], ["order"])
        text = pmu_text.render_text(r)
        self.assertIn("! 40,960,843", table(text, "ch4-branch-misses", 1)["r00c5:u"][1])

    def test_lost_count_leaves_a_dash(self):
        log = logfixture.suite()
        log.drop(log.seq_of("count", exp="ch4-branch-misses", xsu="on", thread=1))
        t = table(pmu_text.render_text(build(log)), "ch4-branch-misses", 1)
        self.assertEqual(t["r00c5:u"][2], "-")

    def test_two_boots_in_one_file(self):
        text = logfixture.suite().render() + logfixture.suite().render()
        r = pmu_model.build(pmu_records.parse(text))
        self.assertIn("more than one boot", pmu_text.render_text(r, quiet=True))


class SkippedExperiments(unittest.TestCase):
    def test_experiment_skipped_without_running_has_its_verdicts_only(self):
        log = logfixture.suite(end=False)
        for xsu in ("off", "on"):
            log.verdict("ch7-aligned", xsu, "skip", "no SMT sibling: one thread per core",
                        skip="no_smt")
        log.end()
        r = build(log)
        self.assertEqual(r.exit_code, pmu_model.EXIT_OK)
        s = section(pmu_text.render_text(r), "ch7-aligned")
        self.assertIn("== ch7-aligned: (no exp record)", s)  # no title but the kernel's
        self.assertRegex(s, r"verdict XSU on: +SKIP \(no_smt\)  no SMT sibling")
        self.assertNotIn("HT0", s)
        self.assertEqual(r.result_counts(), {"pass": 7, "fail": 0, "skip": 2})


class Records(unittest.TestCase):
    def test_corruption_is_judged_on_non_corrupting_counts_only(self):
        r = build(logfixture.suite())
        runs = r.experiments["ch7-three-events"].runs
        off = runs[("measure", "off", "greedy", None)]
        on = runs[("measure", "on", "greedy", None)]
        self.assertTrue(off.cell(0, "r20cc:u").corrupted)
        self.assertFalse(on.cell(1, "r20cc:u").corrupted)
        self.assertIsNone(off.cell(0, "r81d0:u").corrupted)

    def test_scaled_that_does_not_match_raw_is_noted(self):
        log = logfixture.suite()
        seq = log.seq_of("count", exp="ch7-three-events", xsu="on", thread=1, event="r08d1:u")
        logfixture.count(log, "ch7-three-events", "on", 1, "r08d1:u", 0)
        obj = json.loads(log.lines[-1].text.split(" ", 2)[2])
        del log.lines[-1]
        obj.update(raw=100, enabled=300, running=100, scaled=200)
        log.replace_line(seq, logfixture.record_text(seq, obj))
        r = build(log)
        self.assertEqual(len(r.notes), 1)
        self.assertIn("scaled 200 is not raw * enabled / running (300)", r.notes[0])
        self.assertEqual(r.exit_code, pmu_model.EXIT_OK)  # a note, not a verdict

    def test_count_without_its_keys_is_a_problem_on_its_line(self):
        log = logfixture.suite()
        seq = log.seq_of("count", exp="ch8-starvation", xsu="off", thread=1)
        log.replace_line(seq, logfixture.record_text(seq, {"type": "count", "raw": 5}))
        r = build(log)
        problem = [p for p in r.stream.problems if p.kind == "contract"][0]
        self.assertEqual((problem.seq, problem.line_no), (seq, log.line_no(seq)))
        self.assertEqual("record @%d (count): no key exp" % seq, problem.detail)
        self.assertEqual(r.exit_code, pmu_model.EXIT_CONTRACT)
        t = table(pmu_text.render_text(r), "ch8-starvation", 1)
        self.assertEqual(t["branches"][0], "-")  # the count is not used

    def test_boot_checks_the_text_does_not_draw_are_counted(self):
        log = logfixture.suite(end=False)
        logfixture.boot_checks(log)
        log.end()
        r = build(log)
        self.assertEqual(r.exit_code, pmu_model.EXIT_OK)
        self.assertEqual(r.other_types, {"cpu": 1, "tick": 1, "sibling": 1, "pmu_check": 1})
        self.assertIn("Other records: 1 cpu, 1 pmu_check, 1 sibling, 1 tick",
                      pmu_text.render_text(r))


class Json(unittest.TestCase):
    def test_report_json_holds_runs_counts_and_summary(self):
        j = pmu_export.report_json(build(logfixture.suite()))
        self.assertEqual([e["exp"] for e in j["experiments"]],
                         ["ch4-branch-misses", "ch7-three-events", "ch8-starvation",
                          "xsu-hk-vs-greedy"])
        ch4 = j["experiments"][0]
        self.assertEqual([r["label"] for r in ch4["runs"]], ["baseline", "XSU off", "XSU on"])
        off = ch4["runs"][1]
        self.assertEqual(off["exposure"], 1000)
        c = [c for c in off["counts"] if c["thread"] == 1][0]
        self.assertEqual((c["event"], c["scaled"], c["baseline"], c["corrupted"]),
                         ("r00c5:u", 40960843, 644, True))
        self.assertEqual(ch4["summary"]["off"]["corrupted"], 1)
        self.assertEqual(j["summary"]["exit"], 0)
        self.assertEqual(j["summary"]["verdicts"], {"pass": 7, "fail": 0, "skip": 0})
        self.assertTrue(j["log"]["intact"])

    def test_report_json_of_a_damaged_log_lists_problems(self):
        log = logfixture.suite()
        log.flip_crc(12)
        j = pmu_export.report_json(build(log))
        self.assertEqual(j["log"]["lost"], [[12, 12]])
        self.assertEqual([(p["kind"], p["seq"], p["line"]) for p in j["log"]["problems"]],
                         [("crc", 12, log.line_no(12))])
        self.assertEqual(j["summary"]["exit"], pmu_model.EXIT_DAMAGED)


class Formatting(unittest.TestCase):
    def test_seq_ranges(self):
        self.assertEqual(pmu_records.fmt_spans([(3, 5), (9, 9), (11, 12)]),
                         "@3-@5, @9, @11-@12")
        self.assertEqual(pmu_records.fmt_spans([]), "none")

    def test_counts_and_percentages(self):
        self.assertEqual(pmu_format.count_text(5747793793), "5,747,793,793")
        self.assertEqual(pmu_format.pct_text(0.6668), "[ 66.68%]")


if __name__ == "__main__":
    unittest.main()
