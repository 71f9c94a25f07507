"""Booting the kernel in QEMU and capturing its serial console.

Used by tools/qemu-run (`make run`) and by the QEMU test driver (tests/qemu). One function,
boot(), starts QEMU in one of the boot ways below, copies the serial output to a log file as it
arrives, presses Enter when GRUB shows its menu (so no test waits for the menu's timeout), notes
when the end record arrives, and stops QEMU: it either leaves by itself (exit=qemu, through the
isa-debug-exit device: status 1 = pass, 3 = fail) or is stopped once the end record is in, or is
killed at the timeout. Nothing here sleeps to synchronise: every wait is on QEMU's output or exit.

With screendump=FILE, boot() also keeps what the screen shows at the end: once the kernel says it
halted (exit=halt, the default), it asks QEMU through QMP (on a unix socket) for a screendump of
the display, PPM or PNG by FILE's extension, then has QEMU quit. QEMU runs without a window
(-display none); its emulated graphics card still has a screen to dump. With photos=DIR it keeps
a screendump of every page of QR codes the kernel then shows instead (tools/qemu_photos.py).
"""

import contextlib
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import qemu_photos

QEMU = "qemu-system-x86_64"
OVMF_CODE = "/usr/share/OVMF/OVMF_CODE_4M.fd"
OVMF_VARS = "/usr/share/OVMF/OVMF_VARS_4M.fd"

# How the kernel can be started, in words that follow the file booted (booting()). "kernel" uses
# QEMU's own multiboot1 loader (fastest, takes a command line); the others boot an image (the ISO,
# or the native UEFI loader's FAT image) through real firmware.
BOOT_WAYS = {
    "kernel": "through qemu -kernel (multiboot1, SeaBIOS)",
    "seabios-cd": "as a CD-ROM under SeaBIOS (legacy BIOS)",
    "seabios-usb": "written raw to a USB stick (xHCI usb-storage) under SeaBIOS",
    "seabios-disk": "as a plain hard disk under SeaBIOS",
    "ovmf-cd": "as a CD-ROM under OVMF (UEFI)",
    "ovmf-usb": "written raw to a USB stick (xHCI usb-storage) under OVMF (UEFI)",
    "ovmf-disk": "as a plain hard disk under OVMF (UEFI)",
}


def shown_path(path):
    """A path as a person finds it again: relative to the current folder when it is inside it,
    else absolute (not ../../tmp/...)."""
    relative = os.path.relpath(path)
    return os.path.abspath(path) if relative.split(os.sep)[0] == os.pardir else relative


def booting(way, path):
    """What boots and how: 'build/pmu-testkernel.iso as a CD-ROM under OVMF (UEFI)'."""
    return "%s %s" % (shown_path(path), BOOT_WAYS[way])


END_RE = re.compile(rb'@\d+ [0-9a-f]{8} \{"type":"end"')
GRUB_MENU_RE = re.compile(rb"highlighted entry will be executed automatically|"
                          rb"Press enter to boot the selected OS")
# Printed by the kernel after the end record when it halts (exit=halt): nothing more will come.
# The whole line: the kernel's screen has drawn a line before its end reaches the serial port.
HALTED_RE = re.compile(rb"halted: the run is over[^\n]*\n")
QEMU_EXIT_PASS = 1
QEMU_EXIT_FAIL = 3


class BootResult:
    def __init__(self):
        self.log = ""                # the serial console, decoded
        self.exit_status = None      # QEMU's exit status, None when we stopped it
        self.timed_out = False
        self.seconds_to_end = None   # from QEMU start to the end record
        self.seconds = 0.0           # from QEMU start to QEMU gone
        self.command = []
        self.stderr = ""
        self.pressed_enter = False
        self.screendump = None       # the screenshot's path, once QEMU wrote it
        self.screendump_error = None  # why there is none, when one was asked for
        self.photos = None           # qemu_photos.Photos, when photos were asked for
        self.held = False            # QEMU was held as asked (boot's hold)

    def tail(self, lines=40):
        return "\n".join(self.log.splitlines()[-lines:])


def qemu_available():
    return shutil.which(QEMU) is not None


# One core with its two hyperthreads: the machine the experiments need.
PAIR = "2,sockets=1,cores=1,threads=2"


