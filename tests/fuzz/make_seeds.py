#!/usr/bin/python3
"""Write the seed corpora of the fuzzers (tests/fuzz/seeds/<fuzzer>/): the good inputs of the host
tests (tests/host/test_*.c), laid out as each harness reads its input (the comment at the top of
tests/fuzz/fuzz_<fuzzer>.c). The seeds are committed; run this again after changing a layout.

    tests/fuzz/make_seeds.py
"""

import hashlib
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# ---- command line (tests/host/test_cmdline.c); first byte: room for 8 warnings ------------------

CMDLINES = [
    "",
    "dur_ms=10000 triad_kib=64 triad_reps=3",
    "core=3 smp=all apic=x2apic",
    "  exp=ch7-aligned,ch4-branch-misses xsu=off sched=hk pmu=model mux_ms=4 exit=qemu "
    "serial=com2 baud=9600 selftest=stack\n",
    "serial=0x3e8 exp=none xsu=on",
    "build/pmu-testkernel.elf exit=qemu",
    "xsu=maybe mux_ms=0 baud=1000 serial=0xzz exp=ch7-aligned,nonsense foo=1 bar xsu",
]

# ---- the whole path to the boot record (issue 20's lines: every word taken or named) -----------

CONFIG_LINES = CMDLINES + [
    "exp=none ht0={{,r20cc:u",
    "ht1=cpu/event=0x1ff/",
    "ht1=rfffffffffffffffff",
    "ht0={r81d0:u,rzz}",
    "ht1=,,,r20cc:u",
    "exp=none ht0=r81d0:u ht1=r20cc:u",
    "exp=ch4-lbr-inserts mux_ms=1000 dur_ms=20",
    "ht0=cpu/event=0xd0,umask=0x81,name=loads/u,cpu/cycles/,cpu/instructions/u ht1=r81d0:pp",
    "ht0=r81d0:u,bogus,BR_INST_RETIRED:COND work1=nope survey_work=none exp=ch4-branch-misses,x",
]

# ---- event lists (tests/host/test_event_parse.c); bytes: uarch (3: haswell), room 8 -------------

EVENT_LISTS = [
    (3, "r81d0:u,r20cc:k,r00C5:uk,r0148:D"),
    (3, "r1570148"),
    (0, "r8000c0"),
    (3, "cpu/event=0x48,umask=0x1,cmask=1,edge/u"),
    (6, "cpu/event=0xc0,inv,cmask=16/:k,cpu/config=0x1570148/"),
    (3, "mem_uops_retired.all_loads,MEM_UOPS_RETIRED:ALL_LOADS,branch-misses"),
    (1, "cycle_activity.stalls_l1d_pending"),
    (5, "mem_load_retired.fb_hit"),
    (3, "{r81d0,r08d1:u},r20cc,{branches}:D"),
    (3, "{r81d0:u,r20cc,l1d_pend_miss.pending}:kD"),
]

# ---- load options (tests/host/test_efi_cmdline.c); first byte: function and buffer size ---------


def load_option_seeds():
    size = 127 << 1
    ucs2 = lambda s: s.encode("utf-16-le") + b"\0\0"  # noqa: E731
    return [
        bytes([size]) + ucs2("exp=none sched=hk"),
        bytes([size]) + ucs2("fs0:\\EFI\\BOOT\\BOOTX64.EFI exp=none"),
        bytes([size]) + ucs2("pmu-testkernel.efi"),
        bytes([40 << 1]) + ucs2("exp=all xsu=both mux_ms=4 dur_ms=10000"),
        bytes([size | 1]) + b"# comment\nexp=none\r\nsched=hk # more\n",
        bytes([size | 1]) + b"\xef\xbb\xbfxsu=on\n",
        bytes([size | 1]) + b"\xff\xfe" + "exp=none\r\nsched=hk\r\n".encode("utf-16-le"),
        bytes([size | 1]) + "mux_ms=4\n".encode("utf-16-le"),
    ]


# ---- multiboot (tests/host/test_multiboot.c); first byte: 0 multiboot1, 1 multiboot2 -------------

