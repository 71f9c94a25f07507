"""Synthetic serial logs for the pmu-report tests.

A log is built as the kernel would print it (docs/records.md): records `@<seq> <crc32> <json>`
with a real zlib CRC-32, interleaved with human-readable text, and can then be damaged the ways a
serial capture gets damaged: a record dropped, a byte flipped, a line cut, CRLF line ends, ANSI
escapes from GRUB, a record glued to the text before it.

`suite()` gives the standard log the tests read: four experiments with figures taken from the
thesis, so that the expected numbers in the tests can be read straight off this file.
"""

import json
import os
import zlib

TSC_HZ = 2_500_000_000
ONE_SECOND = TSC_HZ  # `enabled` and `running` are TSC ticks


def record_line(seq, body):
    """A record line around any body, with the CRC-32 that matches it."""
    return "@%d %08x %s" % (seq, zlib.crc32(body.encode("utf-8")) & 0xFFFFFFFF, body)


def record_text(seq, obj):
    """One record line exactly as the kernel prints it."""
    return record_line(seq, json.dumps(obj, separators=(",", ":")))


class Line:
    """One line of the log: a record (seq is its number) or human text (seq is None)."""

    def __init__(self, text, seq=None):
        self.text = text
        self.seq = seq

    def __repr__(self):
        return "Line(%r)" % self.text[:50]


class Log:
    """A log under construction, then under damage. Records are numbered as they are added."""

    def __init__(self):
        self.lines = []
        self.next_seq = 0

    # ---- building -------------------------------------------------------------------------------
    def text(self, text):
        self.lines.append(Line(text))

    def record(self, type_name, **keys):
        obj = {"type": type_name}
        obj.update(keys)
        seq = self.next_seq
        self.lines.append(Line(record_text(seq, obj), seq))
        self.next_seq += 1
        return seq

    def end(self, verdict="pass", records=None):
        failed = verdict != "pass"
        return self.record("end", records=self.next_seq if records is None else records,
                           verdict=verdict, failures=1 if failed else 0,
                           reason="an experiment's verdict failed" if failed else None)

    def verdict(self, exp, xsu, result, reason, sched="greedy", **extra):
        """A verdict record as the kernel writes it; `extra` (skip, exposure, checked,
        corrupted) added or replaced as given."""
        keys = dict(exp=exp, xsu=xsu, sched=sched, result=result, reason=reason, exposure=0,
                    checked=0, corrupted=0)
        keys.update(extra)
        return self.record("verdict", **keys)

    # ---- damage ---------------------------------------------------------------------------------
    def index_of(self, seq):
        for i, line in enumerate(self.lines):
            if line.seq == seq:
                return i
        raise KeyError(seq)

    def line_no(self, seq):
        """The 1-based line number of record seq in the rendered log (one line per Line)."""
        return self.index_of(seq) + 1

    def seq_of(self, type_name, **match):
        """The number of the first record of that type whose keys include `match`."""
        for line in self.lines:
            if line.seq is None:
                continue
            obj = json.loads(line.text.split(" ", 2)[2])
            if obj["type"] == type_name and all(obj.get(k) == v for k, v in match.items()):
                return line.seq
        raise KeyError((type_name, match))

    def drop(self, seq):
        del self.lines[self.index_of(seq)]

    def replace_line(self, seq, text):
        self.lines[self.index_of(seq)].text = text

    def flip_crc(self, seq):
        """A byte of the JSON changed on the wire: the CRC no longer matches."""
        line = self.lines[self.index_of(seq)]
        line.text = line.text.replace('"type"', '"typf"', 1)

    def break_json(self, seq):
        """Bad JSON with a CRC that matches it (the kernel's formatter went wrong)."""
        line = self.lines[self.index_of(seq)]
        body = line.text.split(" ", 2)[2]
        bad = body[:-1] + ",}"
        line.text = record_line(seq, bad)

    def cut(self, seq, keep_chars):
        """The capture stopped inside record seq: keep its first keep_chars characters and drop
        every line after it."""
        i = self.index_of(seq)
        self.lines[i].text = self.lines[i].text[:keep_chars]
        del self.lines[i + 1:]

    def cut_before(self, seq):
        """The capture stopped just before record seq."""
        del self.lines[self.index_of(seq):]

    def swap(self, seq_a, seq_b):
        a, b = self.index_of(seq_a), self.index_of(seq_b)
        self.lines[a], self.lines[b] = self.lines[b], self.lines[a]

    def duplicate(self, seq):
        i = self.index_of(seq)
        self.lines.insert(i + 1, Line(self.lines[i].text, None))

    def substitute(self, old, new):
        """Replace text in every record, each keeping a CRC that matches (the kernel said so)."""
        for line in self.lines:
            if line.seq is not None:
                line.text = record_line(line.seq, line.text.split(" ", 2)[2].replace(old, new))

    def glue_text_before(self, seq, text):
        """Firmware text left without a newline: the record follows it on the same line."""
        line = self.lines[self.index_of(seq)]
        line.text = text + line.text

    # ---- rendering ------------------------------------------------------------------------------
    def render(self, newline="\n", ansi=False):
        lines = [line.text for line in self.lines]
        if ansi:
            # What GRUB and the firmware leave on a serial console: colour, cursor moves, clear.
            lines = ["\x1b[0m\x1b[30m\x1b[47m\x1b[2J\x1b[01;01H" + lines[0]] + [
                "\x1b[?25l" + text + "\x1b[0m" if i % 3 == 0 else text
                for i, text in enumerate(lines[1:], start=1)]
        return newline.join(lines) + newline

    def write(self, path, **render_args):
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(self.render(**render_args))
        return path


