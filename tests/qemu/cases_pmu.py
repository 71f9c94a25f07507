"""The PMU (issue 5): enumeration names the microarchitecture and erratum of each QEMU CPU model,
the model backend stands in for the missing PMU, pmu=hw fails cleanly, and counts through the
whole path (ring-3 system call, model, driver) are exact. Issue 13: what the firmware left in the
PMU is recorded and taken over (selftest=firmware-counters imitates a BIOS that left counters
running), the microcode revision is null under TCG, and the tick reports its own cost."""

import os

from qemu_boot import PAIR
from tests.qemu.cases_kvm import kvm_works
from tests.qemu.driver import Case, Skip


def pmu_record_is(uarch, erratum, backend="model", reason=("no PMU", "without a PMU"), gp=4):
    def check(result, stream):
        pmus = stream.of_type("pmu")
        assert len(pmus) == 1, "%d pmu records" % len(pmus)
        p = pmus[0]
        got = (p["backend"], p["uarch"], p["erratum"])
        assert got == (backend, uarch, erratum), "pmu record %r, expected %r" % (
            got, (backend, uarch, erratum))
        for key in ("reason", "version", "gp", "gp_width", "fixed"):
            assert key in p.obj, "pmu record lacks %r" % key
        if backend == "model":
            assert any(r in p["reason"] for r in reason), "reason %r" % p["reason"]
            assert p["hypervisor"] == "TCGTCGTCGTCG", p["hypervisor"]
            assert p["gp"] == gp and p["fixed"] == 3 and p["gp_width"] == 48, p.obj
            assert p["model"]["erratum_applied"] is (erratum is not None), p["model"]
            shares = {s["event"]: s["share"] for s in p["model"]["shares"]}
            assert abs(shares["0x81d0"] - 0.024) < 0.002, shares
            # A clean model: nothing left by firmware, every PMU MSR zero.
            assert p["firmware_counters"] == [], p["firmware_counters"]
            assert p["msrs"] == dict((name, "0x0") for name in model_msrs(p["gp"])), p["msrs"]
            assert p["tsx_force_abort"] is False, p["tsx_force_abort"]
            assert stream.boot["microcode"] is None, stream.boot["microcode"]
    return check


def model_msrs(gp):
    """What the pmu record's msrs hold under the model, in order, with gp GP counters."""
    return (["IA32_PERF_GLOBAL_CTRL", "IA32_PERF_GLOBAL_STATUS", "IA32_FIXED_CTR_CTRL"]
            + ["IA32_PERFEVTSEL%d" % i for i in range(gp)]
            + ["IA32_DEBUGCTL", "IA32_PEBS_ENABLE"])


def firmware_counters_taken_over(result, stream):
    """selftest=firmware-counters: the model starts as a BIOS that counts left it. The pmu record
    shows the registers as found and names the counters, a warn says so, and the PMU check (run
    after the takeover) counts exactly."""
    p = stream.first("pmu")
    assert p["firmware_counters"] == ["IA32_PMC0", "IA32_FIXED_CTR1", "IA32_FIXED_CTR2"], \
        p["firmware_counters"]
    msrs = p["msrs"]
    assert list(msrs) == model_msrs(4), list(msrs)
    expected = {"IA32_FIXED_CTR_CTRL": "0x330", "IA32_PERF_GLOBAL_CTRL": "0x70000000f",
                "IA32_PERFEVTSEL0": "0x43003c", "IA32_DEBUGCTL": "0x801",
                "IA32_PEBS_ENABLE": "0x1"}
    for name, value in expected.items():
        assert msrs[name] == value, "%s %r, expected %r" % (name, msrs[name], value)
    warns = [w for w in stream.of_type("warn") if w.get("source") == "pmu"]
    assert [(w["key"], w["value"]) for w in warns] == [
        ("firmware_counters", "IA32_PMC0,IA32_FIXED_CTR1,IA32_FIXED_CTR2")], \
        [w.obj for w in warns]
    assert "Broken BIOS" in warns[0]["message"], warns[0]["message"]
    assert stream.records.index(warns[0]) > stream.records.index(p)
    assert stream.boot["config"]["selftest"] == "firmware-counters"


def tick_cost_reported(result, stream):
    """The boot check's tick record carries the handler's cost and the late and lost ticks per
    thread, as exp_end does for a run."""
    t = stream.first("tick")
    n = len(stream.boot["threads"])
    for key in ("tick_tsc_mean", "tick_tsc_max", "ticks_late", "ticks_lost"):
        assert len(t[key]) == n, "tick record %s %r for %d threads" % (key, t[key], n)
    for mean, biggest in zip(t["tick_tsc_mean"], t["tick_tsc_max"]):
        assert 0 < mean <= biggest, "mean %d, max %d" % (mean, biggest)
    for lost in t["ticks_lost"]:
        assert lost <= t["expected"], "%d lost of %d expected" % (lost, t["expected"])


