"""What pmu-bench and pmu-report print from the kernel's `bench`, `bench_result` and
`bench_counts` records (tools/pmu_bench_output.py, docs/records.md): nanoBench's `Name: value`
lines with two decimals, a heading per thread when HT1 counts, `n/a` with the reason for an event
without a value, the fault or time limit of a part; nanoBench's -range (a least below zero reads
<0), -remove_empty_events and -verbose; --json's object; the records' contract (HT0's value is
the difference of its run sets' aggregates, HT1's the aggregate of its values; min and max are
what the values give); and pmu-report's section for a real machine's serial log."""

import json
import os
import subprocess
import tempfile
import unittest

from tests.report import logfixture
import pmu_bench_output as out
import pmu_records

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPTIONS = dict(unroll_count=1000, loop_count=0, n_measurements=5, warm_up_count=5,
               initial_warm_up_count=0, alignment_offset=0, aggregate="avg", basic_mode=False,
               no_normalization=False, usr=True, os=False, fixed_counters=True, xsu="on",
               ring=3, sibling="none", sibling_work=None)


def result(log, bench, thread, index, event, name, values=None, value=None, **extra):
    """A bench_result record; value defaults to the trimmed mean of five values (the middle
    three), which a test states itself where it matters."""
    values = values or []
    keys = dict(bench=bench, thread=thread, index=index, event=event, name=name, values=values,
                value=value, min=min(values) if values else None,
                max=max(values) if values else None, modelled=True,
                reason=None if values else "not modelled: the trace cannot count it",
                fault=None, evtsel=None, counter=None)
    keys["pass"] = 0
    keys.update(extra)
    log.record("bench_result", **keys)


def example_log(fault=None, value_of_loads=1.0, crcs=(0x2f1bc0cd, 0x12345678), end="pass"):
    """Two bundles' records; end "pass", "died" (the boot failed inside the second bundle: its
    bench record, no result, an end record with verdict fail) or None (the log stops there)."""
    log = logfixture.Log()
    logfixture.boot_and_pmu(log, warn=False)
    log.record("bench", bench=0, source="multiboot1", name="bench1.bin", size=1072,
               crc32="0x%08x" % crcs[0], version=1, error=None, options=OPTIONS,
               parts=dict(one_time_init=0, init=10, late_init=0, code=3, sibling=0),
               events=[5, 0], repetitions=1000)
    result(log, 0, 0, 0, "fixed0", "Instructions retired", [1.0] * 5, 1.0)
    # 3.9, 4.0, 4.0, 4.1, 9.0: the middle three (3 of 5: 5 // 5 = 1 set aside at each end)
    # are 4.0, 4.0, 4.1, whose mean 4.0333 prints as 4.03.
    result(log, 0, 0, 1, "fixed1", "Core cycles", [4.1, 3.9, 9.0, 4.0, 4.0], 4.03)
    result(log, 0, 0, 2, "D0.81", "MEM_UOPS_RETIRED.ALL_LOADS", [1.0, 1.0, 1.0, 1.0, 1.02],
           value_of_loads, evtsel="0x4181d0", counter="gp0")
    result(log, 0, 0, 3, "D1.08", "MEM_LOAD_UOPS_RETIRED.L1_MISS", modelled=False)
    result(log, 0, 0, 4, "B7.01.MSR_RSP0=0x1", "OFFCORE_RESPONSE", modelled=False,
           reason="not programmable: an offcore response event", **{"pass": None})
    log.record("bench", bench=1, source="multiboot1", name="bench2.bin", size=900,
               crc32="0x%08x" % crcs[1], version=1, error=None,
               options=dict(OPTIONS, sibling="code", no_normalization=True),
               parts=dict(one_time_init=0, init=0, late_init=0, code=4, sibling=2),
               events=[1, 1], repetitions=1)
    if end == "died":
        log.record("end", records=log.next_seq, verdict="fail", failures=1,
                   reason="#DB debug on CPU 0 (APIC 0) at RIP 0x0000000000400123")
        return log
    result(log, 1, 0, 0, "CC.20", "ROB_MISC_EVENTS.LBR_INSERTS", [0.0] * 5, 0.0)
    result(log, 1, 1, 0, "D0.81", "MEM_UOPS_RETIRED.ALL_LOADS",
           [1500.0, 1490.0, 1510.0, 1500.0, 1500.0], 1500.0, fault=fault)
    if end == "pass":
        log.end()
    return log


def collect(log):
    return out.collect(pmu_records.parse(log.render()).usable_records())


