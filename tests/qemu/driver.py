"""The QEMU test driver: boots one case and checks its record stream.

Every case gets the same base checks (tools/pmu_records.py): every `@` line parses, sequence
numbers have no gap, every CRC matches, the first record is `boot`, the last is `end` with the
expected verdict, and with exit=qemu the exit status agrees (1 pass, 3 fail). A case adds its own
checks on top; a check that returns a string (what it measured) has it shown on the PASS line. A
case that needs something of the host (`requires`) is skipped with the reason, unbooted, where it
is missing. QEMU is killed at the case's timeout and the failure shows the tail of the log.

A boot that fails where the kernel itself measured that its host did not run it evenly (see
host_disturbance) is booted again, twice at most: QEMU under TCG runs each virtual CPU as a host
thread, and a busy host holds one for whole time slices, which no guest can measure through. The
PASS line names each boot that was disturbed and how; a case that fails on every boot fails with
all of them. A failure without such evidence is never retried.
"""

import os
import shutil
import time

import pmu_records
import qemu_boot
from tests import thresholds

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"

DISTURBED_BOOTS = 3  # boots of a case at most, when all but the last were disturbed
# The kernel's own limits on a run its host disturbed, the tightest of each, read from its table of
# thresholds (tests/experiments/thresholds.c): past them its verdicts are skipped or judged loosely,
# decided by the host.
_THRESHOLDS = thresholds.table()
UNEVEN_PACE_PCT = _THRESHOLDS["TH_CORE_PACE"].percent()     # the core truth's pace
LOST_TICKS_PCT = _THRESHOLDS["TH_CORE_LOST_TICKS"].percent()  # the core schedule's fairness
MIN_OVERLAP_PCT = _THRESHOLDS["TH_OVERLAP"].percent()       # the siblings side by side


class Skip(Exception):
    """Raised by a check that cannot apply here (e.g. it needs a real PMU)."""


class Case:
    def __init__(self, name, way="kernel", image="kernel", cmdline="exit=qemu", smp="1",
                 cpu="Haswell", memory="512M", timeout=60, verdict="pass", exit_status="auto",
                 checks=(), exclusive=False, menu_key=b"\r", describe="", experiments=False,
                 accel="tcg", qemu_args=(), cwd=None, screendump=False, photos=False,
                 requires=None, hold=None):
        self.name = name
        self.way = way
        # "kernel" (the ELF), "iso", "efi" (the FAT image), or a function (build dir) -> path that
        # prepares an image of its own for the case (a variant of one of these).
        self.image = image
        self.cmdline = cmdline if way == "kernel" else None
        # Cases about something else skip the experiment suite (exp=none, appended last so that
        # it wins over any exp= the case passes on purpose, and a bad one still warns).
        if self.cmdline is not None and not experiments:
            self.cmdline += " exp=none"
        self.accel = accel            # "tcg", or "kvm" where the host offers it
        self.smp = smp
        self.cpu = cpu
        self.memory = memory
        self.timeout = timeout
        self.verdict = verdict        # expected verdict of the end record; None: the checks say
        # Expected QEMU exit status: by default derived from the verdict when exit=qemu is on the
        # command line; None to not check it.
        if exit_status == "auto":
            exit_status = None
            if self.cmdline is not None and "exit=qemu" in self.cmdline.split():
                exit_status = qemu_boot.QEMU_EXIT_PASS if verdict == "pass" else \
                    qemu_boot.QEMU_EXIT_FAIL
        self.exit_status = exit_status
        self.checks = checks
        self.exclusive = exclusive    # runs alone: it measures time
        self.menu_key = menu_key
        self.describe = describe
        self.qemu_args = tuple(qemu_args)  # more QEMU options ("-machine", "pc,pit=off")
        self.cwd = cwd                     # QEMU's working directory: a function (build) -> dir
        # Keep the screen at the end (exit=halt) in $BUILD/test-logs/<name>.ppm for the checks
        # (result.screendump).
        self.screendump = screendump
        # Keep every page of QR codes the halted kernel shows in $BUILD/test-logs/<name>-photos/
        # (result.photos, tools/qemu_photos.py).
        self.photos = photos
        # What the case needs of the host, asked before it boots: a function (build) -> None when
        # the case can run here, or the reason to skip it (no /dev/kvm, ...).
        self.requires = requires
        # (pattern, after, seconds): QEMU is stopped for `seconds`, `after` seconds from when its
        # console first shows the pattern (bytes), as a busy host holds a virtual machine
        # (qemu_boot.boot's hold).
        self.hold = hold


