"""pmu-bench --qemu: nanoBench's published examples and the issue's, as bundles of one boot
(QEMU's multiboot1 loader, the bundles as -initrd modules, in order), and a boot whose modules
are damaged bundles. The expected figures are nanoBench's published per-copy values
(instructions exact to two decimals under the model's trace); a corrupting event (0xD0-0xD3)
keeps its whole count under -xsu core only: under the default, Linux's XSU, the 2.4% of a load
(2.5% of a store) that the erratum moves into the sibling's unused counter is lost."""

import json
import os
import re
import tempfile
import unittest

import pmu_bench_output
import pmu_records
import qemu_boot
from tests.owncode import nbconfig
from tests.owncode.benchtool import KERNEL, run

CONFIGS = {
    "traced": "C0.00 INST_RETIRED.ANY_P\nC4.00 BR_INST_RETIRED.ALL_BRANCHES\n"
              "D0.81 MEM_UOPS_RETIRED.ALL_LOADS\nD0.82 MEM_UOPS_RETIRED.ALL_STORES\n",
    # Nine events on four counters: three passes at least.
    "many": "C0.00 INST_RETIRED.ANY_P\nD0.81 MEM_UOPS_RETIRED.ALL_LOADS\n"
            "D0.82 MEM_UOPS_RETIRED.ALL_STORES\nC4.00 BR_INST_RETIRED.ALL_BRANCHES\n"
            "C4.20 BR_INST_RETIRED.NEAR_TAKEN\nC4.02 BR_INST_RETIRED.NEAR_CALL\n"
            "C5.00 BR_MISP_RETIRED.ALL_BRANCHES\nD1.08 MEM_LOAD_UOPS_RETIRED.L1_MISS\n"
            "3C.00 CPU_CLK_UNHALTED.THREAD_P\n",
    "lbr": "CC.20 ROB_MISC_EVENTS.LBR_INSERTS\n",
    "loads": "D0.81 MEM_UOPS_RETIRED.ALL_LOADS\n",
}
ADD = "ADD RAX, RBX; ADD RBX, RAX"
LOADS = "mov RBX, [RSI]; mov RCX, [RSI+8]; mov RDX, [RSI+16]; mov RBX, [RSI+24]"
LATENCY_INIT = "mov RAX, R14; sub RAX, 8; mov [RAX], RAX"
# name: the options of one bundle, in the boot's order ({cfg} is a config file above).
EXAMPLES = [
    ("add", ["-asm", ADD, "-fixed_counters", "-config", "{traced}"]),
    ("latency", ["-asm_init", LATENCY_INIT, "-asm", "mov RAX, [RAX]", "-fixed_counters",
                 "-config", "{traced}"]),
    ("latency-core", ["-asm_init", LATENCY_INIT, "-asm", "mov RAX, [RAX]", "-fixed_counters",
                      "-config", "{traced}", "-xsu", "core"]),
    ("loop", ["-asm", ADD, "-loop_count", "100", "-fixed_counters"]),
    ("basic", ["-asm", ADD, "-basic_mode", "-fixed_counters"]),
    ("many", ["-asm", "push RAX; pop RAX", "-config", "{many}"]),
    ("empty", ["-asm", "", "-fixed_counters", "-config", "{traced}"]),
    # nanoBench's kernel mode: interrupts off, the sibling's NMI keeps the time limit.
    ("ring0", ["-asm", ADD, "-ring", "0", "-fixed_counters", "-config", "{traced}"]),
    ("ring0-ud2", ["-asm", "nop; ud2", "-ring", "0", "-fixed_counters"]),
    ("ring0-endless", ["-asm_init", "2: jmp 2b", "-asm", ADD, "-ring", "0", "-fixed_counters"]),
    ("ud2", ["-asm", "nop; ud2", "-fixed_counters"]),
    ("endless", ["-asm_init", "2: jmp 2b", "-asm", ADD, "-fixed_counters"]),
    ("after", ["-asm", "ADD RAX, RBX", "-fixed_counters"]),
]
NAMES = [name for name, _ in EXAMPLES]
# A part that never ends waits bench_ms: one second is ample for every other part here.
APPEND = "mux_ms=4 bench_ms=1000"


@unittest.skipUnless(os.path.exists(KERNEL) and qemu_boot.qemu_available(),
                     "needs build/pmu-testkernel.elf (make) and QEMU (tools/deps.sh)")