class Text(unittest.TestCase):
    def test_nanobench_lines(self):
        runs, problems = collect(example_log())
        self.assertEqual(problems, [])
        self.assertEqual(out.render_text(runs[:1]),
                         "Instructions retired: 1.00\n"
                         "Core cycles: 4.03\n"
                         "MEM_UOPS_RETIRED.ALL_LOADS: 1.00\n"
                         "MEM_LOAD_UOPS_RETIRED.L1_MISS: n/a (not modelled: the trace cannot "
                         "count it)\n"
                         "OFFCORE_RESPONSE: n/a (not programmable: an offcore response event)\n")

    def test_per_thread_and_per_bundle(self):
        runs, _ = collect(example_log())
        text = out.render_text(runs)
        self.assertIn("Bundle 1 (bench1.bin):\nInstructions retired: 1.00\n", text)
        # -no_normalization: whole numbers, as nanoBench prints them.
        self.assertTrue(text.endswith("Bundle 2 (bench2.bin):\nHT0:\n"
                                      "ROB_MISC_EVENTS.LBR_INSERTS: 0\n\n"
                                      "HT1:\nMEM_UOPS_RETIRED.ALL_LOADS: 1500\n"), text)
        self.assertFalse(out.failed(runs))

    def test_the_sibling_beside(self):
        # HT1's loop beside HT0's runs: a note says how much (the least of the results), and a
        # line of HT0 whose pass HT1 did not run beside at all says so, not a bare 0.00.
        def sibling_log(overlap, again):
            log = logfixture.Log()
            logfixture.boot_and_pmu(log, warn=False)
            log.record("bench", bench=0, source="multiboot1", name="bench1.bin", size=900,
                       crc32="0x2f1bc0cd", version=2, error=None,
                       options=dict(OPTIONS, sibling="code"),
                       parts=dict(one_time_init=0, init=0, late_init=0, code=1, sibling=4),
                       events=[1, 1], repetitions=1000)
            result(log, 0, 0, 0, "CC.20", "LBR_INSERTS", [0.0] * 5, 0.0, overlap_pct=overlap,
                   alone_again=again)
            result(log, 0, 1, 0, "D0.81", "LOADS", [0.98] * 5, 0.98, overlap_pct=overlap,
                   alone_again=again)
            log.end()
            return log
        runs, problems = collect(sibling_log(0, 40))
        self.assertEqual(problems, [])
        self.assertEqual(out.render_text(runs), "HT0:\nLBR_INSERTS: 0.00 (HT1 did not run beside "
                         "these runs: overlap_pct 0)\n\nHT1:\nLOADS: 0.98\n")
        self.assertEqual(out.notes(runs[0]), [
            "HT1's loop ran beside 0% of HT0's runs (overlap_pct, the least of a measurement): "
            "in a pass HT1 ran no copy beside HT0's runs at all (its host held it back, or its "
            "workload halts), so nothing HT1 did reached HT0's counts there; 40 "
            "measurement(s) made again as HT0 ran alone"])
        self.assertEqual(out.render_json(runs)["threads"][0]["events"][0]["alone_again"], 40)
        runs, _ = collect(sibling_log(88, 0))
        self.assertEqual(out.render_text(runs), "HT0:\nLBR_INSERTS: 0.00\n\nHT1:\nLOADS: 0.98\n")
        self.assertEqual(out.notes(runs[0]), ["HT1's loop ran beside 88% of HT0's runs "
                                              "(overlap_pct, the least of a measurement)"])
        # Issue 27: with no sibling given (-xsu core's catchers), the loop is named for what it
        # is, not taken for a sibling the user did not give.
        runs[0].bench_record["options"] = dict(OPTIONS, sibling="none")
        self.assertEqual(out.notes(runs[0]), [
            "HT1's empty loop (no sibling was given: it spins to read its counters, the "
            "catchers of -xsu core or -sibling_config's events) ran beside 88% of HT0's runs "
            "(overlap_pct, the least of a measurement)"])

    def test_what_xsu_on_loses(self):
        # Issue 27: under -xsu on a corrupting event's leak into the sibling's unused counter is
        # lost, 0.98 for a load where -xsu core gives 1.00: one note says so, with the model's
        # share from the pmu record, and only where a corrupting event was counted on a core
        # with the erratum.
        runs, _ = collect(example_log())
        pmu = logfixture.pmu_record()
        said = ("XSU on (the default) does not give back what the erratum (HSD29) moves of "
                "MEM_UOPS_RETIRED.ALL_LOADS%s into the sibling's unused counter of the same "
                "index: it is lost, as under Linux's XSU, and the count reads that much low; "
                "-xsu core catches it there and gives it back")
        self.assertEqual(out.notes(runs[0], pmu), [said % " (2.5% under the model)"])
        self.assertEqual(out.notes(runs[0], logfixture.pmu_record(backend="hw", model=None)),
                         [said % ""])
        self.assertEqual(out.notes(runs[0]), [])
        self.assertEqual(out.notes(runs[0], logfixture.pmu_record(erratum=None)), [])
        self.assertEqual(out.notes(runs[0], logfixture.pmu_record(smt=False)), [])
        runs[0].bench_record["options"] = dict(OPTIONS, xsu="core")
        self.assertEqual(out.notes(runs[0], pmu), [])
        runs, _ = collect(example_log(value_of_loads=None))
        self.assertEqual(out.notes(runs[0], pmu), [])

    def test_unfinished(self):
        runs, problems = collect(example_log(end="died"))
        self.assertEqual(problems, [])
        self.assertEqual(out.unfinished(runs),
                         ["bench 1: the kernel took the bundle but wrote no result"])
        self.assertEqual(out.unfinished(collect(example_log())[0]), [])

    def test_faults(self):
        runs, _ = collect(example_log(fault=dict(vector="#UD", part="sibling", offset=2)))
        self.assertTrue(out.render_text(runs).endswith("fault: #UD in part sibling at offset 2\n"))
        self.assertTrue(out.failed(runs))
        runs, _ = collect(example_log(fault=dict(vector="timeout", part="code", offset=None)))
        self.assertIn("timeout: part code did not finish within the time limit (bench_ms)",
                      out.render_text(runs))


