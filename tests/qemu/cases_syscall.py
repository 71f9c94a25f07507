"""System calls (kernel/syscall.c): ring 3 enters the kernel with SYSCALL and leaves with SYSRET,
and a SYSCALL that a hypervisor leaves at CPL 3 (this machine's KVM does) still completes, through
the page fault it raises at the entry, said once in a warn record."""

from qemu_boot import PAIR
from tests.qemu.driver import Case


def syscall_warnings(stream):
    return [w for w in stream.of_type("warn") if w.get("source") == "syscall"]


def sysret_path(result, stream):
    """Both threads ran ring-3 code and came back through SYSCALL itself: no fallback warned."""
    sibling = stream.first("sibling")
    assert sibling is not None and all(r["ok"] for r in sibling["results"]), sibling
    assert len(sibling["results"]) == 2, "one thread only: %r" % sibling.obj
    assert not syscall_warnings(stream), "SYSCALL fell back: %r" % syscall_warnings(stream)


def left_at_cpl3_completed(result, stream):
    """The imitated calls completed on both threads (else the verdict fails, with the #PF), and
    the fallback said so exactly once."""
    warns = syscall_warnings(stream)
    assert len(warns) == 1, "%d syscall warnings, expected 1" % len(warns)
    w = warns[0]
    assert (w["key"], w["value"], w["used"]) == ("syscall", "CPL 3", "page fault"), w.obj
    assert "completed on every thread" in result.log, "the selftest did not say it completed"


CASES = [
    Case("syscall/sysret", smp=PAIR,
         describe="the boot checks' ring-3 code on both threads makes its system calls with "
                  "SYSCALL and returns with SYSRET",
         checks=[sysret_path]),
    Case("syscall/left-at-cpl3", smp=PAIR, cmdline="exit=qemu selftest=syscall-cpl3",
         describe="ring 3 jumps to the entry as a SYSCALL left at CPL 3 does: an unknown call "
                  "comes back with -1 and SYS_EXIT carries the result, on both threads",
         checks=[left_at_cpl3_completed]),
]