class Examples(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="pmu-bench-boot-")
        files = {}
        for name, text in CONFIGS.items():
            files[name] = os.path.join(cls.tmp.name, name + ".cfg")
            with open(files[name], "w") as f:
                f.write(text)
        bundles = []
        for name, argv in EXAMPLES:
            out = os.path.join(cls.tmp.name, name)
            r = run(*[a.format(**files) for a in argv] + ["--out", out])
            assert r.status == 0, r
            bundles.append(os.path.join(out, "bundle.bin"))
        cls.out = os.path.join(cls.tmp.name, "boot")
        extra = [a for b in bundles[1:] for a in ("--bundle", b)]
        first = [a.format(**files) for a in EXAMPLES[0][1]]
        cls.bench = run(*first + extra + ["--qemu", "--json", "--append", APPEND, "--out",
                                        cls.out])
        with open(os.path.join(cls.out, "serial.log"), "rb") as f:
            cls.stream = pmu_records.parse(pmu_records.decode(f.read()))
        cls.results = None
        if cls.bench.status in (0, 1) and cls.bench.stdout:
            cls.results = dict(zip(NAMES, json.loads(cls.bench.stdout)["bundles"]))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_boot_takes_the_modules_and_the_words(self):
        boot, end = self.stream.boot, self.stream.end
        self.assertIsNotNone(boot, self.bench)
        self.assertEqual(boot["boot"], "multiboot1")
        self.assertTrue(boot["cmdline"].endswith(" exp=none exit=qemu " + APPEND),
                        boot["cmdline"])
        self.assertIsNotNone(end, "no end record: %r" % self.bench)
        self.assertEqual(self.stream.problems, [])
        self.assertIsNotNone(self.results, self.bench)
        self.assertEqual([r["bench"] for r in self.stream.of_type("bench")], list(range(len(NAMES))))

    def bundle(self, name):
        self.assertIsNotNone(self.results, self.bench)
        return self.results[name]

    def values(self, name, thread=0):
        b = self.bundle(name)
        threads = {t["thread"]: t["events"] for t in b["threads"]}
        return {e["name"]: e for e in threads[thread]}

    def assertValue(self, name, event, want, thread=0):
        e = self.values(name, thread)[event]
        self.assertEqual(e["value"], want, "%s: %s: %s" % (name, event, e))

    def test_add(self):
        self.assertValue("add", "Instructions retired", 2.0)
        self.assertValue("add", "INST_RETIRED.ANY_P", 2.0)
        for event in ("BR_INST_RETIRED.ALL_BRANCHES", "MEM_UOPS_RETIRED.ALL_LOADS",
                      "MEM_UOPS_RETIRED.ALL_STORES"):
            self.assertValue("add", event, 0.0)

    def test_load_latency(self):
        self.assertValue("latency", "Instructions retired", 1.0)
        # Linux's XSU: the load's leak into HT1's unused counter is lost; core gives it back.
        self.assertValue("latency", "MEM_UOPS_RETIRED.ALL_LOADS", 0.98)
        self.assertValue("latency-core", "MEM_UOPS_RETIRED.ALL_LOADS", 1.0)
        for name in ("latency", "latency-core"):
            self.assertValue(name, "MEM_UOPS_RETIRED.ALL_STORES", 0.0)

    def test_loop_and_basic_mode(self):
        # The loop's own two instructions per 1000 copies leave 2.00 at two decimals.
        self.assertValue("loop", "Instructions retired", 2.0)
        self.assertValue("basic", "Instructions retired", 2.0)

    def test_more_events_than_counters(self):
        events = self.values("many")
        self.assertEqual(list(events), [line.split(" ", 1)[1] for line in
                                        CONFIGS["many"].splitlines()])
        for e in events.values():
            self.assertTrue(e["value"] is not None or e["reason"], e)
        self.assertEqual(events["INST_RETIRED.ANY_P"]["value"], 2.0)
        # Under Linux's XSU each loses its leak: 2.4% of a load, 2.5% of a store.
        self.assertEqual(events["MEM_UOPS_RETIRED.ALL_LOADS"]["value"], 0.98)
        self.assertEqual(events["MEM_UOPS_RETIRED.ALL_STORES"]["value"], 0.98)

    def test_empty_snippet(self):
        for name, e in self.values("empty").items():
            if e["modelled"] and name not in ("RDTSC", "Core cycles", "Reference cycles"):
                self.assertEqual(e["value"], 0.0, e)

    def test_ring0(self):
        self.assertValue("ring0", "Instructions retired", 2.0)
        self.assertValue("ring0", "INST_RETIRED.ANY_P", 2.0)
        self.assertValue("ring0", "MEM_UOPS_RETIRED.ALL_LOADS", 0.0)
        self.assertEqual(self.bundle("ring0-ud2")["fault"], {"vector": "#UD", "part": "code",
                                                             "offset": 1})
        fault = self.bundle("ring0-endless")["fault"]
        self.assertEqual((fault["vector"], fault["part"]), ("timeout", "init"))

    def test_faults_end_their_bundle_only(self):
        self.assertEqual(self.bundle("ud2")["fault"], {"vector": "#UD", "part": "code",
                                                       "offset": 1})
        self.assertEqual(self.bench.status, 1, self.bench)
        fault = self.bundle("endless")["fault"]
        self.assertEqual((fault["vector"], fault["part"]), ("timeout", "init"))
        self.assertIsNone(self.bundle("after")["fault"])
        self.assertValue("after", "Instructions retired", 1.0)


# Issue 27: the counts the hardware gives for code whose trace the model once got wrong, from traces
# of the runs nanoBench's method compares. {traced}: instructions, branches taken and not taken,
# loads and stores.
TRACED = ("C0.00 INST_RETIRED.ANY_P\nC4.10 BR_INST_RETIRED.NOT_TAKEN\n"
          "C4.20 BR_INST_RETIRED.NEAR_TAKEN\nD0.81\tMEM_UOPS_RETIRED.ALL_LOADS\n"
          "D0.82\tMEM_UOPS_RETIRED.ALL_STORES\n")
STATEFUL = [
    # a taken jump to the next instruction is taken
    ("jz-next", ["-asm", "xor eax, eax; jz 1f", "-config", "{traced}"]),
    ("jc-next", ["-asm", "stc; jc 2f; 2: nop", "-config", "{traced}"]),
    # code that clears the trap flag is traced to its end
    ("popf", ["-asm", "push 2; popfq; nop; nop", "-fixed_counters"]),
    ("popf-and", ["-asm", "pushfq; and qword ptr [rsp], -257; popfq; add rax, rbx; "
                  "add rax, rbx", "-fixed_counters"]),
    # MOV SS holds the #DB of the instruction after it back (the JZ, taken past the NOP): both
    # counted
    ("mov-ss", ["-asm", "mov eax, ss; mov ss, eax; jz 1f; nop", "-asm_init", "xor eax, eax",
                "-config", "{traced}"]),
    # a sibling workload that halts (idle): it timed out always, as HT1 answered HT0 only after
    # a chunk of 256 halts; now a halt a call
    ("idle-sibling", ["-asm", "nop", "-fixed_counters", "-sibling_work", "idle",
                      "-sibling_config", "{traced}"]),
    # work that depends on the copies before: only the first copy moves bytes, or branches
    ("rep-movsb", ["-asm_init", "mov rcx, 10", "-asm", "rep movsb", "-config", "{traced}"]),
    ("first-copy", ["-asm_init", "xor ecx, ecx", "-asm", "inc ecx; cmp ecx, 1; je 2f; nop; 2:",
                    "-config", "{traced}"]),
    # nanoBench's -min: each run set's least, then the difference; RDTSC first
    ("min", ["-asm", "add rax, rbx", "-min", "-fixed_counters"]),
    # -basic_mode with a loop: the base run has none, so the loop's DEC and JNZ stay in the
    # result, as nanoBench's: 10 x (10 ADDs + 2) over 100 copies
    ("basic-loop", ["-asm", "add rax, rbx", "-basic_mode", "-loop_count", "10",
                    "-unroll_count", "10", "-fixed_counters", "-config", "{traced}"]),
    # an event Haswell does not have (Skylake's FP_ARITH_INST_RETIRED.SCALAR_DOUBLE)
    ("skylake-event", ["-asm", "nop", "-config", "{skylake}"]),
    # every event of Intel's list for Haswell, in nanoBench's format (tabs, UTF-8 comments)
    ("every-event", ["-asm", "add rax, rbx", "-config", "{every}"]),
    # -no_mem: the counts in R8-R11, the fixed counters and RDTSC in a pass of their own, at most
    # four GP counters a pass; -df: nanoBench's drain, in both runs, so it cancels
    ("no-mem", ["-asm", "add rax, rbx; mov rbx, [r14]", "-no_mem", "-fixed_counters",
                "-config", "{traced}"]),
    # -no_mem beside a sibling: its reads note none of HT1's copies, so no overlap (null; it
    # read 0, "did not run beside")
    ("no-mem-sibling", ["-asm", "nop", "-no_mem", "-config", "{traced}", "-sibling_asm",
                        "mov rax, [r14]"]),
    ("df", ["-asm", "add rax, rbx", "-df", "-range", "-fixed_counters", "-config", "{traced}"]),
]
STATEFUL_NAMES = [name for name, _ in STATEFUL]