class Json(unittest.TestCase):
    def test_one_bundle(self):
        runs, _ = collect(example_log())
        obj = json.loads(json.dumps(out.render_json(runs[:1])))
        self.assertEqual(obj["fault"], None)
        self.assertEqual(len(obj["threads"]), 1)
        events = obj["threads"][0]["events"]
        self.assertEqual([(e["name"], e["event"], e["value"]) for e in events], [
            ("Instructions retired", "fixed0", 1.0), ("Core cycles", "fixed1", 4.03),
            ("MEM_UOPS_RETIRED.ALL_LOADS", "D0.81", 1.0),
            ("MEM_LOAD_UOPS_RETIRED.L1_MISS", "D1.08", None),
            ("OFFCORE_RESPONSE", "B7.01.MSR_RSP0=0x1", None)])
        self.assertEqual([e["modelled"] for e in events], [True, True, True, False, False])
        self.assertEqual(events[1]["values"], [4.1, 3.9, 9.0, 4.0, 4.0])
        self.assertEqual((events[1]["min"], events[1]["max"]), (3.9, 9.0))
        self.assertIn("offcore", events[4]["reason"])

    def test_backwards_and_overlap(self):
        # What went backwards (left out of the values) and how much of HT0's runs HT1's loop
        # ran beside: in --json as in the record; a record of an earlier kernel has neither.
        log = example_log()
        result(log, 1, 1, 1, "D0.82", "MEM_UOPS_RETIRED.ALL_STORES", [1.0] * 4, 1.0,
               backwards=1, overlap_pct=85)
        runs, problems = collect(log)
        self.assertEqual(problems, [])
        events = out.render_json(runs)["bundles"][1]["threads"][1]["events"]
        self.assertEqual([(e["backwards"], e["overlap_pct"]) for e in events],
                         [(0, None), (1, 85)])

    def test_several_bundles_and_a_fault(self):
        fault = dict(vector="#UD", part="code", offset=3)
        runs, _ = collect(example_log(fault=fault))
        obj = out.render_json(runs)
        self.assertEqual(len(obj["bundles"]), 2)
        self.assertEqual(obj["bundles"][1]["fault"], fault)
        self.assertEqual([t["thread"] for t in obj["bundles"][1]["threads"]], [0, 1])


def run_set(agg, least, most):
    return {"agg": agg, "min": least, "max": most}


