"""Bring-up on any CPU, never a silent hang (issue 13): the QEMU models that used to hang or could
not run at all, and a machine whose timer references are missing. A lean list of the interesting
models, not a sweep over all of them."""

from qemu_boot import PAIR
from tests.qemu.cases_records import report_status
from tests.qemu.driver import Case

NO_LONG_MODE = "this CPU has no 64-bit long mode"


def bring_up_line_complete(result, stream):
    """The console names every bring-up step on one line, and it ran to its end."""
    lines = [l for l in result.log.splitlines() if l.startswith("bring-up: ")]
    assert len(lines) == 1, "bring-up lines %r" % lines
    for step in ("paging", "FPU", "ACPI tables", "local APIC", "TSC calibration", "APs"):
        assert step in lines[0], "bring-up line lacks %r: %r" % (step, lines[0])
    assert lines[0].rstrip("\r").endswith(", done"), lines[0]
    assert "step" not in stream.boot.obj, "boot record names step %r" % stream.boot["step"]


def avx(expected, warned):
    """AVX on or off as the FPU plan decides (kernel/fpu_plan.c), the fpu warning when it is off
    although the CPU offers it, and ring-3 SSE working on both siblings either way."""
    def check(result, stream):
        assert stream.boot["cpu"]["avx"] is expected, "avx %r" % stream.boot["cpu"]["avx"]
        warns = [w for w in stream.of_type("warn") if w.get("source") == "fpu"]
        assert len(warns) == (1 if warned else 0), "fpu warnings %r" % [w.obj for w in warns]
        if warned:
            assert warns[0]["key"] == "avx" and "XSAVEOPT" in warns[0]["message"], warns[0].obj
        s = stream.first("sibling")
        assert s is not None and len(s["results"]) == 2, "sibling record %r" % (
            s.obj if s else None)
        for r in s["results"]:
            assert r["ok"] and r["sse"] == r["expected"], "thread result %r" % r
    return check


def cannot_run(boot_path):
    """The 32-bit path: the message, then exactly a boot record saying why and the end record."""
    def check(result, stream):
        assert "pmu-testkernel: " + NO_LONG_MODE in result.log, "no message on the console"
        assert len(stream.records) == 2, "records %r" % [r["type"] for r in stream.records]
        boot = stream.boot
        assert boot["boot"] == boot_path, "boot path %r" % boot["boot"]
        assert NO_LONG_MODE in boot["error"], "boot error %r" % boot.get("error")
        assert boot["version"], "no version"
        assert stream.end["reason"] == boot["error"], "end reason %r" % stream.end["reason"]
        assert stream.end["failures"] == 1
    return check


def ended_in_step(step, reason):
    """A step that cannot go on ends the run there: the boot record names the step, the end
    record says why, and the bring-up line stops at that step with the reason."""
    def check(result, stream):
        assert stream.boot.get("step") == step, "boot step %r" % stream.boot.get("step")
        assert reason in (stream.end.get("reason") or ""), "end reason %r" % (
            stream.end.get("reason"))
        lines = [l for l in result.log.splitlines() if l.startswith("bring-up: ")]
        assert lines and (step + ": " + reason) in lines[0], "bring-up line %r" % lines
    return check


def serial_fell_back(asked):
    def check(result, stream):
        warns = [w for w in stream.of_type("warn") if w.get("source") == "console"]
        assert len(warns) == 1 and warns[0]["value"] == asked, "console warnings %r" % [
            w.obj for w in warns]
        assert stream.boot["console"]["serial"] == "0x3f8", stream.boot["console"]
    return check


def halted_without_exit(result, stream):
    assert result.exit_status is None, "QEMU left with %r without exit=qemu" % result.exit_status
    assert "halted: the run is over" in result.log, "no halt message"


def tsc_reference(expected, warned):
    def check(result, stream):
        assert stream.boot["tsc_ref"] == expected, "tsc_ref %r" % stream.boot["tsc_ref"]
        assert stream.boot["tsc_hz"] >= 100_000_000, "tsc_hz %r" % stream.boot["tsc_hz"]
        warns = [w for w in stream.of_type("warn") if w.get("source") == "time"
                 and w.get("key") == "tsc"]
        assert len(warns) == (1 if warned else 0), "time warnings %r" % [w.obj for w in warns]
    return check


CASES = [
    # XSAVE and AVX without XSAVEOPT: QEMU's TCG hung on CR4.OSXSAVE before any output.
    Case("bringup/cpu-Opteron_G4", cpu="Opteron_G4", smp=PAIR,
         describe="used to hang silently on the CR4.OSXSAVE write",
         checks=[bring_up_line_complete, avx(False, True)]),
    Case("bringup/cpu-Opteron_G5", cpu="Opteron_G5", smp=PAIR,
         checks=[bring_up_line_complete, avx(False, True)]),
    Case("bringup/cpu-Haswell-without-xsaveopt", cpu="Haswell,-xsaveopt", smp=PAIR,
         describe="the same condition on an Intel model",
         checks=[bring_up_line_complete, avx(False, True)]),
    Case("bringup/cpu-Opteron_G5-with-xsaveopt", cpu="Opteron_G5,+xsaveopt", smp=PAIR,
         describe="with XSAVEOPT the write is safe: AVX on",
         checks=[bring_up_line_complete, avx(True, False)]),
    # 32-bit CPUs: the records come from boot/multiboot.asm, exit=qemu still ends QEMU.
    Case("bringup/cpu-486", cpu="486", verdict="fail",
         checks=[cannot_run("multiboot1"), report_status(1)]),
    Case("bringup/cpu-qemu32", cpu="qemu32", verdict="fail",
         checks=[cannot_run("multiboot1"), report_status(1)]),
    Case("bringup/cpu-486-grub", way="seabios-cd", image="iso", cpu="486", menu_key=b"b",
         verdict="fail", exit_status=None,
         describe="GRUB runs on a 486; its entry has no exit=qemu: the kernel halts",
         checks=[cannot_run("multiboot2"), halted_without_exit]),
    Case("bringup/cpu-without-apic", cpu="qemu64,-apic", verdict="fail",
         describe="no local APIC: the run ends at that step, in records, instead of waiting "
                  "for a tick that never comes",
         checks=[ended_in_step("local APIC", "this CPU has no local APIC")]),
    # A serial= port without a UART: COM1 carries the console, and says so.
    Case("bringup/serial-port-absent", cmdline="exit=qemu serial=com2",
         checks=[bring_up_line_complete, serial_fell_back("0x2f8")]),
    # Timer references: without ACPI (no PM timer) the PIT; without the PIT too, none.
    Case("bringup/no-pm-timer", qemu_args=("-machine", "pc,acpi=off"),
         checks=[bring_up_line_complete, tsc_reference("pit", False)]),
    Case("bringup/no-timer-reference", qemu_args=("-machine", "pc,acpi=off,pit=off"),
         describe="neither the PM timer nor the PIT: bounded waits, an estimate, a warning",
         checks=[bring_up_line_complete, tsc_reference("none", True)]),
]
