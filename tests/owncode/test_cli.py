"""tools/pmu-bench's command line: nanoBench's options with nanoBench's meanings and defaults in
the bundle it writes (-u and -n as nanoBench's scripts read them, n*|x|, -help), and every kind
of bad input refused with the option named, what is accepted, exit status 2 and no traceback;
--qemu's messages (a boot cut by --timeout, -cpu's core) on the serial log a fake boot writes."""

import json
import os
import subprocess
import tempfile
import unittest

import pmu_bench_bundle as bundle
import pmu_records
import qemu_boot
from tests.owncode import nbconfig, test_output
from tests.owncode.benchtool import CLI, TOOL, run
from tests.report import logfixture


class Case(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="pmu-bench-cli-")
        self.addCleanup(self.tmp.cleanup)
        self.out = os.path.join(self.tmp.name, "out")
        self.cfg = self.file("cfg.txt", "C0.00 INST_RETIRED.ANY_P\nD0.81 LOADS\n")

    def file(self, name, text, mode="w"):
        path = os.path.join(self.tmp.name, name)
        with open(path, mode) as f:
            f.write(text)
        return path

    def bench(self, *argv):
        return run(*(list(argv) + ["--out", self.out]))

    def written(self, *argv):
        r = self.bench(*argv)
        self.assertEqual(r.status, 0, r)
        with open(os.path.join(self.out, "bundle.bin"), "rb") as f:
            return bundle.read(f.read())

    def refused(self, argv, *words):
        r = self.bench(*argv)
        self.assertEqual(r.status, 2, r)
        self.assertTrue(r.stderr.startswith("pmu-bench: "), r)
        for w in words:
            self.assertIn(w, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.out, "bundle.bin")), "no bundle")
        return r