def nanobench_log(options, runs, value, values, counts=None, more=None):
    """One bundle of one HT0 event with its run sets (`runs` of the record), and with -verbose
    its bench_counts record."""
    log = logfixture.Log()
    logfixture.boot_and_pmu(log, warn=False)
    log.record("bench", bench=0, source="multiboot1", name="bench1.bin", size=900,
               crc32="0x2f1bc0cd", version=2, error=None, options=dict(OPTIONS, **options),
               parts=dict(one_time_init=0, init=0, late_init=0, code=3, sibling=0),
               events=[2, 0], repetitions=1000)
    result(log, 0, 0, 0, "D0.81", "LOADS", values, value, runs=runs)
    result(log, 0, 0, 1, "C4.00", "BRANCHES", [0.0] * 5, 0.0, runs={
        "short": run_set(5.0, 5, 5), "long": run_set(5.0, 5, 5)})
    if counts:
        log.record("bench_counts", bench=0, thread=0, index=0, short=counts[0], long=counts[1])
    if more:
        more(log)
    log.end()
    return log


class NanoBench(unittest.TestCase):
    """nanoBench's arithmetic and output options. HT0's value is (aggregate of the 2N runs less
    aggregate of the N runs) per repetition: here 1,000 copies, N runs of 1000-1300 loads and 2N
    runs of 1500-2001; the avg aggregates 1000.00 and 1999.83 give 1.00 (999.83 / 1000)."""

    RUNS = {"short": run_set(1000.0, 1000, 1300), "long": run_set(1999.83, 1500, 2001)}
    VALUES = [1.0, 1.0, 0.7, 1.0, 1.0]   # per measurement; one came out below zero, left out

    def test_the_value_is_the_difference_of_the_aggregates(self):
        runs, problems = collect(nanobench_log({}, self.RUNS, 1.0, self.VALUES))
        self.assertEqual(problems, [])
        _, problems = collect(nanobench_log({}, self.RUNS, 0.93, self.VALUES))
        self.assertEqual(len(problems), 1)
        self.assertIn("value 0.93 is not the avg of its 2N runs less that of its N runs, per "
                      "repetition (1.00)", problems[0])

    def test_range(self):
        # [least of 2N less most of N; most of 2N less least of N] per copy: [0.20; 1.00], and
        # a least below zero reads <0 (no figure printed is below zero)
        runs, _ = collect(nanobench_log(dict(range=True), self.RUNS, 1.0, self.VALUES))
        self.assertIn("LOADS: 1.00 [0.20;1.00]\nBRANCHES: 0.00 [0.00;0.00]\n",
                      out.render_text(runs))
        self.assertEqual(out.render_json(runs)["threads"][0]["events"][0]["range"], [0.2, 1.0])
        wide = {"short": run_set(1000.0, 900, 1600), "long": run_set(1999.83, 1500, 2001)}
        runs, _ = collect(nanobench_log(dict(range=True), wide, 1.0, self.VALUES))
        self.assertIn("LOADS: 1.00 [<0;1.10]\n", out.render_text(runs))
        self.assertEqual(out.render_json(runs)["threads"][0]["events"][0]["range"], [None, 1.1])

    def test_remove_empty_events(self):
        runs, _ = collect(nanobench_log(dict(remove_empty_events=True), self.RUNS, 1.0,
                                        self.VALUES))
        self.assertEqual(out.render_text(runs), "LOADS: 1.00\n")

    def test_verbose(self):
        counts = ([1000, 1000, 1300, 1000, 1000], [2000, 2001, 1999, 2000, 1500])
        runs, problems = collect(nanobench_log(dict(verbose=True), self.RUNS, 1.0, self.VALUES,
                                               counts))
        self.assertEqual(problems, [])
        self.assertIn("\nEvery run's count (unroll_count=1000, loop_count=0 | unroll_count=2000, "
                      "loop_count=0):\nLOADS: 1000 1000 1300 1000 1000 | 2000 2001 1999 2000 "
                      "1500\n", out.render_text(runs))
        event = out.render_json(runs)["threads"][0]["events"][0]
        self.assertEqual(event["counts"], {"short": counts[0], "long": counts[1]})
        self.assertEqual(event["runs"], self.RUNS)

    def test_notes(self):
        log = nanobench_log({}, self.RUNS, 1.0, self.VALUES, more=lambda log: result(
            log, 0, 0, 2, "C0.00", "INST", [1.0] * 5, 1.0, note="traced with fewer copies",
            runs={"short": run_set(1000.0, 1000, 1000), "long": run_set(2000.0, 2000, 2000)}))
        runs, problems = collect(log)
        self.assertEqual(problems, [])
        self.assertEqual(out.notes(runs[0]), ["traced with fewer copies"])