INFO_BASE = 0x10000  # tests/fuzz/fuzz_multiboot.c


def mb2_tag(kind, body):
    tag = struct.pack("<II", kind, 8 + len(body)) + body
    return tag + b"\0" * (-len(tag) % 8)


def multiboot2():
    mmap = struct.pack("<II", 24, 0) + b"".join(
        struct.pack("<QQII", base, length, kind, 0)
        for base, length, kind in ((0, 0x9FC00, 1), (0x100000, 0x1FF00000, 1),
                                   (0xFFFC0000, 0x40000, 2), (0x20000000, 0x1000, 7)))
    rsdp2 = bytearray(b"RSD PTR " + b"\0" * 28)
    rsdp2[15] = 2
    framebuffer = struct.pack("<QIIIBBH", 0x80000000, 4096, 1024, 768, 32, 1, 0) + \
        bytes([16, 8, 8, 8, 0, 8])
    tags = (mb2_tag(1, b"exp=all xsu=on\0") + mb2_tag(2, b"GRUB 2.06\0") + mb2_tag(6, mmap) +
            mb2_tag(15, bytes(rsdp2)) + mb2_tag(14, b"RSD PTR " + b"\0" * 12) +
            mb2_tag(12, struct.pack("<Q", 0x7F9EE018)) + mb2_tag(8, framebuffer) +
            mb2_tag(4, struct.pack("<II", 639, 65536)) + mb2_tag(0, b""))
    info = struct.pack("<II", 8 + len(tags), 0) + tags
    return [b"\x01" + info, b"\x01" + info[:8 + 24] + mb2_tag(0, b"")]


def multiboot1():
    """The information at INFO_BASE, the strings and the map after it in the same region."""
    info = bytearray(128)
    strings = b"build/pmu-testkernel.elf exit=qemu\0qemu\0"
    mmap = struct.pack("<IQQI", 20, 0, 0x9FC00, 1) + struct.pack("<IQQI", 20, 0x100000,
                                                                   0x7EE0000, 1)
    flags = 1 | 4 | 64 | 512  # memory, cmdline, memory map, loader name
    struct.pack_into("<III", info, 0, flags, 639, 1024)
    struct.pack_into("<I", info, 16, INFO_BASE + 128)
    struct.pack_into("<II", info, 44, len(mmap), INFO_BASE + 128 + len(strings))
    struct.pack_into("<I", info, 64, INFO_BASE + 128 + strings.index(b"qemu\0"))
    return [b"\x00" + bytes(info) + strings + mmap]


# ---- ACPI (tests/host/test_acpi.c); flags (1: fix checksums), RSDP, tables at TABLES_BASE -------

TABLES_BASE = 0x100000  # tests/fuzz/fuzz_acpi.c


def acpi_table(signature, body, revision=2):
    """A table with its header; the harness sets the checksum (flag 1)."""
    return (signature + struct.pack("<IBB", 36 + len(body), revision, 0) + b"PMUTSTTABLES  " +
            struct.pack("<I", 1) + b"PMUT" + struct.pack("<I", 1) + body)


def madt():
    entries = b"".join(struct.pack("<BBBBI", 0, 8, i, i, 1) for i in range(4))
    entries += bytes([1, 12, 0, 0, 0, 0, 0xC0, 0xFE, 0, 0, 0, 0])        # I/O APIC
    entries += bytes([2, 10, 0, 0, 2, 0, 0, 0, 0, 0])                    # interrupt override
    entries += bytes([4, 6, 0xFF, 0, 0, 1])                              # local APIC NMI
    entries += struct.pack("<BBHIII", 9, 16, 0, 0x100, 1, 7)             # a local x2APIC
    return acpi_table(b"APIC", struct.pack("<II", 0xFEE00000, 1) + entries, 4)