class Bundles(Case):
    def test_nanobench_defaults(self):
        b = self.written("-asm", "ADD RAX, RBX; ADD RBX, RAX", "-fixed_counters")
        self.assertEqual(b.params, bundle.Params(fixed_counters=True))
        p = b.params
        self.assertEqual((p.unroll_count, p.loop_count, p.n_measurements, p.warm_up_count,
                          p.initial_warm_up_count, p.alignment_offset, p.aggregate),
                         (1000, 0, 10, 5, 0, 0, "avg"))
        self.assertEqual((p.usr, p.os, p.xsu, p.ring, p.sibling), (True, False, "on", 3,
                                                                   "none"))
        self.assertEqual(b.parts["code"], bytes.fromhex("4801d8" "4801c3"))
        self.assertEqual([e.name for e in b.events[0]],
                         ["RDTSC", "Instructions retired", "Core cycles", "Reference cycles"])

    def test_nanobench_output_options(self):
        b = self.written("-asm", "nop", "-fixed_counters", "-range", "-remove_empty_events",
                         "-verbose", "-df", "-no_mem")
        p = b.params
        self.assertEqual((p.range, p.remove_empty_events, p.verbose, p.df, p.no_mem),
                         (True,) * 5)

    def test_the_scripts_short_words(self):
        # kernel-nanoBench.sh reads -u* as -unroll_count and -n* (after -no_m*, -no_n*) as
        # -n_measurements; as prefixes here both would be ambiguous (-usr; -no_normalization).
        b = self.written("-asm", "nop", "-fixed_counters", "-u", "7", "-n", "3")
        self.assertEqual((b.params.unroll_count, b.params.n_measurements), (7, 3))
        b = self.written("-asm", "nop", "-fixed_counters", "-us", "1", "-no_n")
        self.assertTrue(b.params.no_normalization)

    def test_repetitions_in_the_code(self):
        self.refused(["-asm", "2*|3*|nop||", "-fixed_counters"], "-asm", "does not nest")
        self.refused(["-asm", "0*|nop|", "-fixed_counters"], "-asm", "n from 1")
        b = self.written("-asm", "3*|add rax, rbx|; 2*||2|", "-fixed_counters")
        self.assertEqual(b.parts["code"], bytes.fromhex("4801d8" * 3 + "6690" * 2))

    def test_help(self):
        for word in ("-help", "-h", "--help"):
            proc = subprocess.run([TOOL, word], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 0)
            for option in ("-range", "-remove_empty_events", "-verbose", "-no_mem", "-df",
                           "-cpu N", "--cpu MODEL"):
                self.assertIn(option, proc.stdout)

    def test_a_config_of_every_event(self):
        # nanoBench's configs hold hundreds of events (cfg_Haswell_all_core.txt: 329), with tabs
        path = os.path.join(self.tmp.name, "cfg_Haswell_all.txt")
        n = nbconfig.write("haswell", path)
        b = self.written("-asm", "nop", "-config", path)
        self.assertEqual(len(b.events[0]), n)
        r = self.bench("-asm", "nop", "-config", path)
        self.assertEqual(len([line for line in r.stderr.splitlines() if "not programmable" in
                              line]), 2, r)   # one line a reason: offcore, load latency
        self.assertIn("41 events (OFFCORE_RESPONSE.ALL_CODE_RD.L3_HIT.HIT_OTHER_CORE_NO_FWD, "
                      "OFFCORE_RESPONSE.ALL_CODE_RD.L3_MISS.ANY_RESPONSE and 39 more): not "
                      "programmable", r.stderr)

    def test_every_option_reaches_the_bundle(self):
        code = self.file("code.bin", b"\x90\x90", "wb")
        b = self.written("-code", code, "-asm_one_time_init", "nop", "-asm_init", "|3",
                         "-code_late_init", code, "-config", self.cfg, "-unroll_count", "50",
                         "-loop_count", "100", "-n_measurements", "20", "-warm_up_count", "1",
                         "-initial_warm_up_count", "3", "-alignment_offset", "7", "-median",
                         "-basic_mode", "-no_normalization", "-usr", "1", "-os", "1",
                         "-sibling_asm", "pause", "-sibling_config", self.cfg, "-xsu", "core")
        self.assertEqual(b.params, bundle.Params(
            unroll_count=50, loop_count=100, n_measurements=20, warm_up_count=1,
            initial_warm_up_count=3, alignment_offset=7, aggregate="median", xsu="core",
            sibling="code", basic_mode=True, no_normalization=True, usr=True, os=True))
        self.assertEqual((b.parts["code"], b.parts["late_init"], b.parts["one_time_init"],
                          b.parts["init"], b.parts["sibling"]),
                         (b"\x90\x90", b"\x90\x90", b"\x90", bytes.fromhex("0f1f00"),
                          bytes.fromhex("f390")))
        self.assertEqual([e.spec for e in b.events[1]], ["C0.00", "D0.81"])
        self.assertEqual(b.events[1][1].evtsel, 0xD0 | 0x81 << 8 | 3 << 16 | 1 << 22)

    def test_kernel_mode_counts_at_cpl_0(self):
        b = self.written("-asm", "cli; sti", "-config", self.cfg, "-ring", "0", "-min")
        self.assertEqual((b.params.ring, b.params.usr, b.params.os, b.params.aggregate),
                         (0, True, True, "min"))
        self.assertEqual(b.events[0][0].evtsel & (3 << 16), 3 << 16)

    def test_sibling_workload(self):
        b = self.written("-config", self.cfg, "-sibling_work", "idle", "-max")
        self.assertEqual((b.params.sibling, b.params.sibling_work), ("work", "idle"))
        self.assertEqual(b.parts["code"], b"")       # the empty snippet

    def test_abbreviations_as_in_nanobench(self):
        b = self.written("-asm", "nop", "-config", self.cfg, "-unroll", "7", "-loop", "3")
        self.assertEqual((b.params.unroll_count, b.params.loop_count), (7, 3))

    def test_notes_that_are_not_errors(self):
        cfg = self.file("offcore.cfg", "B7.01.MSR_RSP0=0x10 OFFCORE\n")
        r = self.bench("-config", cfg, "-usr", "0", "-os", "1")
        self.assertEqual(r.status, 0, r)
        self.assertIn("note: -usr 0 with -ring 3: the code runs at CPL 3 and is not counted",
                      r.stderr)
        self.assertIn("OFFCORE): not programmable", r.stderr)

    def test_show(self):
        r = self.bench("-asm", "push rax; pop rax", "-config", self.cfg, "--show")
        self.assertEqual(r.status, 0, r)
        self.assertIn("HT0 D0.81", r.stdout)
        self.assertIn("EVTSEL 0x004181d0", r.stdout)
        self.assertIn("push rax", r.stdout)
        self.assertIn("reads 1, writes 0", r.stdout)


