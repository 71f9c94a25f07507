"""The text of what a log says before its experiments: how the kernel booted, on which CPU and
core, the TSC, the PMU and what the firmware left in it, the RDPMC check, and the warn and
exception records. Each line is printed only for the keys that are there."""

import json

import pmu_format


def render_boot(report):
    b = report.boot
    if b is None:
        return ["Boot: no boot record"]
    lines = ["Boot"]
    loader = " (%s)" % b["loader"] if b.get("loader") else ""
    lines.append("  path       %s%s, command line %s"
                 % (b.get("boot", "-"), loader, json.dumps(b.get("cmdline", ""))))
    rsdp = b.get("acpi_rsdp")
    lines.append("  memory     %s MiB, ACPI RSDP %s"
                 % (b.get("mem_mib", "-"), pmu_format.hex_text(rsdp) if rsdp is not None
                    else "not found"))
    lines.append(_cpu_line(b))
    lines.extend(_topology_lines(b))
    tsc = b.get("tsc_hz")
    if tsc:
        ref = " (calibrated against %s)" % b["tsc_ref"] if b.get("tsc_ref") else ""
        lines.append("  TSC        %.3f GHz%s" % (tsc / 1e9, ref))
    lines.extend(render_pmu(report))
    lines.extend(render_rdpmc(report))
    return lines


def _cpu_line(b):
    cpu = b.get("cpu", {})
    model = cpu.get("model")
    hv = cpu.get("hypervisor")
    line = "  CPU        %s family %s model %s stepping %s: %s%s" % (
        cpu.get("vendor", "-"), cpu.get("family", "-"),
        "0x%x" % model if model is not None else "-", cpu.get("stepping", "-"),
        cpu.get("brand", "-"), "; hypervisor %s" % hv if hv else "")
    if "microcode" in b:
        microcode = b["microcode"]
        line += "; microcode %s" % (pmu_format.hex_text(microcode) if microcode is not None
                                    else "unknown")
    return line


def _topology_lines(b):
    if "cpus" not in b:
        return []
    threads = b.get("threads", [])
    lines = ["  topology   %s, %s, %s, %s per core; core %s with %s" % (
        pmu_format.plural(b.get("cpus"), "CPU"), pmu_format.plural(b.get("packages"), "package"),
        pmu_format.plural(b.get("cores"), "core"),
        pmu_format.plural(b.get("threads_per_core"), "thread"),
        b.get("core", "-"), "threads APIC " + " and ".join(str(t) for t in threads)
        if threads else "no threads")]
    if len(threads) < 2 or b.get("smt") is False:
        lines.append("             no SMT sibling: the erratum needs two threads of one core, so "
                     "the experiments cannot show it here")
    return lines


def render_pmu(report):
    p = report.pmu
    if p is None:
        return ["  PMU        no pmu record"]
    lines = ["  PMU        %s backend: %s" % (p.get("backend", "-"), p.get("reason") or "-")]
    lines.append("             version %s, %s GP counters of %s bits, %s fixed" % (
        p.get("version", "-"), p.get("gp", "-"), p.get("gp_width", "-"), p.get("fixed", "-")))
    erratum = p.get("erratum")
    uarch = p.get("uarch", "-")
    if uarch == "unknown":
        # A CPU in no table: named by what it is, and what follows (issue 20).
        cpu = (report.boot or {}).get("cpu") or {}
        model = cpu.get("model")
        uarch = "%s family %s model %s, in no table of the kernel" % (
            cpu.get("vendor", "-"), cpu.get("family", "-"),
            "0x%x" % model if isinstance(model, int) else "-")
    lines.append("  uarch      %s, %s" % (uarch,
                                          "erratum %s" % erratum if erratum
                                          else "no cross-thread erratum"))
    lines.append("  modelled   " + modelled_text(p))
    lines.extend(_msr_lines(p))
    return lines