@unittest.skipUnless(os.path.exists(KERNEL) and qemu_boot.qemu_available(),
                     "needs build/pmu-testkernel.elf (make) and QEMU (tools/deps.sh)")
class Traced(unittest.TestCase):
    """Issue 27, under QEMU's Haswell: the counts the hardware would give where the trace of one
    copy was wrong (a taken JZ to the next instruction read as not taken, POPF ending the trace,
    REP MOVSB's first copy taken for every copy), nanoBench's arithmetic (no figure below zero
    with -min), its RDTSC line, events held to the CPU, and a config of hundreds of events."""

    @classmethod
    def setUpClass(cls):
        tmp = tempfile.TemporaryDirectory(prefix="pmu-bench-every-")
        every = os.path.join(tmp.name, "cfg_Haswell_all.txt")
        cls.every = nbconfig.write("haswell", every)
        with open(every) as f:
            configs = dict(traced=TRACED, skylake="C7.01 FP_ARITH_INST_RETIRED.SCALAR_DOUBLE\n",
                           every=f.read())
        tmp.cleanup()
        cls.boot = Boot("pmu-bench-traced-", STATEFUL, "bench_ms=1000", configs)

    def value(self, name, event):
        return self.boot.value(STATEFUL_NAMES.index(name), event)

    def assertValue(self, name, event, want, within=0.0):
        e = self.value(name, event)
        self.assertIsNotNone(e["value"], "%s: %s" % (name, e))
        self.assertLessEqual(abs(e["value"] - want), within + 1e-9, "%s: %s" % (name, e))

    def test_the_boot(self):
        self.assertIsNotNone(self.boot.stream.end, self.boot.bench)
        self.assertEqual(self.boot.stream.problems, [])
        self.assertEqual(self.boot.bench.status, 0, self.boot.bench)

    def test_taken_to_the_next_instruction(self):
        for name in ("jz-next", "jc-next"):
            self.assertValue(name, "BR_INST_RETIRED.NEAR_TAKEN", 1.0)
            self.assertValue(name, "BR_INST_RETIRED.NOT_TAKEN", 0.0)

    def test_code_that_clears_the_trap_flag(self):
        self.assertValue("popf", "Instructions retired", 4.0)
        self.assertValue("popf-and", "Instructions retired", 5.0)

    def test_the_instruction_after_mov_ss(self):
        self.assertValue("mov-ss", "INST_RETIRED.ANY_P", 3.0)   # 2.00 before: the JZ unseen
        self.assertValue("mov-ss", "BR_INST_RETIRED.NEAR_TAKEN", 1.0)

    def test_an_idle_sibling(self):
        i = STATEFUL_NAMES.index("idle-sibling")
        self.assertIsNone(self.boot.results[i]["fault"])
        self.assertValue("idle-sibling", "Instructions retired", 1.0)
        # HT1 per halt: its loop as compiled (tests/ring3/idle.c's profile), at CPL 3
        for event, want in (("INST_RETIRED.ANY_P", 18.0), ("BR_INST_RETIRED.NEAR_TAKEN", 2.0),
                            ("BR_INST_RETIRED.NOT_TAKEN", 2.0)):
            self.assertEqual(self.boot.value(i, event, 1)["value"], want)

    def test_work_that_depends_on_state(self):
        for event in ("MEM_UOPS_RETIRED.ALL_LOADS", "MEM_UOPS_RETIRED.ALL_STORES"):
            self.assertValue("rep-movsb", event, 0.0, within=0.05)
        self.assertValue("first-copy", "INST_RETIRED.ANY_P", 4.0)
        self.assertValue("first-copy", "BR_INST_RETIRED.NOT_TAKEN", 1.0)
        self.assertValue("first-copy", "BR_INST_RETIRED.NEAR_TAKEN", 0.0)

    def test_min_and_rdtsc(self):
        self.assertValue("min", "Instructions retired", 1.0)
        events = self.boot.results[STATEFUL_NAMES.index("min")]["threads"][0]["events"]
        self.assertEqual([e["name"] for e in events][0], "RDTSC")
        for e in events:
            self.assertIsNotNone(e["value"], e)
            self.assertGreaterEqual(e["value"], 0, e)
            self.assertTrue(all(v >= 0 for v in e["values"]), e)
            short, long_ = e["runs"]["short"], e["runs"]["long"]
            self.assertLessEqual(short["agg"], long_["agg"], e)   # -min: each set's least

    def test_basic_mode_keeps_the_loop(self):
        self.assertValue("basic-loop", "Instructions retired", 1.2)
        self.assertValue("basic-loop", "BR_INST_RETIRED.NEAR_TAKEN", 0.09)  # 9 of 10 JNZ
        self.assertValue("basic-loop", "BR_INST_RETIRED.NOT_TAKEN", 0.01)

    def test_no_mem_and_df(self):
        for name in ("no-mem", "df"):
            self.assertValue(name, "Instructions retired", 2.0 if name == "no-mem" else 1.0)
            self.assertValue(name, "INST_RETIRED.ANY_P", 2.0 if name == "no-mem" else 1.0)
            self.assertValue(name, "MEM_UOPS_RETIRED.ALL_STORES", 0.0)
        self.assertValue("no-mem", "MEM_UOPS_RETIRED.ALL_LOADS", 0.98)   # -xsu on: 2.4% lost
        # the fixed counters' pass, then the five GP events on four counters: two more
        self.assertIn("bench %d: 3 pass(es)" % STATEFUL_NAMES.index("no-mem"), self.boot.log)
        # -df's NOPs lie between the reads of both runs: per copy they cancel
        self.assertValue("df", "BR_INST_RETIRED.NEAR_TAKEN", 0.0)

    def test_no_overlap_without_the_reads(self):
        e = self.value("no-mem-sibling", "INST_RETIRED.ANY_P")
        self.assertEqual((e["value"], e["overlap_pct"], e["alone_again"]), (1.0, None, None), e)

    def test_events_held_to_the_cpu(self):
        e = self.value("skylake-event", "FP_ARITH_INST_RETIRED.SCALAR_DOUBLE")
        self.assertIsNone(e["value"])
        self.assertTrue(e["reason"].startswith("refused: no such event on Haswell"), e)

    def test_every_event_of_a_config(self):
        events = self.boot.results[STATEFUL_NAMES.index("every-event")]["threads"][0]["events"]
        self.assertEqual(len(events), self.every)
        for e in events:
            self.assertTrue(e["value"] is not None or e["reason"], e)
        valued = {e["name"]: e["value"] for e in events if e["value"] is not None}
        self.assertEqual(valued["INST_RETIRED.ANY_P"], 1.0)
        self.assertEqual(valued["MEM_UOPS_RETIRED.ALL_LOADS"], 0.0)
        reasons = {e["reason"].split(":")[0] for e in events if e["value"] is None}
        self.assertEqual(reasons, {"not modelled", "not programmable", "refused"})
        refused = [e for e in events if e["reason"] and e["reason"].startswith("refused")]
        self.assertEqual([e["name"] for e in refused], ["OFFCORE_RESPONSE"])
        self.assertIn("MSR_OFFCORE_RSP_0", refused[0]["reason"])