class BadInput(Case):
    def test_numbers(self):
        self.refused(["-unroll_count", "x"], "-unroll_count", "a whole number from 1 to 1000000")
        self.refused(["-unroll_count", "0"], "-unroll_count")
        self.refused(["-n_measurements", "101"], "-n_measurements", "from 1 to 100")
        self.refused(["-loop_count", "-1"], "-loop_count")
        self.refused(["-alignment_offset", "4096"], "-alignment_offset", "0 to 4095")
        self.refused(["-usr", "2"], "-usr", "from 0 to 1")

    def test_choices(self):
        self.refused(["-xsu", "maybe"], "-xsu", "'off', 'on', 'core'")
        self.refused(["-ring", "1"], "-ring", "0, 3")
        self.refused(["-median", "-min"], "-min", "not allowed with argument -median")
        self.refused(["-c", "x"], "ambiguous option: -c could match")
        self.refused(["-nonsense"], "unrecognized arguments: -nonsense")

    def test_conflicts(self):
        self.refused(["-asm", "nop", "-code", self.cfg], "-asm and -code both give the same part")
        self.refused(["-sibling_asm", "nop", "-sibling_work", "idle"], "HT1 runs one thing")
        self.refused(["-usr", "0", "-os", "0", "-config", self.cfg], "counts nothing")
        self.refused(["-config", self.cfg, "--json"], "--json", "--qemu")
        self.refused(["-asm", "nop"], "nothing to count", "-config FILE", "-fixed_counters")
        # Issue 27: a config file without events is named, not asked for.
        empty = os.path.join(self.tmp.name, "empty.cfg")
        with open(empty, "w") as f:
            f.write("# no events yet\n\n")
        self.refused(["-asm", "nop", "-config", empty], "nothing to count: -config %s holds "
                     "no events (nothing but comments and blank lines); give events there, or "
                     "-fixed_counters" % empty)
        self.refused(["-config", empty, "-sibling_config", empty],
                     "-config %s and -sibling_config %s hold no events" % (empty, empty))

    def test_workload_names_come_from_the_library(self):
        r = self.refused(["-sibling_work", "sleep", "-config", self.cfg], "-sibling_work sleep")
        for name in ("triad", "copy", "chase", "branchy", "alu", "idle"):
            self.assertIn(name, r.stderr)

    def test_files(self):
        self.refused(["-config", os.path.join(self.tmp.name, "none.cfg")], "none.cfg",
                     "cannot read it")
        self.refused(["-config", self.file("bad.cfg", "C0.00 OK\nC0.0G BAD\n")],
                     "bad.cfg line 2", "UMASK '0G'")
        self.refused(["-fixed_counters", "-code_init", os.path.join(self.tmp.name, "no")],
                     "-code_init", "cannot read it")
        self.refused(["-fixed_counters", "--bundle", self.cfg], "--bundle", "magic")

    def test_code(self):
        self.refused(["-fixed_counters", "-asm", "mov rax, [rax"], "-asm: the assembler",
                     "statement 1")
        self.refused(["-fixed_counters", "-asm_late_init", "|20"], "-asm_late_init: |20")
        # the option named, with the most copies of this code the kernel unrolls (8 MiB)
        self.refused(["-fixed_counters", "-asm", "|9", "-unroll_count", "1000000"],
                     "-unroll_count 1000000: 1000000 copies of the 9-byte code make 9000000 "
                     "bytes", "at most 932067 copies")

    def test_what_cannot_apply_here(self):
        self.refused(["-asm", "nop", "-fixed_counters", "-debug"], "-debug", "no debugger",
                     "INT3", "#BP")
        self.refused(["-asm", "nop", "-msr_config", "msr.txt"], "-msr_config msr.txt", "RDMSR",
                     "uncore")

    def test_boot_options(self):
        self.refused(["-fixed_counters", "--cpu", "Haswell; rm"], "--cpu")
        self.refused(["-fixed_counters", "-cpu", "x"], "-cpu", "a whole number")
        if qemu_boot.qemu_available():
            self.refused(["-fixed_counters", "--qemu", "--cpu", "haswell"],
                         "--cpu haswell: not a CPU model of this QEMU; did you mean Haswell")
        self.refused(["-fixed_counters", "--image", os.path.join(self.tmp.name, "x.zip")],
                     "--image", ".iso", ".img")
        self.refused(["-fixed_counters", "--image", os.path.join(self.tmp.name, "x.iso"),
                      "--append", "a='b c'"], "--append", "a='b")

    def test_no_traceback_in_a_real_process(self):
        proc = subprocess.run([TOOL, "-unroll_count", "many", "--out", self.out],
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(proc.stderr, "pmu-bench: argument -unroll_count: 'many' is not "
                         "accepted: a whole number from 1 to 1000000\n")


def bench_taken(crcs, size, version, events, init, code):
    """A log in which the kernel took bundle 0 (its `bench` record) and wrote nothing after."""
    log = logfixture.Log()
    logfixture.boot_and_pmu(log, warn=False)
    log.record("bench", bench=0, source="multiboot1", name="bench1.bin", size=size,
               crc32="0x%08x" % crcs[0], version=version, error=None,
               options=test_output.OPTIONS, events=events, repetitions=1000,
               parts=dict(one_time_init=0, init=init, late_init=0, code=code, sibling=0))
    return log


class FakeBoot:
    """Stands in for the QEMU boot (pmu_bench_boot.boot_qemu): writes the serial log a kernel
    would write for the bundles it is given, so that --qemu's reading, pairing and printing are
    tested whatever the kernel does today."""

    class Result:
        timed_out = False
        exit_status = None   # QEMU stopped by the driver once the end record was in
        stderr = ""

    def __init__(self, make_log):
        self.make_log = make_log
        self.bundles = None
        self.boots = 0

    def __call__(self, bundles, kernel, cpu, append, timeout, log, cores=1):
        self.bundles = bundles
        self.boots += 1
        self.append, self.cores = append, cores
        crcs = []
        for path in bundles:
            with open(path, "rb") as f:
                crcs.append(bundle.read(f.read()).crc)
        text = self.make_log(crcs).render()
        with open(log, "w") as f:
            f.write(text)
        return self.Result(), pmu_records.parse(text)


class QemuPath(Case):
    def boot(self, make_log, *argv):
        second = os.path.join(self.tmp.name, "second")
        self.assertEqual(run("-asm", "nop", "-fixed_counters", "--out", second).status, 0)
        fake = FakeBoot(make_log)
        saved = CLI.pmu_bench_boot.boot_qemu
        CLI.pmu_bench_boot.boot_qemu = fake
        try:
            r = self.bench("-asm", "ADD RAX, RBX", "-fixed_counters", "--qemu", "--bundle",
                           os.path.join(second, "bundle.bin"), *argv)
        finally:
            CLI.pmu_bench_boot.boot_qemu = saved
        self.assertEqual(len(fake.bundles), 2)
        return r

    def test_text(self):
        r = self.boot(lambda crcs: test_output.example_log(crcs=crcs))
        self.assertEqual(r.status, 0, r)
        # headed with the files given, not the copies the boot made (issue 27)
        self.assertTrue(r.stdout.startswith("Bundle 1 (%s):\nInstructions retired: 1.00\n"
                                            % os.path.join(self.out, "bundle.bin")), r)
        self.assertIn("Bundle 2 (%s):" % os.path.join(self.tmp.name, "second", "bundle.bin"),
                      r.stdout)

    def test_json_and_a_fault(self):
        fault = dict(vector="#GP", part="init", offset=4)
        r = self.boot(lambda crcs: test_output.example_log(fault=fault, crcs=crcs), "--json")
        self.assertEqual(r.status, 1, r)
        obj = json.loads(r.stdout)
        self.assertEqual(obj["bundles"][1]["fault"], fault)
        self.assertEqual(obj["bundles"][0]["threads"][0]["events"][0]["value"], 1.0)

    def test_records_of_other_bundles(self):
        r = self.boot(lambda crcs: test_output.example_log(crcs=(crcs[1], crcs[0])))
        self.assertEqual(r.status, 3, r)
        self.assertIn("bench 0 says CRC-32", r.stderr)

    def test_a_host_that_held_ht1_back(self):
        # A pass in which HT1 ran no copy beside HT0's runs (overlap_pct 0): QEMU's host held its
        # virtual CPU back, and the boot is made again (three boots at most); a sibling workload
        # that halts (idle) is meant to leave HT0 alone and is not.
        def sibling_log(overlaps, work=None):
            def make(crcs):
                overlap = overlaps.pop(0) if len(overlaps) > 1 else overlaps[0]
                log = logfixture.Log()
                logfixture.boot_and_pmu(log, warn=False)
                log.record("bench", bench=0, source="multiboot1", name="bench1.bin", size=400,
                           crc32="0x%08x" % crcs[0], version=2, error=None,
                           options=dict(test_output.OPTIONS, sibling="work" if work else "code",
                                        sibling_work=work),
                           parts=dict(one_time_init=0, init=0, late_init=0, code=1, sibling=4),
                           events=[1, 1], repetitions=1000)
                test_output.result(log, 0, 0, 0, "CC.20", "LBR_INSERTS", [0.03] * 5, 0.03,
                                   overlap_pct=overlap, alone_again=0)
                test_output.result(log, 0, 1, 0, "D0.81", "LOADS", [0.98] * 5, 0.98,
                                   overlap_pct=overlap, alone_again=0)
                log.end()
                return log
            return make

        def bench(make_log):
            fake = FakeBoot(make_log)
            saved = CLI.pmu_bench_boot.boot_qemu
            CLI.pmu_bench_boot.boot_qemu = fake
            try:
                r = self.bench("-asm", "nop", "-config", self.cfg, "-sibling_asm", "nop",
                               "--qemu")
            finally:
                CLI.pmu_bench_boot.boot_qemu = saved
            return fake.boots, r
        boots, r = bench(sibling_log([0, 90]))
        self.assertEqual((boots, r.status), (2, 0), r)
        self.assertIn("pmu-bench: note: boot 1: HT1 ran no copy beside HT0's runs in a pass of "
                      "bundle 1 (QEMU's host held its virtual CPU back): booting again", r.stderr)
        self.assertIn("ran beside 90% of HT0's runs", r.stderr)
        boots, r = bench(sibling_log([0]))
        self.assertEqual((boots, r.status), (3, 0), r)   # then it is named, not hidden
        self.assertIn("LBR_INSERTS: 0.03 (HT1 did not run beside these runs", r.stdout)
        boots, r = bench(sibling_log([0], work="idle"))
        self.assertEqual(boots, 1, r)

    def test_a_boot_that_failed_inside_a_bundle(self):
        # Issue 24: the boot failed inside the second bundle (an exception the kernel did not
        # expect) and ended with its end record: no result of it, and never exit 0.
        r = self.boot(lambda crcs: test_output.example_log(crcs=crcs, end="died"))
        self.assertEqual(r.status, 3, r)
        self.assertIn("bench 1: the kernel took the bundle but wrote no result", r.stderr)
        self.assertIn("the boot failed: #DB debug on CPU 0", r.stderr)

    def test_a_boot_without_its_end_record(self):
        # Every result is there, but the boot did not end: exit 3 whatever the results say.
        r = self.boot(lambda crcs: test_output.example_log(crcs=crcs, end=None))
        self.assertEqual(r.status, 3, r)
        self.assertIn("no end record", r.stderr)
        self.assertIn("Bundle 2 (", r.stdout)

    def test_a_boot_that_qemu_ended(self):
        # Issue 27: under -no-reboot a triple fault ends QEMU at once (status 0). What happened
        # and after which record is said; QEMU's TCG feature warnings, which every boot
        # prints, are no reason and are not quoted, its other words are.
        def bench_only(crcs):
            return bench_taken(crcs, size=1072, version=1, events=[1, 0], init=10, code=3)
        warning = "qemu-system-x86_64: warning: TCG doesn't support requested feature: " \
            "CPUID.07H:EBX.rtm [bit 11]\n"
        saved = FakeBoot.Result.exit_status, FakeBoot.Result.stderr
        try:
            FakeBoot.Result.exit_status, FakeBoot.Result.stderr = 0, warning
            r = self.boot(bench_only)
            FakeBoot.Result.stderr = warning + "qemu-system-x86_64: cannot set up guest memory\n"
            said = self.boot(bench_only)
            FakeBoot.Result.stderr = warning
            with_results = self.boot(lambda crcs: test_output.example_log(crcs=crcs, end=None))
        finally:
            FakeBoot.Result.exit_status, FakeBoot.Result.stderr = saved
        self.assertEqual(r.status, 3, r)
        self.assertRegex(r.stderr, r"pmu-bench: QEMU exited by itself \(status 0\) before the "
                         r"kernel's end record, after @\d+ \(bench\): under -no-reboot a "
                         r"triple fault or a reset of the machine ends QEMU at once; serial log "
                         r"in ")
        self.assertNotIn("TCG", r.stderr)
        self.assertIn("ends QEMU at once (QEMU: qemu-system-x86_64: cannot set up guest "
                      "memory); serial log in ", said.stderr)
        self.assertEqual(with_results.status, 3, with_results)
        self.assertIn("QEMU exited by itself (status 0) before the kernel's end record",
                      with_results.stderr)
        self.assertIn("Bundle 2 (", with_results.stdout)

    def test_a_boot_cut_by_its_timeout(self):
        # The option is named, with what to give instead, and the results there are printed.
        saved = FakeBoot.Result.timed_out
        FakeBoot.Result.timed_out = True
        try:
            r = self.boot(lambda crcs: test_output.example_log(crcs=crcs, end=None),
                          "--timeout", "5")
            none = self.boot(lambda crcs: logfixture.Log(), "--timeout", "5")
        finally:
            FakeBoot.Result.timed_out = saved
        self.assertEqual(r.status, 3, r)
        self.assertIn("the boot did not end within 5 s (--timeout 5): 2 of 2 bundles had "
                      "results by then; give it longer, e.g. --timeout 60", r.stderr)
        self.assertNotIn("no_end", r.stderr)
        self.assertIn("Instructions retired: 1.00", r.stdout)
        self.assertEqual(none.status, 3, none)
        self.assertIn("the boot did not end within 5 s (--timeout 5) and no bundle had results "
                      "by then: give it longer, e.g. --timeout 60", none.stderr)
        self.assertEqual(none.stdout, "")

    def test_the_core(self):
        # -cpu N: the kernel's core=N, on a machine of N + 1 cores; the boot record says which
        # core the kernel measured, and another is named.
        fake = FakeBoot(lambda crcs: test_output.example_log(crcs=(crcs[0], 0)))
        saved = CLI.pmu_bench_boot.boot_qemu
        CLI.pmu_bench_boot.boot_qemu = fake
        try:
            r = self.bench("-asm", "nop", "-fixed_counters", "-cpu", "2", "--qemu")
        finally:
            CLI.pmu_bench_boot.boot_qemu = saved
        self.assertEqual((fake.cores, fake.append), (3, "core=2"))
        self.assertEqual(r.status, 3, r)   # the fixture's boot record measured core 0
        self.assertIn("-cpu 2: the kernel measured core 0, not 2", r.stderr)

    def test_a_kernel_that_does_not_run_bundles(self):
        def log(crcs):
            made = logfixture.Log()
            logfixture.boot_and_pmu(made, warn=False)
            made.end()
            return made
        r = self.boot(log)
        self.assertEqual(r.status, 3, r)
        self.assertIn("this kernel does not run bundles yet", r.stderr)
        self.assertEqual(r.stdout, "")

    def test_a_boot_that_failed_inside_a_bundle(self):
        # The kernel took the bundle and the boot failed in it: not "does not run bundles".
        def log(crcs):
            made = bench_taken(crcs, size=400, version=2, events=[4, 0], init=0, code=7)
            made.record("end", records=made.next_seq, verdict="fail", failures=1,
                        reason="#DF double fault on CPU 0 (APIC 0) at RIP 0x0000000000ca00c7")
            return made
        r = self.boot(log)
        self.assertEqual(r.status, 3, r)
        self.assertNotIn("does not run bundles", r.stderr)
        self.assertIn("the boot failed: #DF double fault on CPU 0", r.stderr)
        self.assertIn("the kernel took the bundles, but its boot ended before any gave "
                      "results", r.stderr)


if __name__ == "__main__":
    unittest.main()