def command(way, path, smp=PAIR, cpu="Haswell", memory="512M",
            cmdline=None, vars_file=None, extra=(), accel="tcg", modules=()):
    """The QEMU command line for one boot way. path is the kernel ELF for "kernel", else the
    image. cmdline is only possible with "kernel" (GRUB's menu decides it otherwise), and so are
    modules: files QEMU's multiboot1 loader loads beside the kernel (-initrd), in order (the
    bundles of tools/pmu-bench)."""
    if way not in BOOT_WAYS:
        raise ValueError("unknown boot way %r (known: %s)" % (way, ", ".join(BOOT_WAYS)))
    if modules and way != "kernel":
        raise ValueError("boot modules can only be given with the kernel boot way")
    for module in modules:
        # -initrd separates modules by commas and a module's path from its string by a space.
        if "," in module or " " in module:
            raise ValueError("a boot module's path may hold no comma and no space: %r" % module)
    args = [QEMU, "-machine", "q35", "-accel", accel, "-cpu", cpu, "-smp", smp, "-m", memory,
            "-display", "none", "-serial", "stdio", "-monitor", "none", "-no-reboot",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    if way == "kernel":
        args += ["-kernel", path]
        if cmdline is not None:
            args += ["-append", cmdline]
        if modules:
            args += ["-initrd", ",".join(modules)]
    elif cmdline is not None:
        raise ValueError("a command line can only be given with the kernel boot way")
    if way.startswith("ovmf"):
        if vars_file is None:
            raise ValueError("OVMF needs a per-run copy of its variable store")
        args += ["-drive", "if=pflash,format=raw,unit=0,readonly=on,file=" + OVMF_CODE,
                 "-drive", "if=pflash,format=raw,unit=1,file=" + vars_file]
    if way.endswith("-cd"):
        args += ["-drive", "file=%s,media=cdrom,readonly=on" % path]
    elif way.endswith("-usb"):
        args += ["-device", "qemu-xhci,id=xhci",
                 "-drive", "if=none,id=stick,format=raw,file=%s,snapshot=on" % path,
                 "-device", "usb-storage,bus=xhci.0,drive=stick,bootindex=0"]
    elif way.endswith("-disk"):
        args += ["-drive", "file=%s,format=raw,if=ide,snapshot=on" % path]
    return args + list(extra)


def boot(way, path, log_path=None, timeout=120, echo=None, menu_key=b"\r", cwd=None,
         screendump=None, photos=None, hold=None, **kwargs):
    """Boot and capture. echo, if given, is called with each chunk of console output (bytes).
    menu_key is what to type when GRUB shows its menu: Enter takes the default entry, an entry's
    hotkey (boot/grub.cfg) takes that entry. cwd is QEMU's working directory (a relative path
    is relative to it). screendump: a file for the screen at the end; photos: a directory for
    the pages of QR codes (see above). hold: (pattern, after, seconds): `after` seconds after the
    console first matches the pattern (bytes), QEMU is stopped (SIGSTOP, every thread) for
    `seconds`, as a busy host holds a virtual machine: its TSC and clocks go on, its CPUs do not
    run."""
    result = BootResult()
    workdir = tempfile.mkdtemp(prefix="pmu-qemu-")
    try:
        vars_file = None
        if way.startswith("ovmf"):
            vars_file = os.path.join(workdir, "OVMF_VARS.fd")
            shutil.copyfile(OVMF_VARS, vars_file)
        qmp = None
        if screendump or photos:
            qmp = os.path.join(workdir, "qmp.sock")
            kwargs["extra"] = list(kwargs.get("extra", ())) + [
                "-qmp", "unix:%s,server=on,wait=off" % qmp]
        cmd = command(way, path, vars_file=vars_file, **kwargs)
        result.command = cmd
        stderr_path = os.path.join(workdir, "stderr")
        with open(stderr_path, "wb") as stderr:
            _run(cmd, result, stderr, timeout, echo, log_path, menu_key, cwd,
                 (qmp, screendump) if screendump else None, (qmp, photos) if photos else None,
                 hold)
        with open(stderr_path, "rb") as f:
            result.stderr = f.read().decode("utf-8", "replace")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return result


def _hold(proc, result, data, hold):
    """Stops QEMU as hold says, the first time the console matches hold's pattern."""
    if hold is None or result.held or not re.search(hold[0], data):
        return
    pattern, after, seconds = hold
    result.held = True
    # Both sleeps are the host's own timing, as the case sets it, not waits for the guest.
    time.sleep(after)
    os.killpg(proc.pid, signal.SIGSTOP)
    try:
        time.sleep(seconds)
    finally:
        os.killpg(proc.pid, signal.SIGCONT)


def _run(cmd, result, stderr, timeout, echo, log_path, menu_key, cwd, screendump, photos=None,
         hold=None):
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                            start_new_session=True, cwd=cwd)
    log = open(log_path, "wb") if log_path else None
    data = bytearray()
    end_seen_at = None
    try:
        fd = proc.stdout.fileno()
        while True:
            now = time.monotonic()
            if now - start > timeout:
                result.timed_out = True
                break
            # After the end record, give QEMU a moment to leave through isa-debug-exit (the
            # kernel writes the port right after the record); then stop it ourselves.
            if end_seen_at is not None and (now - end_seen_at > 3 or HALTED_RE.search(data)):
                break
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break  # QEMU closed the console: it has exited
                data += chunk
                if log:
                    log.write(chunk)
                    log.flush()
                if echo:
                    echo(chunk)
                _hold(proc, result, data, hold)
                if not result.pressed_enter and GRUB_MENU_RE.search(data):
                    # Skip GRUB's countdown: take the entry now.
                    proc.stdin.write(menu_key)
                    proc.stdin.flush()
                    result.pressed_enter = True
                if end_seen_at is None and END_RE.search(data):
                    end_seen_at = time.monotonic()
                    result.seconds_to_end = end_seen_at - start
            elif proc.poll() is not None:
                break
        if photos and HALTED_RE.search(data) and not result.timed_out:
            _take_photos(proc, result, data, log, echo, start + timeout, *photos)
    finally:
        if screendump:
            _take_screendump(proc, result, bool(HALTED_RE.search(data)), *screendump)
        if proc.poll() is None and not result.timed_out and not HALTED_RE.search(data):
            # The console closed or the end record is in: QEMU may be leaving by itself.
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
        if proc.poll() is None:
            _stop(proc)
        else:
            result.exit_status = proc.returncode
        # Whatever QEMU printed while stopping.
        try:
            rest = proc.stdout.read()
            if rest:
                data += rest
                if log:
                    log.write(rest)
        except (OSError, ValueError):
            pass
        if log:
            log.close()
        result.seconds = time.monotonic() - start
    result.log = data.decode("utf-8", "replace")