def modelled_text(p):
    if p.get("backend") == "none":
        # No counters and no model (pmu=auto on a machine with no hypervisor never falls back
        # to the model: issue 16): there are no counts at all.
        return "nothing, and nothing is measured: no counters to count with"
    if p.get("backend") != "model":
        return "nothing: counts come from the hardware counters"
    model = p.get("model", {})
    text = "counts come from the model PMU, not from hardware counters"
    shares = model.get("shares", [])
    if model.get("erratum_applied", bool(p.get("erratum"))) and shares:
        text += "; the erratum moves %s to the sibling's counter" % ", ".join(
            "%.1f%% of %s" % (100.0 * s.get("share", 0), s.get("event", "-")) for s in shares)
    elif not p.get("erratum"):
        text += "; no erratum on this microarchitecture, so none is modelled"
    return text + "; scheduling, XSU, multiplexing and SMP are the real code"


def _msr_lines(p):
    """What the PMU MSRs held when the kernel took over, and a warning in words when the firmware
    left counters enabled."""
    lines = []
    msrs = p.get("msrs")
    if msrs:
        items = ["%s=%s" % (name, "faulted" if v is None else pmu_format.hex_text(v))
                 for name, v in msrs.items()]
        lines.append("  MSRs       as the firmware left them:")
        for i in range(0, len(items), 3):
            lines.append("             " + "  ".join(items[i:i + 3]))
    counters = p.get("firmware_counters")
    if counters:
        lines.append("  WARNING    the firmware left %s enabled: %s. Something outside the kernel "
                     "(the BIOS, SMM, a management engine) may be counting with them and may "
                     "change them during a run" % (
                         pmu_format.plural(len(counters), "counter"), ", ".join(counters)))
    elif counters is not None:
        lines.append("  firmware   left no counter enabled")
    return lines


def render_rdpmc(report):
    """The RDPMC boot check: one line per record (there is one)."""
    count = pmu_format.count_text
    lines = []
    for r in report.rdpmc:
        parts = []
        if r.get("cycles") is not None:
            parts.append("%.1f TSC cycles per read at CPL 3" % r["cycles"])
        if r.get("median") is not None:
            parts.append("median %s" % count(r["median"]))
        if r.get("min") is not None or r.get("max") is not None:
            parts.append("min %s, max %s" % (count(r.get("min")), count(r.get("max"))))
        if "reads" in r:
            parts.append("%s reads" % count(r["reads"]))
        if "emulated" in r:
            parts.append("trapped and answered by the model" if r["emulated"]
                         else "executed by the CPU")
        if r.get("reason"):
            parts.append(r["reason"])
        if r.get("ok") is False:
            parts.append("FAILED")
        lines.append("  RDPMC      " + (", ".join(parts) or "checked"))
    return lines


def render_warnings(report):
    lines = []
    if report.warnings:
        lines.append("Warnings")
        for r in report.warnings:
            o = r.obj
            accepted = o.get("accepted")
            message = o.get("message", "")
            lines.append("  @%d %s=%s: %s%s" % (
                r.seq, o.get("key", ""), o.get("value", ""), message,
                # The kernel's message often names them already (an unknown key's list of keys).
                " (accepted: %s)" % accepted if accepted and accepted not in message else ""))
    if report.exceptions:
        lines.append("Exceptions")
        for o in report.exceptions:
            lines.extend(_exception_lines(o))
    if report.notes:
        lines.append("Notes on the records")
        lines.extend("  " + n for n in report.notes)
    return lines


def _exception_lines(o):
    hex_text = pmu_format.hex_text
    error_code = o.get("error_code")
    lines = ["  CPU %s: %s (vector %s), error code %s, RIP %s, CR2 %s" % (
        o.get("cpu", "-"), o.get("name", "-"), o.get("vector", "-"),
        "-" if error_code is None else hex_text(error_code), hex_text(o.get("rip", "-")),
        hex_text(o.get("cr2", "-")))]
    items = ["%s=%s" % (k, hex_text(v)) for k, v in o.get("registers", {}).items()]
    for i in range(0, len(items), 4):
        lines.append("      " + "  ".join(items[i:i + 4]))
    return lines
