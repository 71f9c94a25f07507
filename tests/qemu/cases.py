"""The QEMU boot matrix: every case boots the kernel one way and checks what it says.

Each check is a function (result, stream) that raises AssertionError with a message saying what
was expected; see tests/qemu/driver.py for the checks every case gets. Topics with many cases keep
them in tests/qemu/cases_<topic>.py, each defining CASES; they are collected at the end.
"""

import glob
import importlib
import os

from qemu_boot import PAIR
from tests.qemu.driver import Case


# ---- checks -------------------------------------------------------------------------------------

def boot_record_complete(expected_path):
    """The boot record's contract keys (issue 2) with plausible values."""
    def check(result, stream):
        boot = stream.boot
        for key in ("boot", "cmdline", "mem_mib", "acpi_rsdp", "cpu"):
            assert key in boot.obj, "boot record lacks %r" % key
        assert boot["boot"] == expected_path, "boot path %r, expected %r" % (
            boot["boot"], expected_path)
        assert boot["mem_mib"] >= 400, "mem_mib %r for a 512 MiB guest" % boot["mem_mib"]
        cpu = boot["cpu"]
        for key in ("vendor", "family", "model", "stepping", "brand"):
            assert key in cpu, "boot record's cpu lacks %r" % key
        assert boot["acpi_rsdp"] is not None, "QEMU always has ACPI tables; none found"
        int(boot["acpi_rsdp"], 16)
    return check


def cpu_is(vendor, family, model, stepping):
    def check(result, stream):
        cpu = stream.boot["cpu"]
        got = (cpu["vendor"], cpu["family"], cpu["model"], cpu["stepping"])
        assert got == (vendor, family, model, stepping), "CPU %r, expected %r" % (
            got, (vendor, family, model, stepping))
    return check


def loader_is_grub(result, stream):
    loader = stream.boot.get("loader") or ""
    assert loader.startswith("GRUB"), "loader %r, expected GRUB" % loader


def uefi_is(expected):
    def check(result, stream):
        assert stream.boot["uefi"] is expected, "uefi %r, expected %r" % (
            stream.boot["uefi"], expected)
    return check


def warns_about(*expected):
    """One command-line warn record per (key, value), naming the accepted values, and no other
    command-line warning (a record without a source is a command-line one, docs/records.md).
    Warnings from elsewhere, such as ticks lost on a busy host, are not this check's business."""
    def check(result, stream):
        warns = [w for w in stream.of_type("warn") if w.get("source", "cmdline") == "cmdline"]
        got = [(w["key"], w["value"]) for w in warns]
        assert got == list(expected), "warn records %r, expected %r" % (got, list(expected))
        for w in warns:
            assert w["accepted"], "warn record for %s has no accepted values" % w["key"]
            assert w["message"], "warn record for %s has no message" % w["key"]
    return check


def config_is(**expected):
    """The values in force after parsing (defaults where a value was rejected)."""
    def check(result, stream):
        config = stream.boot["config"]
        for key, value in expected.items():
            assert config.get(key) == value, "config %s=%r, expected %r" % (
                key, config.get(key), value)
    return check


def exception_reported(vector, name_prefix):
    def check(result, stream):
        exceptions = stream.of_type("exception")
        assert len(exceptions) == 1, "%d exception records, expected 1" % len(exceptions)
        e = exceptions[0]
        assert e["vector"] == vector, "vector %r, expected %r" % (e["vector"], vector)
        assert e["name"].startswith(name_prefix), "exception name %r" % e["name"]
        for key in ("error_code", "rip", "cr2", "registers", "cpu", "cpl", "description"):
            assert key in e.obj, "exception record lacks %r" % key
        assert stream.records[-2] is e, "the exception is not the record before end"
        reason = stream.end.get("reason") or ""
        assert name_prefix in reason, "end reason %r does not name the exception" % reason
    return check