class CpuOfTheBoot(unittest.TestCase):
    """Events held to the CPU QEMU plays (issue 27): a config of every event of Sandy Bridge runs
    on --cpu SandyBridge, each event with a value or a reason; on --cpu Nehalem, a CPU the kernel
    has no list of events for, D0.81 gives no load count, and the reason names Nehalem."""

    @classmethod
    def setUpClass(cls):
        if not (os.path.exists(KERNEL) and qemu_boot.qemu_available()):
            raise unittest.SkipTest("needs build/pmu-testkernel.elf (make) and QEMU")
        cls.tmp = tempfile.TemporaryDirectory(prefix="pmu-bench-cpus-")
        every = os.path.join(cls.tmp.name, "cfg_SandyBridge_all.txt")
        cls.every = nbconfig.write("sandybridge", every)
        loads = os.path.join(cls.tmp.name, "loads.cfg")
        with open(loads, "w") as f:
            f.write(CONFIGS["loads"])
        cls.snb = run("-asm", "add rax, rbx", "-config", every, "--cpu", "SandyBridge",
                      "--qemu", "--json", "--append", "bench_ms=1000", "--out",
                      os.path.join(cls.tmp.name, "snb"))
        cls.nhm = run("-asm", "mov rax, [r14]", "-config", loads, "--cpu", "Nehalem", "--qemu",
                      "--json", "--append", "bench_ms=1000", "--out",
                      os.path.join(cls.tmp.name, "nhm"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_sandy_bridge(self):
        self.assertEqual(self.snb.status, 0, self.snb)
        events = json.loads(self.snb.stdout)["threads"][0]["events"]
        self.assertEqual(len(events), self.every)
        for e in events:
            self.assertTrue(e["value"] is not None or e["reason"], e)
        self.assertIn(1.0, [e["value"] for e in events if e["name"] == "INST_RETIRED.ANY_P"])

    def test_nehalem(self):
        self.assertEqual(self.nhm.status, 0, self.nhm)
        e = json.loads(self.nhm.stdout)["threads"][0]["events"][0]
        self.assertIsNone(e["value"])
        self.assertTrue(e["reason"].startswith("not modelled: the kernel has no list of "
                                               "Nehalem's events (family 6, model 0x1a)"), e)


AFTER = ("after", ["-asm", "add rax, rbx", "-fixed_counters"])
POPF_TF = "pushfq; or qword ptr [rsp], 0x100; popfq; nop"


class Boot:
    """One boot of bundles (name, pmu-bench's options) in order through pmu-bench --qemu --json:
    its exit status, its records, the results by name (several bundles of one name: the last)."""

    def __init__(self, prefix, bundles, append, configs=None):
        self.tmp = tempfile.TemporaryDirectory(prefix=prefix)
        files = {}
        for name, text in (configs or {}).items():
            files[name] = os.path.join(self.tmp.name, name + ".cfg")
            with open(files[name], "w") as f:
                f.write(text)
        paths = []
        for i, (name, argv) in enumerate(bundles):
            out = os.path.join(self.tmp.name, "%d-%s" % (i, name))
            r = run(*[a.format(**files) for a in argv] + ["--out", out])
            assert r.status == 0, r
            paths.append(os.path.join(out, "bundle.bin"))
        self.out = os.path.join(self.tmp.name, "boot")
        first = [a.format(**files) for a in bundles[0][1]]
        extra = [a for p in paths[1:] for a in ("--bundle", p)]
        self.bench = run(*first + extra + ["--qemu", "--json", "--append", append, "--out",
                                           self.out])
        with open(os.path.join(self.out, "serial.log"), "rb") as f:
            self.log = pmu_records.decode(f.read())
        self.stream = pmu_records.parse(self.log)
        self.results = []
        if self.bench.status in (0, 1) and self.bench.stdout:
            obj = json.loads(self.bench.stdout)
            self.results = obj["bundles"] if "bundles" in obj else [obj]
        self.tmp.cleanup()

    def fault(self, i):
        return self.results[i]["fault"]

    def value(self, i, name, thread=0):
        for t in self.results[i]["threads"]:
            for e in t["events"]:
                if t["thread"] == thread and e["name"] == name:
                    return e
        raise KeyError(name)

    def milliseconds(self, i):
        """How long bundle i took in the kernel: its line `bench i: N pass(es), M ms`."""
        m = re.search(r"^bench %d: \d+ pass\(es\), (\d+) ms" % i, self.log, re.M)
        return int(m.group(1)) if m else None


# Code of your own that faults, each followed by a bundle that must still run (issue 24). INT1
# raises #DB on Intel; QEMU's TCG raises #UD, named as such.
FAULTS = [
    ("popf-tf", ["-asm", POPF_TF, "-fixed_counters"], "#DB", "code"),
    ("int1", ["-asm", "int1", "-fixed_counters"], ("#DB", "#UD"), "code"),
    ("syscall", ["-asm", "xor eax, eax; syscall", "-fixed_counters"], "syscall", "code"),
    ("int80", ["-asm", "int 0x80", "-fixed_counters"], "syscall", "code"),
    ("hlt", ["-asm", "hlt", "-ring", "3", "-fixed_counters"], "#GP", "code"),
    ("null", ["-asm", "mov rax, [0]", "-fixed_counters"], "#PF", "code"),
    ("div", ["-asm", "xor ecx, ecx; div ecx", "-fixed_counters"], "#DE", "code"),
    # INT3 at CPL 3 raises #BP, as under Linux (its IDT gate is a system gate: issue 27)
    ("int3", ["-asm", "nop; int3", "-fixed_counters"], "#BP", "code"),
    ("ring0-syscall", ["-asm", "xor eax, eax; syscall", "-ring", "0", "-fixed_counters"],
     "syscall", "code"),
    ("ring0-int80", ["-asm", "int 0x80", "-ring", "0", "-fixed_counters"], "syscall", "code"),
    ("ring0-nmi", ["-asm", "int 2", "-ring", "0", "-fixed_counters"], "NMI", "code"),
    ("ring0-popf-tf", ["-asm", POPF_TF, "-ring", "0", "-fixed_counters"], "#DB", "code"),
    # CR0.TS set by the code: the x87 instruction raises #NM; the kernel clears TS after it.
    ("ring0-nm", ["-asm_init", "mov rax, cr0; or rax, 8; mov cr0, rax", "-asm", "fld1",
                  "-ring", "0", "-fixed_counters"], "#NM", "code"),
    # RSP moved where nothing can be pushed at CPL 0: the #PF's frame cannot be pushed either,
    # a #DF, which ended the boot; it runs on its own stack (IST) and ends the bundle
    ("ring0-rsp", ["-asm", "mov rsp, 8; push rax", "-ring", "0", "-fixed_counters"], "#DF",
     "code"),
    ("sibling-syscall", ["-asm", "add rax, rbx", "-fixed_counters", "-sibling_asm",
                         "xor eax, eax; syscall"], "syscall", "sibling"),
    ("sibling-popf-tf", ["-asm", "add rax, rbx", "-fixed_counters", "-sibling_asm", POPF_TF],
     "#DB", "sibling"),
]


@unittest.skipUnless(os.path.exists(KERNEL) and qemu_boot.qemu_available(),
                     "needs build/pmu-testkernel.elf (make) and QEMU (tools/deps.sh)")
class Faults(unittest.TestCase):
    """Issue 24: a fault of the code ends its bundle, never the boot; it is named in the
    bench_result records and by pmu-bench, which exits 1; the next bundle still runs. A boot of
    eight faults each: one holds 16 bundles at most."""

    @classmethod
    def setUpClass(cls):
        cls.boots = []
        for part in (FAULTS[k:k + 8] for k in range(0, len(FAULTS), 8)):
            bundles = []
            for name, argv, _, _ in part:
                bundles += [(name, argv), AFTER]
            cls.boots.append((part, Boot("pmu-bench-faults-", bundles, "bench_ms=1000")))

    def each(self):
        """(name, expected vector, part, the boot, the fault's bundle index) of every fault."""
        for faults, boot in self.boots:
            for i, (name, _, vector, part) in enumerate(faults):
                yield name, vector if isinstance(vector, tuple) else (vector,), part, boot, 2 * i

    def test_the_boots_end_and_pmu_bench_exits_1(self):
        for faults, boot in self.boots:
            self.assertIsNotNone(boot.stream.end, boot.bench)
            self.assertEqual(boot.stream.end["verdict"], "pass")
            self.assertEqual(boot.stream.problems, [])
            self.assertEqual(boot.bench.status, 1, boot.bench)
            self.assertEqual(len(boot.results), 2 * len(faults), boot.bench)

    def test_each_fault_named(self):
        for name, vectors, part, boot, i in self.each():
            fault = boot.fault(i)
            self.assertIsNotNone(fault, name)
            self.assertIn(fault["vector"], vectors, "%s: %s" % (name, fault))
            self.assertEqual(fault["part"], part, name)
            self.assertIsNotNone(fault["offset"], name)

    def test_the_next_bundle_runs(self):
        for name, _, _, boot, i in self.each():
            self.assertIsNone(boot.fault(i + 1), name)
            e = boot.value(i + 1, "Instructions retired")
            self.assertEqual(e["value"], 1.0, "after %s: %s" % (name, e))

    def test_where(self):
        # The offset is that of the instruction that raised it (a trap's follows it: POPF's
        # single step stops after the NOP, at the next copy's start).
        where = {name: boot.fault(i)["offset"] for name, _, _, boot, i in self.each()}
        self.assertEqual(where["syscall"], 2)
        self.assertEqual(where["ring0-syscall"], 2)
        self.assertEqual(where["int80"], 0)
        self.assertEqual(where["ring0-int80"], 0)
        self.assertEqual(where["ring0-nmi"], 0)
        self.assertEqual(where["div"], 2)
        self.assertEqual(where["int3"], 1)
        self.assertEqual(where["popf-tf"], 0)


@unittest.skipUnless(os.path.exists(KERNEL) and qemu_boot.qemu_available(),
                     "needs build/pmu-testkernel.elf (make) and QEMU (tools/deps.sh)")
class SegmentRegisters(unittest.TestCase):
    """Issue 24: every entry from CPL 3 swaps the GS base (SWAPGS), so code of your own may load
    any segment register; a null GS once took the kernel's per-CPU data away (no end record)."""

    @classmethod
    def setUpClass(cls):
        cls.boot = Boot("pmu-bench-segments-", [
            ("gs", ["-asm", "xor eax, eax; mov gs, eax", "-fixed_counters"]), AFTER,
            ("sibling", ["-asm", "add rax, rbx", "-fixed_counters", "-sibling_asm",
                         "xor eax, eax; mov gs, eax; mov fs, eax; mov ds, eax; mov es, eax"]),
            # At CPL 0 the code's GS base is its own too: the kernel's comes back after it.
            ("ring0-gs", ["-asm", "xor eax, eax; mov gs, eax", "-ring", "0",
                          "-fixed_counters"]), AFTER], "bench_ms=1000")

    def test_measured_normally(self):
        self.assertIsNotNone(self.boot.stream.end, self.boot.bench)
        self.assertEqual(self.boot.bench.status, 0, self.boot.bench)
        self.assertEqual(self.boot.value(0, "Instructions retired")["value"], 2.0)
        self.assertEqual(self.boot.value(1, "Instructions retired")["value"], 1.0)
        self.assertEqual(self.boot.value(2, "Instructions retired")["value"], 1.0)
        self.assertEqual(self.boot.value(3, "Instructions retired")["value"], 2.0)
        self.assertEqual(self.boot.value(4, "Instructions retired")["value"], 1.0)
        for i in range(5):
            self.assertIsNone(self.boot.fault(i))


@unittest.skipUnless(os.path.exists(KERNEL) and qemu_boot.qemu_available(),
                     "needs build/pmu-testkernel.elf (make) and QEMU (tools/deps.sh)")
class Untraced(unittest.TestCase):
    """bench_trace=off: the code runs under QEMU as on a real machine, untraced, and the CPL-0
    time limit is kept whatever the sibling does (issue 24): a ring-0 part that never ends,
    beside a sibling part that faults while it runs (its 2,000,000th copy, long after HT0's part
    started, well before its limit), or beside no sibling part at all, ends with `timeout` within
    three times bench_ms, and the next bundle runs."""

    BENCH_MS = 500
    SIBLING = ("inc qword ptr [r14+28672]; cmp qword ptr [r14+28672], 2000000; jb 1f; ud2")

    @classmethod
    def setUpClass(cls):
        endless = ["-asm_init", "2: jmp 2b", "-asm", "add rax, rbx", "-ring", "0",
                   "-fixed_counters"]
        cls.boot = Boot("pmu-bench-untraced-", [
            ("spin-beside-a-fault", endless + ["-sibling_asm", cls.SIBLING, "-sibling_config",
                                               "{loads}"]), AFTER,
            ("spin-alone", endless), AFTER],
            "bench_trace=off bench_ms=%d" % cls.BENCH_MS, {"loads": CONFIGS["loads"]})

    def test_the_time_limit_holds(self):
        self.assertIsNotNone(self.boot.stream.end, self.boot.bench)
        self.assertEqual(self.boot.bench.status, 1, self.boot.bench)
        for i in (0, 2):
            self.assertEqual(self.boot.fault(i), {"vector": "timeout", "part": "init",
                                                  "offset": 0})
            ms = self.boot.milliseconds(i)
            self.assertIsNotNone(ms, self.boot.log[-2000:])
            self.assertLess(ms, 3 * self.BENCH_MS)

    def test_the_sibling_faulted_first(self):
        # Its own result names its fault; the bundle's is the measured code's.
        loads = self.boot.value(0, "MEM_UOPS_RETIRED.ALL_LOADS", thread=1)
        self.assertEqual(loads["reason"], "fault: the bundle ended (#UD in part sibling) before "
                         "it counted")

    def test_untraced_and_the_next_bundle_runs(self):
        for i in (1, 3):
            self.assertIsNone(self.boot.fault(i))
            insts = self.boot.value(i, "Instructions retired")
            self.assertIsNone(insts["value"])
            self.assertIn("bench_trace=off", insts["reason"])
            self.assertGreater(self.boot.value(i, "Core cycles")["value"], 0)


# HT1's own figures and what it leaks into HT0's counter (issue 24): the acceptance (a NOP
# on HT0, one load a copy on HT1), and HT0 running 100 x 1000 copies, each of its runs long enough
# that the leak of HT1's loads into its counter shows in every measurement where HT1 ran beside it.
SIBLING = [("nop-" + x, ["-asm", "nop", "-config", "{lbr}", "-sibling_asm", "mov rax, [r14]",
                         "-sibling_config", "{loads}", "-xsu", x]) for x in ("off", "on", "core")]
SIBLING += [("leak-" + x, ["-asm", ADD, "-loop_count", "100", "-config", "{lbr}", "-sibling_asm",
                           LOADS, "-sibling_config", "{loads}", "-xsu", x])
            for x in ("off", "on", "core")]
SIBLING_NAMES = [name for name, _ in SIBLING]
# How much of HT0's runs HT1's loop must have run beside, as the experiments' rules ask of the
# siblings (EXP_MIN_OVERLAP_PCT): less is a host that held HT1 back, and the boot is made again.
SIDE_BY_SIDE_PCT = 75


@unittest.skipUnless(os.path.exists(KERNEL) and qemu_boot.qemu_available(),
                     "needs build/pmu-testkernel.elf (make) and QEMU (tools/deps.sh)")
class Sibling(unittest.TestCase):
    """Issue 24: HT1's figures are per copy of its own loop, and no figure of either thread is
    below zero. They were HT1's count difference between HT0's two runs over HT0's copies:
    -0.98, -0.24, 1.68 loads for one load a copy. Under the model HT1's loads are now exact: 0.98
    under off and on (2.4% leaks into HT0's counter, or is lost), 1.00 under core (the catcher
    gives it back). The leak into HT0's LBR_INSERTS shows under off only where HT1 ran beside
    HT0's runs: each result says how much it did (overlap_pct), and a boot whose host held HT1
    back is made again (at most three), as tests/qemu/driver.py does, never judged less."""

    BOOTS = 3

    @classmethod
    def setUpClass(cls):
        cls.held = []
        for attempt in range(cls.BOOTS):
            cls.boot = Boot("pmu-bench-sibling-", SIBLING, "bench_ms=1000", CONFIGS)
            held = cls.held_back(cls.boot)
            if not (cls.leak_fails(cls.boot) or cls.acceptance_fails(cls.boot)) or not held:
                break
            cls.held.append("boot %d: %s" % (attempt + 1, held))

    @classmethod
    def leak_fails(cls, boot):
        """Why the leak into HT0's counter under -xsu off does not show, or None. It comes with
        HT1's loads, so it shows in most measurements, not in each: a measurement is a difference
        of two runs, and HT1 does what its host lets it in each."""
        if not boot.results:
            return "no results"
        e = boot.value(SIBLING_NAMES.index("leak-off"), "ROB_MISC_EVENTS.LBR_INSERTS")
        positive = [v for v in e["values"] if v > 0]
        if 2 * len(positive) <= len(e["values"]) or not e["value"]:
            return "leak-off's LBR_INSERTS: %s" % e
        # the issue's own: a NOP beside one load a copy (issue 24's acceptance, which nanoBench's
        # arithmetic, each run set aggregated before the difference, makes hold: issue 27)
        e = boot.value(SIBLING_NAMES.index("nop-off"), "ROB_MISC_EVENTS.LBR_INSERTS")
        if not e["value"]:
            return "nop-off's LBR_INSERTS: %s" % e
        return None

    @classmethod
    def acceptance_fails(cls, boot):
        """The issue's acceptance: HT1's loads 1.00 within 0.02 under each mode. A measurement in
        which a held-back HT1 ran few copies rounds its one leaked load either way, so 0.976
        may read 0.97."""
        if not boot.results:
            return "no results"
        for x in ("off", "on", "core"):
            e = boot.value(SIBLING_NAMES.index("nop-" + x), "MEM_UOPS_RETIRED.ALL_LOADS", 1)
            if e["value"] is None or round(abs(e["value"] - 1.0), 2) > 0.02:
                return "nop-%s: HT1's loads %s" % (x, e)
        return None

    @classmethod
    def held_back(cls, boot):
        """The evidence that the host held HT1 back while HT0 ran, or None: a bundle whose loop
        ran beside less of HT0's runs than SIDE_BY_SIDE_PCT in a measurement."""
        if not boot.results:
            return None
        held = ["%s %s%%" % (name, boot.value(i, "MEM_UOPS_RETIRED.ALL_LOADS", 1)["overlap_pct"])
                for i, name in enumerate(SIBLING_NAMES)
                if (boot.value(i, "MEM_UOPS_RETIRED.ALL_LOADS", 1)["overlap_pct"] or 0) <
                SIDE_BY_SIDE_PCT]
        return "HT1's loop ran beside HT0's runs in a measurement of " + ", ".join(held) \
            if held else None

    def value(self, name, event, thread=0):
        return self.boot.value(SIBLING_NAMES.index(name), event, thread)

    def test_the_boot(self):
        self.assertIsNotNone(self.boot.stream.end, self.boot.bench)
        self.assertEqual(self.boot.stream.problems, [])
        self.assertEqual(self.boot.bench.status, 0, self.boot.bench)

    def test_ht1_per_copy_of_its_own_loop(self):
        # The model's truth: one load a copy (four in LOADS), less the 2.395% that leaks (into
        # HT0's counter of the same index, or into an unused one, lost) unless a catcher gives it
        # back. A measurement of few copies may round its one leaked load either way: 0.01.
        kept = 1 - 0.02395
        want = {"nop-off": kept, "nop-on": kept, "leak-off": 4 * kept, "leak-on": 4 * kept}
        for name, loads in want.items():
            e = self.value(name, "MEM_UOPS_RETIRED.ALL_LOADS", 1)
            self.assertEqual(e["backwards"], 0, e)
            for v in e["values"] + [e["value"]]:
                self.assertLessEqual(abs(v - loads), 0.01 + 1e-9, "%s: %s" % (name, e))
        for name, loads in (("nop-core", 1.0), ("leak-core", 4.0)):
            e = self.value(name, "MEM_UOPS_RETIRED.ALL_LOADS", 1)
            self.assertEqual((e["value"], e["min"], e["max"], e["backwards"]),
                             (loads, loads, loads, 0), "%s: %s" % (name, e))
        self.assertIsNone(self.acceptance_fails(self.boot), self.held)

    def test_nothing_leaks_under_xsu(self):
        for name in ("nop-on", "nop-core", "leak-on", "leak-core"):
            e = self.value(name, "ROB_MISC_EVENTS.LBR_INSERTS")
            self.assertEqual((e["value"], e["min"], e["max"], e["backwards"]),
                             (0.0, 0.0, 0.0, 0), "%s: %s" % (name, e))

    def test_the_leak_without_xsu(self):
        # A boot that fails it is made again only when HT1 was held back in it: three such
        # boots fail with the evidence of each.
        self.assertIsNone(self.leak_fails(self.boot), self.held)

    def test_no_figure_below_zero(self):
        for i, name in enumerate(SIBLING_NAMES):
            for thread in self.boot.results[i]["threads"]:
                for e in thread["events"]:
                    figures = e["values"] + [e["value"], e["min"], e["max"]]
                    self.assertTrue(all(v is None or v >= 0 for v in figures), (name, e))
                    self.assertTrue(e["value"] is not None or
                                    e["reason"].startswith("went backwards: "), (name, e))
                    self.assertIsNotNone(e["overlap_pct"], (name, e))


@unittest.skipUnless(os.path.exists(KERNEL) and qemu_boot.qemu_available(),
                     "needs build/pmu-testkernel.elf (make) and QEMU (tools/deps.sh)")
class Refused(unittest.TestCase):
    """Issue 24: an event this PMU cannot count is refused with the reason, never read as 0.00. On
    a version-5 PMU that deprecates AnyThread (selftest=pmu-v5, CPUID.0AH:EDX[15]) the write of an
    .AnyT event would raise #GP: the driver refused the whole pass, so both threads' events read
    0.00 (its status was not looked at). Now the .AnyT event is refused alone, named, and the
    others count."""

    CONFIG = "0E.01.AnyT UOPS_ISSUED.ANY\nD0.81 MEM_UOPS_RETIRED.ALL_LOADS\n"
    WHY = "refused: AnyThread is deprecated on this PMU (CPUID.0AH:EDX[15])"

    @classmethod
    def setUpClass(cls):
        cls.boot = Boot("pmu-bench-refused-", [
            ("anyt", ["-asm", "mov rax, [r14]", "-fixed_counters", "-config", "{anyt}",
                      "-sibling_asm", "mov rax, [r14]", "-sibling_config", "{anyt}",
                      "-xsu", "core"])], "selftest=pmu-v5", {"anyt": cls.CONFIG})

    def test_named_in_the_records(self):
        self.assertIsNotNone(self.boot.stream.end, self.boot.bench)
        results = [r for r in self.boot.stream.of_type("bench_result")
                   if r["name"] == "UOPS_ISSUED.ANY"]
        self.assertEqual(len(results), 2, self.boot.log[-2000:])
        for r in results:
            self.assertEqual((r["value"], r["values"], r["counter"], r["reason"]),
                             (None, [], None, self.WHY), r.obj)

    def test_the_others_count(self):
        self.assertEqual(self.boot.bench.status, 0, self.boot.bench)
        self.assertEqual(self.boot.value(0, "Instructions retired")["value"], 1.0)
        for thread in (0, 1):
            loads = self.boot.value(0, "MEM_UOPS_RETIRED.ALL_LOADS", thread)
            self.assertEqual(loads["value"], 1.0, loads)

    def test_printed_as_refused(self):
        text = printed(self.boot)
        self.assertEqual(text.count("UOPS_ISSUED.ANY: n/a (%s)" % self.WHY), 2, text)


def printed(boot):
    """What pmu-bench --qemu prints without --json for a boot's records."""
    runs, problems = pmu_bench_output.collect(boot.stream.records)
    assert not problems, problems
    return pmu_bench_output.render_text(runs)


@unittest.skipUnless(os.path.exists(KERNEL) and qemu_boot.qemu_available(),
                     "needs build/pmu-testkernel.elf (make) and QEMU (tools/deps.sh)")
class Damaged(unittest.TestCase):
    """Modules that are not whole bundles (pmu-bench would never pass one): each gets its bench
    record with the reader's reason and no result, and the good bundle after them still runs."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="pmu-bench-damaged-")
        good = os.path.join(cls.tmp.name, "good")
        r = run("-asm", ADD, "-fixed_counters", "--out", good)
        assert r.status == 0, r
        with open(os.path.join(good, "bundle.bin"), "rb") as f:
            data = f.read()
        flipped = bytearray(data)
        flipped[len(data) // 2] ^= 0x40
        cls.modules = {
            "crc": bytes(flipped),
            "truncated": data[:len(data) // 2],
            "garbage": bytes(range(256)) * 4,
            "good": data,
        }
        paths = []
        for name, content in cls.modules.items():
            paths.append(os.path.join(cls.tmp.name, name + ".bin"))
            with open(paths[-1], "wb") as f:
                f.write(content)
        cls.result = qemu_boot.boot("kernel", KERNEL, cmdline="exp=none exit=qemu",
                                    modules=paths, timeout=120)
        cls.stream = pmu_records.parse(cls.result.log)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_each_module_has_its_record_and_the_boot_ends(self):
        self.assertIsNotNone(self.stream.end, self.result.tail())
        self.assertEqual(self.stream.problems, [])
        benches = self.stream.of_type("bench")
        self.assertEqual([b["bench"] for b in benches], list(range(len(self.modules))))
        self.assertEqual([b["size"] for b in benches],
                         [len(c) for c in self.modules.values()])

    def test_the_reasons(self):
        errors = [b["error"] for b in self.stream.of_type("bench")]
        self.assertIn("CRC", errors[0])
        self.assertIn("runs past the data", errors[1])
        self.assertIn("not a bundle", errors[2])
        self.assertIsNone(errors[3])

    def test_only_the_good_one_runs(self):
        results = self.stream.of_type("bench_result")
        self.assertEqual({r["bench"] for r in results}, {3})
        insts = [r for r in results if r["name"] == "Instructions retired"]
        self.assertEqual([r["value"] for r in insts], [2.0])


@unittest.skipUnless(os.path.exists(KERNEL) and qemu_boot.qemu_available(),
                     "needs build/pmu-testkernel.elf (make) and QEMU (tools/deps.sh)")
class Alone(unittest.TestCase):
    """One thread (-smp 1): what needs the sibling is refused with the reason, the rest runs."""

    def test_what_needs_the_sibling(self):
        with tempfile.TemporaryDirectory(prefix="pmu-bench-alone-") as tmp:
            cases = [("ring0", ["-asm", ADD, "-ring", "0", "-fixed_counters"]),
                     ("sibling", ["-asm", ADD, "-sibling_asm", "nop", "-fixed_counters"]),
                     ("ring3", ["-asm", ADD, "-fixed_counters"])]
            paths = []
            for name, argv in cases:
                r = run(*argv + ["--out", os.path.join(tmp, name)])
                self.assertEqual(r.status, 0, r)
                paths.append(os.path.join(tmp, name, "bundle.bin"))
            result = qemu_boot.boot("kernel", KERNEL, cmdline="exp=none exit=qemu", smp="1",
                                    modules=paths, timeout=120)
        stream = pmu_records.parse(result.log)
        self.assertIsNotNone(stream.end, result.tail())
        errors = [b["error"] for b in stream.of_type("bench")]
        self.assertEqual(len(errors), 3, result.tail())
        self.assertIn("ring 0 needs the sibling thread", errors[0])
        self.assertIn("needs a sibling thread", errors[1])
        self.assertIsNone(errors[2])
        insts = [r["value"] for r in stream.of_type("bench_result")
                 if r["name"] == "Instructions retired"]
        self.assertEqual(insts, [2.0])


if __name__ == "__main__":
    unittest.main()