def pmu_check_exact(result, stream):
    checks = stream.of_type("pmu_check")
    assert len(checks) == 1, "%d pmu_check records" % len(checks)
    c = checks[0]
    assert c["ok"] and c["backend"] == "model", c.obj
    assert len(c["threads"]) == len(stream.boot["threads"])
    for t in c["threads"]:
        assert t["counts"] == t["expected"], "thread %d counted %r, expected %r" % (
            t["thread"], t["counts"], t["expected"])
        assert t["wraps"] >= 1, "the preloaded counter did not wrap"


def hw_refused(result, stream):
    p = stream.first("pmu")
    assert p is not None and p["backend"] == "none", "pmu record %r" % (p and p.obj)
    assert "pmu=hw" in p["reason"], p["reason"]
    assert stream.records[-2] is p, "the run did not end right after the pmu record"
    assert "pmu=hw" in (stream.end.get("reason") or ""), stream.end.get("reason")


def real_counters(result, stream):
    """The real-counter path end to end: the hw backend chosen, RDPMC and MSRs, the PMU check's
    calls within 1% of the units and its wrapped counter equal to the plain one."""
    p = stream.first("pmu")
    if p is None or p["backend"] != "hw":
        raise Skip("needs a real PMU: QEMU's TCG emulates none (%s); set "
                   "PMU_TESTKERNEL_ACCEL=kvm on a host whose KVM exposes one"
                   % (p["reason"] if p else "no pmu record"))
    c = stream.first("pmu_check")
    assert c is not None and c["backend"] == "hw", "no pmu_check on real counters"
    assert c["ok"], "the PMU check counted wrong on real counters: %r" % c.obj


# PMU_TESTKERNEL_ACCEL=kvm runs the real-counter case under KVM with the host's CPU (and its
# virtual PMU); by default it boots under TCG, which has none, and is skipped.
ACCEL = os.environ.get("PMU_TESTKERNEL_ACCEL", "tcg")

CASES = [
    Case("pmu/real-counters", smp=PAIR, accel=ACCEL,
         cpu="host,-arch-capabilities" if ACCEL == "kvm" else "Haswell",
         requires=kvm_works if ACCEL == "kvm" else None,
         describe="the hw backend on a real (virtual) PMU; skipped where QEMU has none",
         checks=[real_counters]),
    Case("pmu/sandybridge", smp=PAIR, cpu="SandyBridge",
         checks=[pmu_record_is("sandybridge", "BJ122"), pmu_check_exact]),
    Case("pmu/ivybridge", smp=PAIR, cpu="IvyBridge",
         checks=[pmu_record_is("ivybridge", "BV98"), pmu_check_exact]),
    Case("pmu/haswell", smp=PAIR, cpu="Haswell",
         checks=[pmu_record_is("haswell", "HSD29"), pmu_check_exact, tick_cost_reported]),
    Case("pmu/firmware-counters", smp=PAIR, cpu="IvyBridge",
         cmdline="exit=qemu selftest=firmware-counters",
         describe="the model PMU starts as a BIOS that left counters running (FIXED_CTR_CTRL 0x330)",
         checks=[firmware_counters_taken_over, pmu_check_exact]),
    Case("pmu/skylake", smp=PAIR, cpu="Skylake-Client",
         checks=[pmu_record_is("skylake", None), pmu_check_exact]),
    # QEMU 7.2's Icelake-Server says model 0x86 (Tremont's number); Ice Lake-SP is 0x6A. Ice Lake
    # has 8 GP counters per thread with HT on, and Linux's Ice Lake rules.
    Case("pmu/icelake", smp=PAIR, cpu="Icelake-Server,model=106",
         checks=[pmu_record_is("icelake", None, gp=8), pmu_check_exact]),
    Case("pmu/qemu64", smp=PAIR, cpu="qemu64",
         describe="an AMD family 15 model: no tables, no erratum",
         checks=[pmu_record_is("unknown", None), pmu_check_exact]),
    Case("pmu/hw-without-pmu", smp=PAIR, cmdline="exit=qemu pmu=hw", verdict="fail",
         describe="pmu=hw under QEMU: a clear failure record and a clean exit",
         checks=[hw_refused]),
    Case("pmu/model-forced", smp=PAIR, cmdline="exit=qemu pmu=model",
         checks=[pmu_record_is("haswell", "HSD29", reason=("pmu=model",)), pmu_check_exact]),
]