def image_path(case, build):
    if callable(case.image):
        return case.image(build)
    return {
        "kernel": os.path.join(build, "pmu-testkernel.elf"),
        "iso": os.path.join(build, "pmu-testkernel.iso"),
        "efi": os.path.join(build, "pmu-testkernel-efi.img"),
    }[case.image]


def missing_tools():
    if not qemu_boot.qemu_available():
        return "qemu-system-x86_64 is not installed (make test installs it: tools/deps.sh)"
    return None


def run_case(case, build):
    from tests.run import Outcome  # the runner's outcome type

    name = "qemu/" + case.name
    missing = case.requires(build) if case.requires else None
    if missing:
        return Outcome(name, SKIP, 0, missing)
    try:
        path = image_path(case, build)
    except Exception as e:  # a case's own image could not be made: that case fails, not the run
        return Outcome(name, FAIL, 0, "cannot prepare the image: %s: %s" % (type(e).__name__, e))
    cwd = case.cwd(build) if case.cwd else None
    if not os.path.exists(os.path.join(cwd or "", path)):
        return Outcome(name, FAIL, 0, "%s does not exist (run make image)" % path)
    log_dir = os.path.join(build, "test-logs")
    os.makedirs(log_dir, exist_ok=True)
    log_path = os.path.join(log_dir, case.name.replace("/", "-") + ".log")
    disturbed, seconds = [], 0.0
    for boot in range(1, DISTURBED_BOOTS + 1):
        outcome, stream = boot_once(case, build, name, path, cwd, log_path)
        seconds += outcome.seconds
        why = host_disturbance(stream) if outcome.status == FAIL else None
        if why is None or boot == DISTURBED_BOOTS:
            break
        disturbed.append("boot %d: %s" % (boot, why))
    outcome.seconds = seconds
    if disturbed:
        said = "; ".join(disturbed) + ", so booted again"
        if outcome.status == FAIL:
            outcome.detail = said + "\n" + outcome.detail
        else:
            outcome.figures = "; ".join(f for f in (outcome.figures, said) if f)
    return outcome


def boot_once(case, build, name, path, cwd, log_path):
    """One boot of the case and its checks: (the outcome, the record stream)."""
    from tests.run import Outcome  # the runner's outcome type

    start = time.monotonic()
    screendump = os.path.splitext(log_path)[0] + ".ppm" if case.screendump else None
    photos = os.path.splitext(log_path)[0] + "-photos" if case.photos else None
    if photos:
        shutil.rmtree(photos, ignore_errors=True)  # no page of an earlier run
    result = qemu_boot.boot(case.way, path, log_path=log_path, timeout=case.timeout,
                            smp=case.smp, cpu=case.cpu, memory=case.memory, accel=case.accel,
                            cmdline=case.cmdline, menu_key=case.menu_key,
                            extra=case.qemu_args, cwd=cwd, screendump=screendump,
                            photos=photos, hold=case.hold)
    elapsed = time.monotonic() - start
    stream = pmu_records.parse(result.log)
    figures = []
    try:
        base_checks(case, result, stream)
        for check in case.checks:
            said = check(result, stream)
            if isinstance(said, str):
                figures.append(said)  # what the check measured, shown on the PASS line
    except Skip as e:
        return Outcome(name, SKIP, elapsed, str(e)), stream
    except AssertionError as e:
        return Outcome(name, FAIL, elapsed, failure_detail(case, str(e), result, log_path)), stream
    note = ""
    if result.seconds_to_end is not None:
        note = "end record after %.1f s" % result.seconds_to_end
    outcome = Outcome(name, PASS, elapsed, note)
    outcome.figures = "; ".join(figures)
    return outcome, stream