def _take_screendump(proc, result, halted, socket_path, path):
    """The screen into path through QMP, then QEMU quits; only once the kernel has halted, so
    that the screen is final."""
    if not halted:
        result.screendump_error = ("no screenshot: the kernel did not halt (exit=qemu, or a "
                                   "timeout) before QEMU %s" % (
                                       "left" if proc.poll() is not None else "was stopped"))
        return
    if proc.poll() is not None:
        result.screendump_error = "no screenshot: QEMU left after the kernel halted"
        return
    try:
        if os.path.exists(path):
            os.unlink(path)
        with _qmp_session(socket_path, 10) as channel:
            _qmp(channel, "screendump", filename=os.path.abspath(path),
                 format="png" if path.endswith(".png") else "ppm")
            result.screendump = path
            _qmp(channel, "quit")
    except (OSError, ValueError, RuntimeError) as e:
        result.screendump_error = "no screenshot: QMP: %s: %s" % (type(e).__name__, e)


def _take_photos(proc, result, data, log, echo, deadline, socket_path, directory):
    """Every page of QR codes the halted kernel shows, into directory (tools/qemu_photos.py)."""
    fd = proc.stdout.fileno()

    def read_more(seconds):
        waited = False
        while True:
            ready, _, _ = select.select([fd], [], [], 0 if waited else seconds)
            waited = True
            if not ready:
                return proc.poll() is None
            chunk = os.read(fd, 65536)
            if not chunk:
                return False
            data.extend(chunk)
            if log:
                log.write(chunk)
                log.flush()
            if echo:
                echo(chunk)

    try:
        with _qmp_session(socket_path, 30) as channel:
            def screendump(path):
                _qmp(channel, "screendump", filename=os.path.abspath(path), format="png")

            result.photos = qemu_photos.capture(read_more, data, screendump, directory,
                                                deadline)
    except (OSError, ValueError, RuntimeError) as e:
        result.photos = qemu_photos.Photos()
        result.photos.error = "QMP: %s: %s" % (type(e).__name__, e)


@contextlib.contextmanager
def _qmp_session(socket_path, timeout):
    """A QMP channel on QEMU's socket, past the greeting and in command mode (QMP's
    capabilities negotiation); closed on leaving."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(socket_path)
        with sock.makefile("rw", encoding="utf-8") as channel:
            channel.readline()  # the greeting
            _qmp(channel, "qmp_capabilities")
            yield channel


def _qmp(channel, command_name, **arguments):
    """One QMP command; its answer (events that arrive meanwhile are skipped)."""
    request = {"execute": command_name}
    if arguments:
        request["arguments"] = arguments
    channel.write(json.dumps(request) + "\n")
    channel.flush()
    while True:
        line = channel.readline()
        if not line:
            if command_name == "quit":
                return {}
            raise RuntimeError("QEMU closed QMP during %s" % command_name)
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError("%s: %s" % (command_name, answer["error"].get("desc")))
        if "return" in answer:
            return answer["return"]


def _stop(proc):
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
