"""The native UEFI loader (issue 7): OVMF boots BOOTX64.EFI from the FAT image on an xHCI USB
stick and on a plain disk, GRUB chainloads it from the ISO, and the command line reaches the
kernel from cmdline.txt and from the load options, bad values included.

Variants of the FAT image with a cmdline.txt of the test's own are made at test time in
$BUILD/test-images (tools/efi_image.py), never committed.
"""

import os
import shutil

import efi_image
from tests.qemu.cases import config_is, warns_about
from qemu_boot import PAIR
from tests.qemu.driver import Case

LOADER = "pmu-testkernel UEFI loader (GNU-EFI)"

# ---- checks -------------------------------------------------------------------------------------

def uefi_boot(cmdline):
    """The boot record of a kernel started by our loader, with what the loader must hand over."""
    def check(result, stream):
        boot = stream.boot
        assert boot["boot"] == "uefi", "boot path %r, expected uefi" % boot["boot"]
        assert boot["uefi"] is True, "uefi %r" % boot["uefi"]
        assert boot["loader"] == LOADER, "loader %r, expected %r" % (boot["loader"], LOADER)
        assert boot["cmdline"] == cmdline, "cmdline %r, expected %r" % (boot["cmdline"], cmdline)
        assert boot["acpi_source"] == "uefi", "acpi_source %r" % boot["acpi_source"]
        assert boot["acpi_rsdp"] is not None, "no RSDP from the configuration table"
        rsdp = int(boot["acpi_rsdp"], 16)
        assert 0 < rsdp < 1 << 32, "RSDP at %#x" % rsdp
        # 512 MiB guest: OVMF keeps a few MiB (runtime services, ACPI NVS); the map was merged,
        # not passed on descriptor by descriptor.
        assert 480 <= boot["mem_mib"] < 512, "mem_mib %r for a 512 MiB guest" % boot["mem_mib"]
        assert 3 <= boot["memory_regions"] <= 64, "%r memory regions" % boot["memory_regions"]
        assert boot["console"]["vga"] is False, "no VGA text mode exists under UEFI"
        both_threads_started(result, stream)
    return check


def both_threads_started(result, stream):
    """-smp 2,sockets=1,cores=1,threads=2: the core's two threads, the AP started."""
    boot = stream.boot
    assert boot.get("cpus") == 2, "cpus %r, expected 2" % boot.get("cpus")
    assert boot.get("threads") == [0, 1], "threads %r, expected [0, 1]" % boot.get("threads")
    assert boot.get("smt") is True, "smt %r" % boot.get("smt")
    aps = stream.of_type("cpu")
    assert [c["apic"] for c in aps] == [1], "APs %r, expected APIC 1" % [c.obj for c in aps]
    assert aps[0]["started"], "the sibling (APIC 1) did not start"


def no_handoff_warning(result, stream):
    """The loader's hand-off (boot_info, memory map, RSDP) gave the kernel nothing to warn about."""
    handoff = [w.obj for w in stream.of_type("warn") if w["key"] == "boot"]
    assert not handoff, "the kernel warns about the hand-off: %r" % handoff


def loader_said(*lines):
    """The loader's own lines on the firmware console (mirrored to the serial port by OVMF)."""
    def check(result, stream):
        for line in lines:
            assert line in result.log, "the loader did not print %r" % line
    return check


def loader_ran_once(result, stream):
    count = result.log.count("pmu-testkernel UEFI loader: starting")
    assert count == 1, "the loader started %d times" % count
    assert "UEFI loader: not started" not in result.log, "the loader gave up at least once"


# ---- image variants -----------------------------------------------------------------------------

def efi_image_with_cmdline(name, text):
    """A copy of the FAT image whose \\EFI\\BOOT\\cmdline.txt holds text (bytes)."""
    def make(build):
        base = os.path.join(build, "pmu-testkernel-efi.img")
        if not os.path.exists(base):
            return base  # the driver reports it missing
        directory = os.path.join(build, "test-images")
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, "efi-%s.img" % name)
        shutil.copyfile(base, path)
        efi_image.add_data(path, "/EFI/BOOT/cmdline.txt", text)
        return path
    return make