def host_disturbance(stream):
    """What the kernel measured of its host not running it evenly, in words, or None: in a run
    (exp_end), a thread whose own work, sampled as its multiplexed counts were, came more than
    UNEVEN_PACE_PCT off (pace_pct), a thread that lost more than LOST_TICKS_PCT of its ticks, or
    siblings that counted side by side less than MIN_OVERLAP_PCT of the time; or a tick check a
    thread was held through (tick.held_us)."""
    for end in stream.of_type("exp_end"):
        run = "in %s, XSU %s" % (end.get("exp"), end.get("xsu"))
        for thread, pace in enumerate(end.get("pace_pct") or ()):
            if pace > UNEVEN_PACE_PCT:
                return "HT%d worked at a pace %.1f%% uneven %s" % (thread, pace, run)
        for thread, (took, lost) in enumerate(zip(end.get("ticks") or (),
                                                  end.get("ticks_lost") or ())):
            if lost * 100 > (took + lost) * LOST_TICKS_PCT:
                return "HT%d lost %d of its %d ticks %s" % (thread, lost, took + lost, run)
        overlap = end.get("overlap_pct")
        if overlap is not None and overlap < MIN_OVERLAP_PCT:
            return "the siblings counted side by side %.0f%% of the time %s" % (overlap, run)
    tick = stream.first("tick")
    if tick and tick.get("held_us"):
        interval_us = tick["interval_ns"] // 1000
        held = max(tick["held_us"])
        if held * 2 >= interval_us:
            return "a thread was held %d ms of the %d ms tick check" % (
                held // 1000, interval_us // 1000)
    return None


def base_checks(case, result, stream):
    if result.timed_out:
        raise AssertionError("timed out after %d s without an end record" % case.timeout)
    problems = [str(p) for p in stream.problems]
    if problems:
        raise AssertionError("record stream problems:\n  " + "\n  ".join(problems))
    # (A missing boot first or end last is one of the stream's problems, pmu_records.py.)
    verdict = stream.end.get("verdict")
    if case.verdict is None:
        # The case's own checks judge the verdict; QEMU's exit status must still agree with it.
        if case.cmdline is not None and "exit=qemu" in case.cmdline.split():
            expected = qemu_boot.QEMU_EXIT_PASS if verdict == "pass" else \
                qemu_boot.QEMU_EXIT_FAIL
            if result.exit_status != expected:
                raise AssertionError("QEMU exit status %r for end verdict %r"
                                     % (result.exit_status, verdict))
        return
    if verdict != case.verdict:
        failed = ["  %s XSU %s: %s" % (v.get("exp"), v.get("xsu"), v.get("reason"))
                  for v in stream.of_type("verdict") if v.get("result") == "fail"]
        raise AssertionError("end verdict %r, expected %r (reason: %r)%s"
                             % (verdict, case.verdict, stream.end.get("reason"),
                                "".join("\n" + f for f in failed)))
    if case.exit_status is not None and result.exit_status != case.exit_status:
        raise AssertionError("QEMU exit status %r, expected %r"
                             % (result.exit_status, case.exit_status))


def failure_detail(case, message, result, log_path):
    if case.describe:
        message = "%s\n(the case: %s)" % (message, case.describe)
    return "%s\ncommand: %s\nlog: %s\n--- last lines of the console:\n%s\n--- QEMU stderr:\n%s" % (
        message, " ".join(result.command), log_path, result.tail(40),
        "\n".join(l for l in result.stderr.splitlines()
                  if "TCG doesn't support" not in l)[-1500:])