def fadt():
    body = bytearray(276 - 36)
    struct.pack_into("<I", body, 76 - 36, 0x608)                          # PM_TMR_BLK
    body[91 - 36] = 4                                                      # PM_TMR_LEN
    struct.pack_into("<H", body, 109 - 36, 2)                             # IAPC_BOOT_ARCH
    struct.pack_into("<I", body, 112 - 36, (1 << 8) | (1 << 10))           # TMR_VAL_EXT, RESET
    body[116 - 36:128 - 36] = struct.pack("<BBBBQ", 1, 8, 0, 1, 0xCF9)     # RESET_REG
    body[128 - 36] = 6                                                     # RESET_VALUE
    body[208 - 36:220 - 36] = struct.pack("<BBBBQ", 1, 32, 0, 3, 0x608)    # X_PM_TMR_BLK
    return acpi_table(b"FACP", bytes(body), 6)


def acpi(revision):
    tables = [madt(), fadt(), acpi_table(b"SSDT", b"\0" * 64)]
    addresses, blob = [], b""
    for t in tables:
        addresses.append(TABLES_BASE + len(blob))
        blob += t + b"\0" * (-len(t) % 16)
    rsdt_at = TABLES_BASE + len(blob)
    blob += acpi_table(b"RSDT", b"".join(struct.pack("<I", a) for a in addresses), 1)
    blob += b"\0" * (-len(blob) % 16)
    xsdt_at = TABLES_BASE + len(blob)
    blob += acpi_table(b"XSDT", b"".join(struct.pack("<Q", a) for a in addresses), 1)
    rsdp = b"RSD PTR \0PMUTST" + bytes([revision]) + struct.pack("<IIQ", rsdt_at, 36,
                                                                xsdt_at if revision else 0)
    return b"\x01" + rsdp + b"\0" * 4 + blob


# ---- bundles (tests/host/test_bundle.c); first byte: 1 (the harness fixes the CRC) ---------------


def bundle_seeds():
    """Bundles of tools/pmu-bench's writer: raw code (no assembler needed), events of each kind,
    a sibling of each kind."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools"))
    import pmu_bench_bundle as bundle
    import pmu_bench_config as config

    events = config.fixed_events(True, False) + config.parse_config(
        "D0.81 MEM_UOPS_RETIRED.ALL_LOADS\n48.01.CMSK=1.CTR=2 L1D_PEND_MISS\n"
        "B7.01.MSR_RSP0=0x1.TakenAlone OFFCORE\n", "seed")
    code = bytes.fromhex("488b00" "50" "5b" "e800000000" "c3" "f3a4" "7400" "0f1f4000")
    init = bytes.fromhex("4c89f0" "4883e808" "488900")
    return [b"\x01" + bundle.build(p, e, parts) for p, e, parts in (
        (bundle.Params(), (events, []), {"code": code, "init": init}),
        (bundle.Params(aggregate="median", xsu="core", sibling="code", loop_count=7),
         (events[:3], events[3:]), {"code": code, "sibling": b"\xf3\x90", "one_time_init": init,
                                    "late_init": b"\x06\x90"}),
        (bundle.Params(ring=0, os=True, sibling="work", sibling_work="idle", basic_mode=True,
                       no_normalization=True), ([], events), {}),
        (bundle.Params(range=True, remove_empty_events=True, verbose=True, df=True,
                       no_mem=True), (events, []), {"code": code}),
    )]


# ---- writing ------------------------------------------------------------------------------------

def seeds():
    return {
        "cmdline": [b"\x08" + s.encode() for s in CMDLINES],
        "config": [s.encode() for s in CONFIG_LINES],
        "event_parse": [bytes([u, 8]) + s.encode() for u, s in EVENT_LISTS],
        "load_options": load_option_seeds(),
        "multiboot": multiboot2() + multiboot1(),
        "acpi": [acpi(2), acpi(0)],
        "bundle": bundle_seeds(),
    }


def main():
    for fuzzer, inputs in seeds().items():
        folder = os.path.join(HERE, "seeds", fuzzer)
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):
            os.remove(os.path.join(folder, name))
        for data in inputs:
            name = hashlib.sha1(data).hexdigest()[:16]
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
        print("%-13s %d seeds" % (fuzzer, len(inputs)))


if __name__ == "__main__":
    main()