# ---- the cases ----------------------------------------------------------------------------------

# exit=qemu is on no command line the loader gets from the shipped image or the ISO's menu; the
# driver stops QEMU when the kernel says it halted.
CASES = [
    # Without exp=none the kernel runs its whole suite: those cases run alone.
    Case("uefi/efi-usb", way="ovmf-usb", image="efi", smp=PAIR, timeout=240, exclusive=True,
         describe="FAT image on an xHCI USB stick, OVMF; the shipped cmdline.txt is comments only",
         checks=[uefi_boot(""), warns_about(), no_handoff_warning, loader_ran_once,
                 loader_said("command line (cmdline.txt): (empty)")]),
    Case("uefi/efi-disk", way="ovmf-disk", smp=PAIR, timeout=120,
         image=efi_image_with_cmdline("disk", b"exp=none\n"),
         describe="FAT image as a plain (SATA) disk, OVMF",
         checks=[uefi_boot("exp=none"), warns_about(), no_handoff_warning, loader_ran_once]),
    Case("uefi/grub-chainload", way="ovmf-usb", image="iso", smp=PAIR, timeout=240,
         exclusive=True,
         menu_key=b"u",
         describe="the ISO's GRUB menu entry (hotkey u) chainloads the native loader",
         checks=[uefi_boot("exp=all xsu=both"), warns_about(), no_handoff_warning, loader_ran_once,
                 loader_said("command line (load options): exp=all xsu=both")]),
    Case("uefi/load-options-bad-values", way="ovmf-usb", image="iso", smp=PAIR, timeout=120,
         # GRUB's command line ('c'), typed in as GRUB shows its menu: the arguments of
         # chainloader become the loader's load options (UCS-2).
         menu_key=b"cchainloader /boot/pmu-testkernel.efi exit=qemu xsu=maybe sched=fast "
                  b"exp=none\rboot\r",
         exit_status=1,
         describe="bad values in the load options: warn records, defaults kept, run completes",
         checks=[uefi_boot("exit=qemu xsu=maybe sched=fast exp=none"), loader_ran_once,
                 warns_about(("xsu", "maybe"), ("sched", "fast")), no_handoff_warning,
                 config_is(xsu="off,on", sched="greedy", exit="qemu")]),
    Case("uefi/cmdline-txt-bad-values", way="ovmf-usb", smp=PAIR, timeout=120, exit_status=1,
         image=efi_image_with_cmdline(
             "bad-values", b"# written on Windows\r\nexit=qemu xsu=maybe\r\n"
                           b"sched=fast mux_ms=0   # two more\r\nexp=none\r\n"),
         describe="cmdline.txt with bad values: warn records, defaults kept, run completes",
         checks=[uefi_boot("exit=qemu xsu=maybe sched=fast mux_ms=0 exp=none"), loader_ran_once,
                 warns_about(("xsu", "maybe"), ("sched", "fast"), ("mux_ms", "0")),
                 no_handoff_warning,
                 config_is(xsu="off,on", sched="greedy", mux_ms=1, exit="qemu")]),
    Case("uefi/cmdline-txt-good-values", way="ovmf-disk", smp=PAIR, timeout=120, exit_status=1,
         image=efi_image_with_cmdline(
             "good-values", b"\xef\xbb\xbfexit=qemu\nxsu=off sched=hk\n# mux_ms=9\npmu=model\n"
                            b"exp=ch7-three-events"),
         describe="cmdline.txt (UTF-8 with a byte-order mark) sets the configuration",
         checks=[uefi_boot("exit=qemu xsu=off sched=hk pmu=model exp=ch7-three-events"),
                 warns_about(), no_handoff_warning,
                 loader_ran_once, config_is(xsu="off", sched="hk", pmu="model", mux_ms=1)]),
]
