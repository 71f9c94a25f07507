"""Records stay valid whatever the input (issue 13): a command line with bytes outside ASCII, one
longer than the kernel keeps, QEMU's bare image file name, and one way of naming a CPU in the
exception record and the end reason."""

import os
import re
import subprocess
import tempfile

from tests.qemu.driver import Case

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def report_status(expected):
    """tools/pmu-report reads the log with this exit status (0 pass, 1 intact but failed, 3
    damaged): what a user of the log gets."""
    def check(result, stream):
        with tempfile.TemporaryDirectory(prefix="pmu-report-") as tmp:
            log = os.path.join(tmp, "serial.log")
            with open(log, "w", encoding="utf-8") as f:
                f.write(result.log)
            proc = subprocess.run([os.path.join(TOP, "tools", "pmu-report"), "--quiet",
                                   "--json", "--out", os.path.join(tmp, "out"), log],
                                  capture_output=True, text=True, timeout=60)
        assert proc.returncode == expected, "pmu-report exit status %d, expected %d:\n%s" % (
            proc.returncode, expected, proc.stdout[-1500:] + proc.stderr[-500:])
    return check


def records_ascii(result, stream):
    """Every record line is printable ASCII, so its CRC holds however the log is decoded."""
    for line in result.log.splitlines():
        m = re.search(r"@\d+ [0-9a-f]{8} \{.*", line)
        if m:
            bad = [c for c in m.group(0).rstrip("\r") if not " " <= c <= "~"]
            assert not bad, "record with non-ASCII characters %r: %s" % (bad, line[:120])


def warn_record(source, key):
    def find(stream):
        warns = [w for w in stream.of_type("warn")
                 if w.get("source") == source and w.get("key") == key]
        assert len(warns) == 1, "expected one warn record %s/%s, got %r" % (
            source, key, [(w.get("source"), w.get("key")) for w in stream.of_type("warn")])
        return warns[0]
    return find


def non_ascii_escaped(result, stream):
    w = warn_record("cmdline", "cmdline")(stream)
    assert w["value"] == "note=caf\u00c3\u00a9", "warn value %r" % w["value"]
    assert "2 byte(s) outside printable ASCII" in w["message"], w["message"]
    assert stream.boot["cmdline"].endswith("note=caf\u00c3\u00a9 exp=none"), \
        "boot cmdline %r" % stream.boot["cmdline"]


# Words of 9 characters, then mux_ms=100 beyond the 1023 bytes the kernel keeps.
LONG_CMDLINE = "exit=qemu exp=none " + "xsu=both " * 115 + "mux_ms=100"


def cut_after_a_whole_word(result, stream):
    w = warn_record("boot", "cmdline")(stream)
    kept = stream.boot["cmdline"]
    assert len(kept) <= 1023 and kept.endswith(" xsu=both"), "kept %r" % kept[-40:]
    assert "mux_ms" not in kept, "a cut mux_ms=100 reached the kernel: %r" % kept[-40:]
    assert stream.boot["config"]["mux_ms"] == 1, "mux_ms %r" % stream.boot["config"]["mux_ms"]
    assert w["used"] == "%d bytes" % len(kept), "used %r for %d bytes" % (w["used"], len(kept))
    # QEMU put the image path and a space before the words.
    path_len = len(kept.split(" ", 1)[0]) + 1
    assert w["value"] == "%d bytes" % (path_len + len(LONG_CMDLINE)), "value %r" % w["value"]
    dropped = LONG_CMDLINE[len(kept) - path_len:].split()
    assert ("last %d word(s)" % len(dropped)) in w["message"], (w["message"], dropped)


def bare_image_name_unremarked(result, stream):
    assert stream.boot["cmdline"].startswith("pmu-testkernel.elf "), stream.boot["cmdline"]
    warns = [w for w in stream.of_type("warn") if w.get("source", "cmdline") == "cmdline"]
    assert not warns, "command-line warnings %r" % [(w["key"], w["value"]) for w in warns]
    assert stream.boot["config"]["exit"] == "qemu"


def cpu_named_alike(result, stream):
    """The end reason names the CPU as the exception record does: its index, then its APIC id."""
    e = stream.first("exception")
    assert e is not None, "no exception record"
    assert e["cpu_index"] != e["cpu"], "choose a CPU whose index and APIC id differ: %r" % (
        e.obj,)
    name = "CPU %d (APIC %d)" % (e["cpu_index"], e["cpu"])
    assert name in (stream.end.get("reason") or ""), "end reason %r lacks %r" % (
        stream.end.get("reason"), name)
    text = [l for l in result.log.splitlines() if l.startswith("*** EXCEPTION")]
    assert text and name in text[0], "console text %r lacks %r" % (text, name)


CASES = [
    Case("records/non-ascii-cmdline", cmdline="exit=qemu note=caf\u00e9",
         describe="a byte above 0x7F on the command line: records stay ASCII and intact",
         checks=[records_ascii, non_ascii_escaped, report_status(0)]),
    Case("records/cmdline-too-long", cmdline=LONG_CMDLINE, experiments=True,
         describe="1100 bytes: cut after the last whole word, said in a warn record",
         checks=[cut_after_a_whole_word, report_status(0)]),
    Case("records/bare-kernel-name", image=lambda build: "pmu-testkernel.elf",
         cwd=lambda build: build,
         describe="-kernel pmu-testkernel.elf from the build directory: no warning",
         checks=[bare_image_name_unremarked]),
    Case("records/cpu-naming", smp="4,sockets=1,cores=2,threads=2",
         cmdline="exit=qemu core=1 selftest=user-fault", verdict="fail",
         describe="a fault on CPU 2 (APIC 3): reason and record name it the same way",
         checks=[cpu_named_alike]),
]