# ---- the standard suite --------------------------------------------------------------------------

# What the kernel's `exp` records say of each experiment (the report takes titles only from them).
TITLES = {
    "ch4-branch-misses": ("Branch mispredictions against the sibling's loads", "4.2",
                          "XSU off: HT1 r00c5:u far above its baseline; XSU on: within it"),
    "ch7-three-events": ("Three events, lists in another order, started apart", "7.1",
                         "XSU on: r20cc:u is 0 on both threads, exposure 0"),
    "ch8-starvation": ("Four corrupting events on one thread starve the sibling", "8",
                       "XSU on: HT1 branches is <not counted>"),
    "xsu-hk-vs-greedy": ("Greedy against Hopcroft-Karp under XSU", "7.2",
                         "XSU on: Hopcroft-Karp runs more event-time than greedy"),
    "leak-survey": ("Which counter indices a corrupting event leaks into", "4.2",
                    "the leak reaches only the sibling's counter of the same index"),
    "xsu-fairness": ("Running fractions of the scheduling policies under XSU", "7.2",
                     "every policy keeps exposure 0; compare mean and minimum running"),
    "custom": ("Events from the command line", None, "measured"),
}


def count(log, exp, xsu, thread, event, scaled, running_pct=100.0, sched="greedy",
          phase="measure", baseline=None, tolerance=None, corrupting=None, name=None, **extra):
    """A count record for `scaled` counts over a one-second run that ran running_pct% of the
    time: raw is what the counter held, scaled = raw * enabled / running as the kernel computes.
    `extra` keys (rep, policy, leak, true, interfered) are added or replace the defaults (rep 0,
    not interfered)."""
    enabled = ONE_SECOND
    running = int(round(enabled * running_pct / 100.0))
    raw = scaled * running // enabled if running else 0
    if corrupting is None:
        corrupting = event[3:5].lower() in ("d0", "d1", "d2", "d3")
    keys = dict(exp=exp, phase=phase, xsu=xsu, sched=sched, rep=0, thread=thread,
                apic=thread, event=event,
                code="0x" + event[1:5] if event.startswith("r") else None, name=name,
                corrupting=corrupting, any_thread=False, interfered=False,
                counter="gp%d" % (thread + 1) if running else None, raw=raw, enabled=enabled,
                running=running, scaled=(raw * enabled // running) if running else None)
    if baseline is not None:
        keys["baseline"] = baseline
        keys["tolerance"] = tolerance if tolerance is not None else 0
    keys.update(extra)
    return log.record("count", **keys)


def run_start(log, exp, xsu, lists, sched="greedy", phase="measure", offsets=(0, 0),
              tolerance=None, **extra):
    """An `exp` record (with the experiment's title, section and rule from TITLES, where it has
    some) and a progress record; `extra` keys (repeat, rep, policy) are added as they are."""
    threads = [dict(thread=t, apic=t, events=events, offset_ns=offsets[t], workload="triad")
               for t, events in enumerate(lists)]
    title, section, rule = TITLES.get(exp, ("Experiment " + exp, "-", "measured"))
    keys = dict(exp=exp, phase=phase, xsu=xsu, sched=sched, rep=0, repeat=1, title=title,
                section=section or "-", rule=rule, threads=threads, duration_ns=1_000_000_000,
                mux_ms=1, params={"triad_kib": 4096, "chase_kib": 16384, "triad_reps": 0})
    if tolerance:
        keys["tolerance"] = tolerance
    keys.update(extra)
    log.record("exp", **keys)
    log.text("running %s xsu=%s sched=%s (%s)" % (exp, xsu, sched, phase))
    run = {k: keys[k] for k in ("exp", "phase", "xsu", "sched", "rep", "policy") if k in keys}
    log.record("progress", **run, done_pct=50, elapsed_ns=500_000_000)


def run_end(log, exp, xsu, exposure, sched="greedy", phase="measure", **extra):
    """An exp_end record; `extra` keys (rep, policy, the tick handler's figures) added or
    replacing the defaults (a handler of 2,000 TSC ticks, none late or lost)."""
    keys = dict(exp=exp, phase=phase, xsu=xsu, sched=sched, rep=0, elapsed_ns=1_000_400_000,
                ticks=[1000, 1000], units=[9_000_000, 9_000_000], tick_tsc_mean=[2000, 2000],
                tick_tsc_max=[4000, 4000], ticks_late=[0, 0], ticks_lost=[0, 0],
                exposure=exposure, invariant_violations=0, skew_tsc=310, overlap_pct=100)
    if xsu == "core":
        keys.update(joint_unanswered=0, joint_gap_pct=1.5)
    keys.update(extra)
    log.record("exp_end", **keys)


# The command line's keys, as the kernel lists them in a warning about an unknown key.
CMDLINE_KEYS = ("exp|xsu|sched|pmu|mux_ms|exit|serial|baud|selftest|core|smp|apic|dur_ms|"
                "triad_kib|triad_reps|ht0|ht1|work0|work1|start1_ms|repeat|chase_kib|survey_work")


def boot_record(**extra):
    """The keys of a boot record as the kernel writes it (docs/records.md, `boot`) on QEMU's
    Haswell with two threads; `extra` keys added or replacing these."""
    keys = dict(
        version="0.1-test", boot="multiboot2", loader="GRUB 2.06-13+deb12u1",
        cmdline="exp=all xsu=both exit=qemu colour=blue", mem_mib=512, memory_regions=7,
        acpi_rsdp="0x000f5270", acpi_source="multiboot2-acpi2", uefi=False,
        cpu=dict(vendor="GenuineIntel", family=6, model=60, stepping=4,
                 brand="Intel Core Processor (Haswell, no TSX)", hypervisor="TCGTCGTCGTCG",
                 avx=True),
        microcode=None, cpus=2, packages=1, cores=1, threads_per_core=2,
        topology_source="cpuid-0x0b", core=0, threads=[0, 1], smt=True, core_threads=[[0, 1]],
        smp="pair", tsc_hz=TSC_HZ, tsc_ref="pit", apic_timer_hz=62_500_000, apic_mode="xapic",
        console=dict(serial="0x3f8", baud=115200, vga=True, screen="vga-text 80x25"),
        config=dict(exp="all", xsu="off,on", sched="greedy", pmu="auto", mux_ms=1, dur_ms=1000,
                    repeat=1, exit="qemu", selftest="none", apic="auto", ht0=None,
                    work0="triad", ht1=None, work1="triad", start1_ms=0))
    keys.update(extra)
    return keys


def pmu_record(**extra):
    """A pmu record of the model PMU on Haswell, with the firmware's PMU MSRs clean."""
    keys = dict(backend="model",
                reason="CPUID 0x0A reports no architectural PMU (hypervisor TCGTCGTCGTCG)",
                version=3, gp=4, gp_width=48, fixed=3, fixed_width=48, full_width=True,
                uarch="haswell", erratum="HSD29", hypervisor="TCGTCGTCGTCG", smt=True,
                tsx_force_abort=False, firmware_counters=[],
                msrs={"IA32_PERF_GLOBAL_CTRL": "0x0", "IA32_DEBUGCTL": "0x0"},
                model=dict(erratum_applied=True,
                           shares=[dict(event="0x81d0", name="MEM_UOPS_RETIRED.ALL_LOADS",
                                        share=0.025),
                                   dict(event="0xd1", name=None, share=0.5)]))
    keys.update(extra)
    return keys


def boot_and_pmu(log, warn=True, boot_extra=None, pmu_extra=None):
    log.text("GRUB loading.")
    log.text("Welcome to GRUB!")
    log.text("  Booting `pmu-testkernel: all experiments, XSU off and on'")
    log.record("boot", **boot_record(**(boot_extra or {})))
    log.text("pmu-testkernel 0.1-test: 2 CPUs, core 0 threads 0,1")
    if warn:
        log.record("warn", key="colour", value="blue", accepted=CMDLINE_KEYS, used=None,
                   source="cmdline",
                   message="unknown key 'colour' (keys: %s); ignored" % CMDLINE_KEYS)
    log.record("pmu", **pmu_record(**(pmu_extra or {})))


def exp_branch_misses(log):
    """Thesis 4.2 / 7.1: 0x00c5 on HT1 against 0x81d0 on HT0."""
    e = "ch4-branch-misses"
    tolerance = {"pct": 10, "abs": 200}
    run_start(log, e, "off", [[], ["r00c5:u"]], phase="baseline", tolerance=tolerance)
    count(log, e, "off", 1, "r00c5:u", 644, phase="baseline")
    run_end(log, e, "off", 0, phase="baseline")
    run_start(log, e, "off", [["r81d0:u"], ["r00c5:u"]], tolerance=tolerance)
    count(log, e, "off", 0, "r81d0:u", 5_565_857_411)
    count(log, e, "off", 1, "r00c5:u", 40_960_843, baseline=644, tolerance=200)
    run_end(log, e, "off", 1000)
    log.verdict(exp=e, xsu="off", sched="greedy", result="pass",
                reason="HT1 r00c5:u 40,960,843 against a baseline of 644: corrupted, as in 4.2")
    run_start(log, e, "on", [["r81d0:u"], ["r00c5:u"]], tolerance=tolerance)
    count(log, e, "on", 0, "r81d0:u", 5_465_161_580)
    count(log, e, "on", 1, "r00c5:u", 781, baseline=644, tolerance=200)
    run_end(log, e, "on", 0)
    log.verdict(exp=e, xsu="on", sched="greedy", result="pass",
                reason="HT1 r00c5:u 781 within 200 of 644; exposure 0")


def exp_three_events(log):
    """Thesis 7.1: three events, lists in another order, started apart."""
    e = "ch7-three-events"
    lists = [["r81d0:u", "r08d1:u", "r20cc:u"], ["r20cc:u", "r81d0:u", "r08d1:u"]]
    run_start(log, e, "off", lists, offsets=(0, 2_000_000))
    count(log, e, "off", 0, "r81d0:u", 5_609_439_398)
    count(log, e, "off", 0, "r08d1:u", 304_559_413)
    count(log, e, "off", 0, "r20cc:u", 137_640_089, baseline=0, tolerance=0)
    count(log, e, "off", 1, "r20cc:u", 137_641_709, baseline=0, tolerance=0)
    count(log, e, "off", 1, "r81d0:u", 5_713_420_846)
    count(log, e, "off", 1, "r08d1:u", 166_553_900)
    run_end(log, e, "off", 2000)
    log.verdict(exp=e, xsu="off", sched="greedy", result="pass",
                reason="r20cc:u corrupted on both threads, as in 7.1")
    run_start(log, e, "on", lists, offsets=(0, 2_000_000))
    count(log, e, "on", 0, "r81d0:u", 5_650_303_673)
    count(log, e, "on", 0, "r08d1:u", 166_632_879)
    count(log, e, "on", 0, "r20cc:u", 0, baseline=0, tolerance=0)
    count(log, e, "on", 1, "r20cc:u", 0, running_pct=66.68, baseline=0, tolerance=0)
    count(log, e, "on", 1, "r81d0:u", 5_509_435_203, running_pct=66.66)
    count(log, e, "on", 1, "r08d1:u", 162_522_829, running_pct=33.35)
    run_end(log, e, "on", 0)
    log.verdict(exp=e, xsu="on", sched="greedy", result="pass",
                reason="r20cc:u 0 on both threads; exposure 0")


def exp_starvation(log):
    """Thesis 8: four corrupting events on HT0 starve `branches` on HT1 under XSU."""
    e = "ch8-starvation"
    lists = [["r81d0:u", "r08d1:u", "r10d1:u", "r01d1:u"], ["branches"]]
    figures = [5_470_671_639, 157_698_323, 106_859_230, 2_918_823_504]
    for xsu in ("off", "on"):
        run_start(log, e, xsu, lists)
        for event, n in zip(lists[0], figures):
            count(log, e, xsu, 0, event, n)
        if xsu == "off":
            count(log, e, xsu, 1, "branches", 459_733_444, corrupting=False)
        else:
            count(log, e, xsu, 1, "branches", 0, running_pct=0.0, corrupting=False)
        run_end(log, e, xsu, 3000 if xsu == "off" else 0)
        log.verdict(e, xsu, "pass", "branches counted" if xsu == "off"
                    else "HT1 branches <not counted>: starved, as in chapter 8")


def exp_hk_vs_greedy(log):
    """Scheduling under XSU: greedy fits 3 of 4 events at a time, Hopcroft-Karp all 4."""
    e = "xsu-hk-vs-greedy"
    lists = [["r0148:u", "r08a3:u", "r81d0:u", "r00c4:u"], ["r81d0:u"]]
    running = {"greedy": [75.0, 50.0, 75.0, 100.0], "hk": [100.0, 100.0, 100.0, 100.0]}
    for sched in ("greedy", "hk"):
        run_start(log, e, "on", lists, sched=sched)
        for event, pct, n in zip(lists[0], running[sched], [12_000, 34_000, 5_500_000_000, 1e9]):
            count(log, e, "on", 0, event, int(n), running_pct=pct, sched=sched)
        count(log, e, "on", 1, "r81d0:u", 5_500_000_000, running_pct=100.0, sched=sched)
        run_end(log, e, "on", 0, sched=sched)
    log.verdict(e, "on", "pass", "hk runs 100.0% of event-time on HT0, greedy 75.0%",
                sched="both")


# ---- the records added since: core-wide XSU, repetitions, the model's truth, leaks, ... --------

REPEATED_LISTS = [["r81d0:u", "r08d1:u", "r20cc:u"], ["r20cc:u", "r81d0:u", "r08d1:u"]]
# Per XSU mode, per thread and event: the scaled count of repetition 0, then +1% per repetition
# (HT0 r81d0:u off: 5,600,000,000, 5,656,000,000, 5,712,000,000: mean 5,656,000,000, perf's
# ( +- 0.57% )); the model's true count; the leak caught under xsu=core.
REPEATED = {
    "off": {(0, "r81d0:u"): (5_600_000_000, 5_600_000_000, None),
            (0, "r08d1:u"): (300_000_000, 300_000_000, None),
            (0, "r20cc:u"): (137_000_000, 0, None),
            (1, "r20cc:u"): (137_500_000, 0, None),
            (1, "r81d0:u"): (5_700_000_000, 5_700_000_000, None),
            (1, "r08d1:u"): (166_000_000, 300_000_000, None)},
    "on": {(0, "r81d0:u"): (5_650_000_000, 5_650_000_000, None),
           (0, "r08d1:u"): (166_000_000, 166_000_000, None),
           (0, "r20cc:u"): (0, 0, None),
           (1, "r20cc:u"): (0, 0, None),
           (1, "r81d0:u"): (5_500_000_000, 5_520_000_000, None),
           (1, "r08d1:u"): (162_000_000, 166_000_000, None)},
    "core": {(0, "r81d0:u"): (5_640_000_000, 5_640_000_000, 0),
             (0, "r08d1:u"): (299_000_000, 300_000_000, 135_000_000),
             (0, "r20cc:u"): (0, 0, 0),
             (1, "r20cc:u"): (0, 0, 0),
             (1, "r81d0:u"): (5_690_000_000, 5_700_000_000, 0),
             (1, "r08d1:u"): (298_000_000, 300_000_000, 134_000_000)},
}
TICKS = dict(tick_tsc_mean=[2500, 2600], tick_tsc_max=[9000, 12000], ticks_late=[0, 2],
             ticks_lost=[0, 0])
# What exp_end holds since issue 16, per XSU mode: the tick handler's total TSC cycles (under
# core twice ticks times the mean: as many raised ticks, not in `ticks`, as handovers), PMU
# register writes and reads per tick, and under core the handovers; per repetition (rep) the
# SMIs and the handover IPIs sent again.
COST = {
    "off": dict(tick_tsc_total=[2_500_000, 2_600_000], msr_writes_per_tick=[0.0, 0.0],
                msr_reads_per_tick=[4.0, 4.0]),
    "on": dict(tick_tsc_total=[2_500_000, 2_600_000], msr_writes_per_tick=[3.5, 3.25],
               msr_reads_per_tick=[7.0, 7.0]),
    "core": dict(tick_tsc_total=[5_000_000, 5_200_000], msr_writes_per_tick=[4.5, 4.75],
                 msr_reads_per_tick=[8.0, 8.5], handovers=1000),
}


def cost(xsu, rep):
    """COST of a mode in one repetition: 2 SMIs in repetition 1 under core, else none; under
    core `rep` handover IPIs sent again."""
    keys = dict(COST[xsu], smi_count=2 if (xsu, rep) == ("core", 1) else 0)
    if xsu == "core":
        keys["joint_retries"] = rep
    return keys


def exp_repeated(log, repeat=3):
    """ch7-three-events with XSU off, on and core, `repeat` repetitions each, with the model's
    true counts, the leaks core-wide XSU added back, one count firmware interfered with, and the
    tick handler's times."""
    e = "ch7-three-events"
    for xsu in ("off", "on", "core"):
        for rep in range(repeat):
            run_start(log, e, xsu, REPEATED_LISTS, offsets=(0, 2_000_000), repeat=repeat,
                      rep=rep)
            for thread, events in enumerate(REPEATED_LISTS):
                for event in events:
                    _repeated_count(log, e, xsu, rep, thread, event)
            run_end(log, e, xsu, 2000 if xsu == "off" else 0, rep=rep, **TICKS,
                    **cost(xsu, rep))
        log.verdict(exp=e, xsu=xsu, sched="greedy", result="pass",
                    reason="XSU %s as expected over %d repetitions" % (xsu, repeat))


def _repeated_count(log, e, xsu, rep, thread, event):
    scaled, true, leak = REPEATED[xsu][(thread, event)]
    extra = dict(rep=rep, true=true * (100 + rep) // 100)
    if leak is not None:
        extra["leak"] = leak
    if (xsu, rep, thread, event) == ("off", 1, 0, "r81d0:u"):
        extra["interfered"] = True
    baseline = dict(baseline=0, tolerance=0) if event == "r20cc:u" else {}
    count(log, e, xsu, thread, event, scaled * (100 + rep) // 100,
          running_pct=66.68 if xsu != "off" and thread == 1 else 100.0, **baseline, **extra)


SURVEY_EVENTS = [("r81d0:u", "MEM_UOPS_RETIRED.ALL_LOADS", True, 0.024),
                 ("r08d1:u", "MEM_LOAD_UOPS_RETIRED.L1_MISS", True, 0.45),
                 ("r00c5:u", "BR_MISP_RETIRED.ALL_BRANCHES", False, 0.0)]


def exp_survey(log, reps=2):
    """The leak survey: each event on HT0's counter i against a zero event on the sibling's
    counter i (the same index) and i+1 (another index); r81d0:u on index 3 leaks 0.026 in its
    second repetition; r00c5:u counted nothing on index 2 (its ratio is null). Then each
    corrupting event on HT0's counter i with the sibling's counter i disabled (STATE_COUNTS).
    Each repetition starts with the survey's own `exp` record (docs/records.md, `survey`); the
    survey has no exp_end."""
    e = "leak-survey"
    title, section, rule = TITLES[e]
    for rep in range(reps):
        log.record("exp", exp=e, phase="measure", xsu="off", sched="greedy", rep=rep,
                   repeat=reps, title=title, section=section, rule=rule,
                   description="HT0 counts each event alone, HT1 a zero event",
                   workload="triad", zero_event="r20cc:u", events=len(SURVEY_EVENTS),
                   measurements=len(SURVEY_EVENTS) * 8 + 2 * 4 * len(STATE_COUNTS),
                   duration_ns=100_000_000, mux_ms=1)
        occurrences = {}
        for event, name, corrupting, share in SURVEY_EVENTS:
            for index in range(4):
                for sibling in (index, (index + 1) % 4):
                    n = 0 if (event, index) == ("r00c5:u", 2) else 1_000_000
                    ratio = share if sibling == index else 0.0
                    if (event, index, rep, sibling) == ("r81d0:u", 3, 1, 3):
                        ratio = 0.026
                    leak = int(round(n * ratio))
                    log.record("survey", exp=e, xsu="off", rep=rep, event=event, name=name,
                               corrupting=corrupting, control=not corrupting, index=index,
                               sibling_index=sibling, same_index=sibling == index, count=n,
                               leak=leak, ratio=ratio if n else None, overlap_pct=100,
                               sibling_state="zero_event")
                    if sibling == index:
                        occurrences[(event, index)] = n + leak
        _survey_states(log, e, rep, occurrences)
    log.verdict(exp=e, xsu="off", sched="greedy", result="pass",
                reason="leaks only into the counter of the same index")


# HT0's count with the sibling's counter of its index disabled, as a function of what the event
# did with the sibling counting the zero event (count + leak): with EN clear HT0 keeps the leak,
# with its GLOBAL_CTRL bit clear it loses it (the zero-event point's count).
STATE_COUNTS = {"en_clear": lambda occurrences, share: occurrences,
                "global_clear": lambda occurrences, share: int(round(occurrences / (1 + share)))}


def _survey_states(log, e, rep, occurrences):
    for event, name, corrupting, share in SURVEY_EVENTS:
        if not corrupting:
            continue
        for state, count_of in STATE_COUNTS.items():
            for index in range(4):
                log.record("survey", exp=e, xsu="off", rep=rep, event=event, name=name,
                           corrupting=True, control=False, index=index, sibling_index=index,
                           same_index=True, count=count_of(occurrences[(event, index)], share),
                           leak=0, ratio=0.0, overlap_pct=100, sibling_state=state)


FAIRNESS = [("on", "greedy", "on-greedy", [75.0, 50.0]), ("on", "hk", "on-hk", [100.0, 100.0]),
            ("on", "greedy", "on-limit", [50.0, 50.0]), ("core", "hk", "core", [100.0, 80.0])]


def exp_fairness(log):
    """Scheduling policies side by side: runs that differ in xsu, sched and policy."""
    e = "xsu-fairness"
    lists = [["r00c4:u", "r08d1:u"], ["r00c5:u"]]
    for xsu, sched, policy, running in FAIRNESS:
        run_start(log, e, xsu, lists, sched=sched, policy=policy)
        for event, pct in zip(lists[0], running):
            count(log, e, xsu, 0, event, 1_000_000, running_pct=pct, sched=sched, policy=policy)
        count(log, e, xsu, 1, "r00c5:u", 2_000, sched=sched, policy=policy)
        run_end(log, e, xsu, 0, sched=sched, policy=policy)
    for xsu in ("on", "core"):
        log.verdict(exp=e, xsu=xsu, sched="both", result="pass",
                    reason="exposure 0 under every policy")


def exp_custom(log):
    """A run defined on the command line: experiment `custom`, rule "measured"."""
    e = "custom"
    lists = [["r81d0:u", "r00c4:u"], ["r20cc:u"]]
    for xsu, lbr in (("off", 130_000_000), ("on", 0), ("core", 0)):
        run_start(log, e, xsu, lists)
        count(log, e, xsu, 0, "r81d0:u", 5_600_000_000)
        count(log, e, xsu, 0, "r00c4:u", 1_400_000_000)
        count(log, e, xsu, 1, "r20cc:u", lbr)
        run_end(log, e, xsu, 1000 if xsu == "off" else 0)
        log.verdict(exp=e, xsu=xsu, sched="greedy", result="pass", reason="measured")


MSRS = {"IA32_PERF_GLOBAL_CTRL": "0x70000000f", "IA32_FIXED_CTR_CTRL": "0x330",
        "IA32_PERFEVTSEL0": "0x0", "IA32_PERFEVTSEL1": "0x4300c0", "IA32_DEBUGCTL": "0x0",
        "IA32_PEBS_ENABLE": None}  # null: the MSR faulted


def boot_checks(log):
    """The boot checks as the kernel records them: the AP it started, the tick, ring-3 code on
    both siblings, a known workload counted and RDPMC from ring 3."""
    log.record("cpu", apic=1, index=1, started=True, start_us=840, core=0, initial_apic_id=1,
               x2apic_id=1)
    log.record("tick", period_ms=1, interval_ns=100_000_000, expected=100, ticks=[100, 99],
               error_pct=[0.0, -1.0], held_us=[3, 4], apic=[0, 1], tick_tsc_mean=[2100, 2200],
               tick_tsc_max=[5000, 6000], ticks_late=[0, 0], ticks_lost=[0, 1])
    log.record("sibling", apic=[0, 1], skew_tsc=1200, skew_ns=480,
               results=[dict(thread=t, cpl=3, expected=77, sse=77, avx=77, ok=True)
                        for t in (0, 1)])
    log.record("pmu_check", backend="model", workload="callret", units=100000,
               events=["INST_RETIRED.ANY", "BR_INST_RETIRED.NEAR_CALL",
                       "BR_INST_RETIRED.NEAR_RETURN", "BR_INST_RETIRED.ALL_BRANCHES",
                       "BR_INST_RETIRED.NEAR_CALL"], skipped=[],
               threads=[dict(thread=t, apic=t, status="ok", counts=[800000, 100000, 100000,
                                                                    300000, 100000],
                             expected=[800000, 100000, 100000, 300000, 100000], wraps=1,
                             ok=True) for t in (0, 1)], ok=True)
    log.record("rdpmc", backend="model", emulated=True, event="BR_INST_RETIRED.NEAR_CALL",
               units=1000, reads=1000, cycles=41.5, median=40, min=38, max=120, reason=None,
               threads=[dict(thread=t, apic=t, status="ok", reads=500, cycles=41.5, median=40,
                             min=38, max=120, empty_tsc=20, region_calls=1000,
                             region_instructions=8000, emulated_reads=504, ok=True)
                        for t in (0, 1)], ok=True)


def extended_suite(repeat=3):
    """A log with every record added after the first suite: the boot's microcode, the PMU MSRs
    the firmware left (two counters enabled), the boot checks (RDPMC among them), repetitions
    with XSU off, on and core, the leak survey, policies and a command-line run."""
    log = Log()
    boot_and_pmu(log, warn=False, boot_extra=dict(microcode="0x28"),
                 pmu_extra=dict(msrs=MSRS, firmware_counters=["IA32_FIXED_CTR0", "IA32_PMC1"]))
    boot_checks(log)
    exp_repeated(log, repeat)
    exp_survey(log)
    exp_fairness(log)
    exp_custom(log)
    log.end()
    return log


def suite(end=True, verdict="pass"):
    """The standard good log: boot, pmu, four experiments, end."""
    log = Log()
    boot_and_pmu(log)
    exp_branch_misses(log)
    exp_three_events(log)
    exp_starvation(log)
    exp_hk_vs_greedy(log)
    log.text("all experiments done")
    if end:
        log.end(verdict)
    return log


# ---- a kernel's log repeated ---------------------------------------------------------------------

# The records of a run: an `exp` record and these after it (docs/records.md, "a run").
RUN_TYPES = ("exp", "count", "exp_end", "survey", "progress")


def repeated(text, n, note=None):
    """A log of the kernel (text) as `repeat=n` would have written it: each experiment's runs n
    times over, repetition by repetition as the kernel orders them (rep 0..n-1, the `exp`
    records' repeat n), then its verdicts; every other record once; renumbered with matching
    CRCs, the end record's count too. `note`, a line of text at the top, makes two such logs
    differ (a comparison counts the same log twice once)."""
    import pmu_records  # tools/ is on the path of every test that asks for this
    records = [r.obj for r in pmu_records.parse(text).records]
    log = Log()
    if note:
        log.text(note)
    i = 0
    while i < len(records):
        o = records[i]
        j = i + 1
        if o["type"] == "exp":
            while j < len(records) and records[j]["type"] in RUN_TYPES and \
                    records[j].get("exp") == o["exp"]:
                j += 1
            for rep in range(n):
                for r in records[i:j]:
                    keys = dict(r, rep=rep, **({"repeat": n} if r["type"] == "exp" else {}))
                    log.record(keys.pop("type"), **keys)
        else:
            keys = dict(o)
            if o["type"] == "end":
                keys["records"] = log.next_seq  # the records before it, this one's number
            log.record(keys.pop("type"), **keys)
        i = j
    return log


def changed(text, type_name, change):
    """A kernel's log (text) with its first record of a type changed by change(obj), the CRC
    matching: the same log of another machine, say (a comparison compares it as one)."""
    import pmu_records  # tools/ is on the path of every test that asks for this
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = pmu_records.RECORD_RE.search(line.rstrip("\r"))
        if m and json.loads(m.group(3))["type"] == type_name:
            obj = json.loads(m.group(3))
            change(obj)
            lines[i] = record_text(int(m.group(1)), obj)
            return "\n".join(lines)
    raise KeyError(type_name)


# ---- sample logs ---------------------------------------------------------------------------------

SAMPLES = {
    # As captured from QEMU's serial port through GRUB: CRLF line ends, GRUB's escape sequences.
    "sample-good.log": dict(damage=(), newline="\r\n", ansi=True),
    # The same capture with a record lost (@10), one whose bytes changed (@20, CRC mismatch) and
    # the cable pulled in the middle of @70.
    "sample-damaged.log": dict(damage=(("drop", 10), ("flip_crc", 20), ("cut", 70, 40)),
                               newline="\r\n", ansi=True),
}


def sample(name):
    """One of the sample logs under tests/report/data, as a Log."""
    spec = SAMPLES[name]
    log = suite()
    log.lines.insert(0, Line("# %s: written by tests/report/logfixture.py --write-samples"
                             % name))
    for step in spec["damage"]:
        getattr(log, step[0])(*step[1:])
    return log


def write_samples(folder):
    for name, spec in SAMPLES.items():
        sample(name).write(os.path.join(folder, name), newline=spec["newline"],
                           ansi=spec["ansi"])


if __name__ == "__main__":
    import sys
    if sys.argv[1:] != ["--write-samples"]:
        sys.exit("usage: logfixture.py --write-samples")
    write_samples(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"))