def page_fault_address(address):
    def check(result, stream):
        e = stream.of_type("exception")[0]
        assert int(e["cr2"], 16) == address, "CR2 %s, expected 0x%x" % (e["cr2"], address)
        assert e["error_code"] & 2, "a write fault should have W/R set"
    return check


def reset_happened(result, stream):
    """exit=reboot: the kernel resets the machine, and QEMU (-no-reboot) leaves on the reset with
    status 0 instead of starting again."""
    assert "rebooting" in result.log, "the kernel did not say it reboots"
    assert "reset did not happen" not in result.log, "no reset way worked"
    assert result.exit_status == 0, "QEMU exit status %r, expected 0 (left on the reset)" % (
        result.exit_status)


# ---- the cases ----------------------------------------------------------------------------------

ISO_BOOTS = [
    # (way, uefi)
    ("seabios-cd", False),
    ("seabios-usb", False),
    ("ovmf-cd", True),
    ("ovmf-usb", True),
]

CASES = [
    Case("boot/kernel", describe="qemu -kernel: multiboot1, exit through isa-debug-exit",
         checks=[boot_record_complete("multiboot1"), cpu_is("GenuineIntel", 6, 0x3c, 4),
                 warns_about(), config_is(exit="qemu", xsu="off,on,core", sched="greedy")]),
] + [
    Case("boot/iso-%s" % way, way=way, image="iso", smp=PAIR,
         timeout=120, menu_key=b"b",
         describe="the USB/ISO image through GRUB, its boot-check entry (hotkey b)",
         checks=[boot_record_complete("multiboot2"), loader_is_grub, uefi_is(uefi),
                 warns_about(), config_is(exp="none")])
    for way, uefi in ISO_BOOTS
] + [
    Case("cmdline/bad-values",
         cmdline="exit=qemu xsu=maybe sched=fast mux_ms=0 pmu=hw2 foo=1 loose exp=Non/sense",
         describe="bad command-line values: warn records, defaults kept, run completes",
         checks=[warns_about(("xsu", "maybe"), ("sched", "fast"), ("mux_ms", "0"),
                             ("pmu", "hw2"), ("foo", "1"), ("loose", ""),
                             ("exp", "Non/sense")),
                 config_is(xsu="off,on,core", sched="greedy", mux_ms=1, pmu="auto")]),
    Case("cmdline/good-values", cmdline="exit=qemu xsu=off sched=hk mux_ms=4 pmu=model",
         checks=[warns_about(), config_is(xsu="off", sched="hk", mux_ms=4, pmu="model")]),
    Case("exit/reboot", cmdline="exit=reboot", exit_status=None,
         describe="exit=reboot resets through the FADT's reset register (0xCF9 on q35)",
         checks=[reset_happened]),
    Case("exception/page-fault", cmdline="exit=qemu selftest=fault", verdict="fail",
         describe="an exception ends the run: exception record, end record, QEMU exits",
         checks=[exception_reported(14, "#PF"), page_fault_address(0x200000000)]),
    Case("exception/invalid-opcode", cmdline="exit=qemu selftest=ud", verdict="fail",
         checks=[exception_reported(6, "#UD")]),
    Case("exception/general-protection", cmdline="exit=qemu selftest=gp", verdict="fail",
         checks=[exception_reported(13, "#GP")]),
    Case("exception/divide-error", cmdline="exit=qemu selftest=de", verdict="fail",
         checks=[exception_reported(0, "#DE")]),
    Case("exception/stack-overflow", cmdline="exit=qemu selftest=stack", verdict="fail",
         describe="stack overflow into the guard page: a double fault on its own stack",
         checks=[exception_reported(8, "#DF")]),
]


# The other case files (tests/qemu/cases_<topic>.py).
for _path in sorted(glob.glob(os.path.join(os.path.dirname(__file__), "cases_*.py"))):
    _module = importlib.import_module("tests.qemu." + os.path.basename(_path)[:-3])
    CASES += _module.CASES
