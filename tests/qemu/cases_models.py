"""Every x86 CPU model this QEMU offers (issue 13: right verdicts on every CPU). Each model QEMU
lists (`qemu-system-x86_64 -cpu help`, taken when the suite starts, so a newer QEMU's models are
covered too) boots the whole experiment suite briefly on two threads of one core: a 64-bit model
ends with every verdict pass or a skip with its reason (no erratum, too little data), never a
fail of a healthy machine; a model without long mode ends with the two records that say so.
Version aliases (-v1, -IBRS, -noTSX, ...) of a model boot the checks only: the suite's verdicts
depend on the family and model, which the aliases share."""

import re
import subprocess

from qemu_boot import PAIR, QEMU
from tests.qemu.cases_bringup import NO_LONG_MODE
from tests.qemu.cases_experiments import judged_honestly
from tests.qemu.driver import Case

# The same model under another name, or with a feature more or less: "-v2", "-IBRS", "-noTSX".
VARIANT = re.compile(r"-(v\d+|IBRS|noTSX|noTSX-IBRS|IBPB)$")


def qemu_models():
    """The models of `-cpu help`, but host (KVM only)."""
    try:
        out = subprocess.run([QEMU, "-cpu", "help"], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    models = [line.split()[1] for line in out.splitlines() if line.startswith("x86 ")]
    return [m for m in models if m != "host"]


def ends_sensibly(result, stream):
    """A CPU that can run the kernel ends with verdicts pass or skip; one that cannot (no long
    mode) says so in exactly a boot and an end record."""
    if NO_LONG_MODE in (stream.boot.get("error") or ""):
        assert len(stream.records) == 2 and stream.end["verdict"] == "fail", \
            [r.obj for r in stream.records]
        return
    assert stream.end["verdict"] == "pass", "end %r" % stream.end.obj
    judged_honestly(result, stream)


def case(model):
    full = not VARIANT.search(model)
    return Case("models/%s" % model, smp=PAIR, cpu=model, experiments=full,
                cmdline="exit=qemu dur_ms=60" if full else "exit=qemu",
                verdict=None, exit_status=None, timeout=240,
                describe="QEMU's %s: %s" % (model, "the whole suite" if full else "the checks"),
                checks=[ends_sensibly])


CASES = [case(m) for m in qemu_models()]