class Contract(unittest.TestCase):
    def test_a_value_that_is_not_the_aggregate(self):
        _, problems = collect(example_log(value_of_loads=1.01))
        self.assertEqual(len(problems), 1)
        self.assertIn("value 1.01 is not the avg of its values (1.00)", problems[0])

    def test_no_figure_below_zero(self):
        # A count that went backwards is named (backwards, or a reason), never printed: a
        # figure below zero breaks the contract, and pmu-bench has no result to trust.
        log = example_log()
        result(log, 1, 1, 1, "D0.82", "MEM_UOPS_RETIRED.ALL_STORES", [0.5, -0.25, 0.5, 0.5, 0.5],
               0.5)
        stream = pmu_records.parse(log.render())
        breaches = " ".join(str(p) for p in stream.breaches())
        self.assertIn("key values", breaches)
        self.assertIn("key min: -0.25", breaches)

    def test_keys_and_types(self):
        """Every key of docs/records.md's two records is in every record (null when there is
        nothing to say); a wrong type, a value with a reason and neither are problems."""
        log = logfixture.Log()
        log.record("bench", bench=0, source="multiboot1", name=None, size=3, crc32=None,
                   version=None, error="no PMUBENCH magic: not a bundle", options=None,
                   parts=None, events=None, repetitions=None)
        common = dict(bench=0, index=0, event="e", name="n", evtsel=None, counter=None,
                      fault=None, min=None, max=None)
        common["pass"] = None
        log.record("bench_result", **dict(common, thread=300, values=[], value=None,
                                          modelled=False, reason="r"))
        log.record("bench_result", **dict(common, thread=0, values=[1.0], value=1.0,
                                          modelled=True, reason="both", min=1.0, max=1.0))
        log.record("bench_result", **dict(common, thread=0, index=1, values=[], value=None,
                                          modelled=False, reason=None))
        stream = pmu_records.parse(log.render())
        runs, problems = out.collect(stream.usable_records())
        self.assertEqual(len(runs), 1)
        self.assertEqual(runs[0].error, "no PMUBENCH magic: not a bundle")
        self.assertTrue(out.failed(runs))
        self.assertEqual(len(problems), 2, problems)
        self.assertIn("a value and a reason", problems[0])
        self.assertIn("no value and no reason", problems[1])
        self.assertIn("key thread: 300", " ".join(str(p) for p in stream.breaches()))
        self.assertIn("the kernel refused this bundle", out.render_text(runs))
        log = logfixture.Log()
        log.record("bench", bench=0, source="multiboot1", size=3)
        stream = pmu_records.parse(log.render())
        self.assertIn("no key crc32", " ".join(str(p) for p in stream.breaches()))


class Pairing(unittest.TestCase):
    """pmu-bench pairs each bench record with the bundle it sent by the header's CRC-32."""

    def test_every_bundle_has_its_record(self):
        runs, _ = collect(example_log())
        self.assertEqual(out.match_bundles(runs, [0x2f1bc0cd, 0x12345678]), [])
        self.assertEqual(out.match_bundles(runs, [0x2f1bc0cd, 0x12345679]), [
            "bench 1 says CRC-32 0x12345678, but the bundle sent as 1 has 0x12345679"])
        self.assertEqual(out.match_bundles(runs, [0x2f1bc0cd, 0x12345678, 7]), [
            "bundle 2 (CRC-32 0x00000007) has no bench record"])
        self.assertEqual(out.match_bundles(runs, [0x2f1bc0cd]), [
            "bench 1: no bundle was sent as 1"])


class Report(unittest.TestCase):
    def run_report(self, log):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "serial.log")
            with open(path, "w") as f:
                f.write(log.render())
            proc = subprocess.run([os.path.join(TOP, "tools", "pmu-report"), path, "--out",
                                   os.path.join(tmp, "results"), "--csv"],
                                  capture_output=True, text=True)
        return proc

    def test_a_serial_log_with_bench_records(self):
        proc = self.run_report(example_log())
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("Your own code (bench records; docs/own-code.md):\n\n"
                      "Bundle 1 (bench1.bin):\nInstructions retired: 1.00\n", proc.stdout)
        self.assertIn("HT1:\nMEM_UOPS_RETIRED.ALL_LOADS: 1500\n", proc.stdout)

    def test_a_log_without_them(self):
        log = logfixture.Log()
        logfixture.boot_and_pmu(log, warn=False)
        log.end()
        proc = self.run_report(log)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertNotIn("Your own code", proc.stdout)


if __name__ == "__main__":
    unittest.main()
