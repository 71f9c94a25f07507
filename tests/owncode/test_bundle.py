"""The bundle's Python writer and reader (tools/pmu_bench_bundle.py): what is written reads back
equal, the layout is docs/own-code.md's (checked here with struct, field by field), and the
reader refuses what the C reader refuses (tests/host/test_bundle.c reads the writer's bundles in
C). Damage of any byte is caught by the CRC; damage with a fitting CRC by the checks."""

import struct
import unittest
import zlib

import pmu_bench_bundle as bundle
import pmu_bench_config as config

CODE = bytes.fromhex("488b00" "50" "5b" "0f1f440000")        # mov rax,[rax]; push; pop; |5
INIT = bytes.fromhex("4c89f0" "4883e808" "488900")
EVENTS = config.fixed_events(True, False) + config.parse_config(
    "D0.81 LOADS\n48.01.CMSK=1.CTR=2 PENDING\nB7.01.MSR_RSP0=1.TakenAlone OFFCORE\n", "t")
HT1 = config.parse_config("CC.20 ROB_MISC_EVENTS.LBR_INSERTS\n", "t")


def example(**params):
    params.setdefault("sibling", "code")
    return bundle.build(bundle.Params(**params), (EVENTS, HT1),
                        {"code": CODE, "init": INIT, "sibling": b"\xf3\x90"})


def with_crc(data):
    data = bytearray(data)
    struct.pack_into("<I", data, 16, 0)
    struct.pack_into("<I", data, 16, zlib.crc32(data))
    return bytes(data)


def sections(data):
    count, table = struct.unpack_from("<II", data, 20)
    return {k: (off, size, n) for k, off, size, n in
            (struct.unpack_from("<IIII", data, table + 16 * i) for i in range(count))}


class RoundTrip(unittest.TestCase):
    def test_what_is_written_reads_back(self):
        params = dict(unroll_count=77, loop_count=3, n_measurements=20, warm_up_count=2,
                      initial_warm_up_count=9, alignment_offset=5, aggregate="max", xsu="off",
                      ring=0, sibling="code", basic_mode=True, no_normalization=True, usr=False,
                      os=True, fixed_counters=True, range=True, remove_empty_events=True,
                      verbose=True, df=True, no_mem=True)
        b = bundle.read(example(**params))
        self.assertEqual(b.params, bundle.Params(**params))
        self.assertEqual(b.events, (EVENTS, HT1))
        self.assertEqual(b.parts, {"one_time_init": b"", "init": INIT, "late_init": b"",
                                   "code": CODE, "sibling": b"\xf3\x90"})
        self.assertEqual([(i.offset, i.length, i.reads, i.writes) for i in b.decode["code"]],
                         [(0, 3, 1, 0), (3, 1, 0, 1), (4, 1, 1, 0), (5, 5, 0, 0)])
        self.assertEqual(b.decode["late_init"], [])

    def test_workload_sibling(self):
        b = bundle.read(bundle.build(bundle.Params(sibling="work", sibling_work="idle"),
                                     ([], HT1), {}))
        self.assertEqual((b.params.sibling, b.params.sibling_work), ("work", "idle"))
        self.assertEqual(b.parts["code"], b"")

    def test_repetitions(self):
        self.assertEqual(bundle.Params().repetitions(), 1000)
        self.assertEqual(bundle.Params(loop_count=100, unroll_count=10).repetitions(), 1000)
        self.assertEqual(bundle.Params(loop_count=100, no_normalization=True).repetitions(), 1)


class Layout(unittest.TestCase):
    """The format of docs/own-code.md, read with struct rather than with the reader."""

    def test_header_and_sections(self):
        data = example()
        magic, version, header, total, crc, count, table, reserved = struct.unpack_from(
            "<8sHHIIIII", data)
        self.assertEqual((magic, version, header, total, table, reserved),
                         (b"PMUBENCH", 2, 32, len(data), 32, 0))
        self.assertEqual(crc, zlib.crc32(data[:16] + bytes(4) + data[20:]))
        found = sections(data)
        self.assertEqual(len(found), count)
        self.assertEqual(set(found), {1, 2, 3, 4, 17, 19, 20, 33, 35, 36})
        for kind, (offset, size, n) in found.items():
            self.assertEqual(offset % 8, 0)
            self.assertLessEqual(offset + size, total)
        self.assertEqual(found[3][1:], (32 * len(EVENTS), len(EVENTS)))
        self.assertEqual(found[35][1:], (12 * 4, 4))
        self.assertEqual(found[1][1:], (48, 1))

    def test_params_and_events(self):
        data = example(unroll_count=500, loop_count=7, aggregate="median", xsu="core")
        offset = sections(data)[1][0]
        self.assertEqual(struct.unpack_from("<IIIIIIBBBBII", data, offset),
                         (500, 7, 10, 5, 0, 0, 1, 2, 3, 1, 4, 0xFFFFFFFF))
        events = sections(data)[3][0]
        strings = sections(data)[2][0]
        evtsel, name, spec, reason, kind, index, ctrl, mask, flags = struct.unpack_from(
            "<QIIIBBBBB", data, events + 4 * 32)   # D0.81, after RDTSC and the fixed counters
        self.assertEqual((evtsel, reason, kind, index, ctrl, mask, flags),
                         (0x4181D0, 0xFFFFFFFF, 0, 0, 0, 0xFF, 0))
        self.assertEqual(data[strings + name:].split(b"\0")[0], b"LOADS")
        self.assertEqual(data[strings + spec:].split(b"\0")[0], b"D0.81")
        # RDTSC: kind 3, no EVTSEL, no counter index
        self.assertEqual(struct.unpack_from("<QIIIBBBBB", data, events)[4:], (3, 0, 0, 0xFF, 0))

    def test_flags(self):
        # one bit each, in docs/own-code.md's order (tests/owncode/bundle.h: BUNDLE_BASIC_MODE)
        bits = dict(basic_mode=1, no_normalization=2, usr=4, os=8, fixed_counters=16, range=32,
                    remove_empty_events=64, verbose=128, df=256, no_mem=512)
        for name, bit in bits.items():
            data = example(**dict(dict(usr=False), **{name: True}))
            flags = struct.unpack_from("<I", data, sections(data)[1][0] + 28)[0]
            self.assertEqual(flags, bit, name)


class Refused(unittest.TestCase):
    def refused(self, data, words):
        with self.assertRaises(bundle.BundleError) as cm:
            bundle.read(data)
        self.assertIn(words, str(cm.exception))

    def test_every_truncation(self):
        data = example()
        for n in range(len(data)):
            with self.assertRaises(bundle.BundleError):
                bundle.read(data[:n])
        self.assertEqual(bundle.read(data + b"\xa5" * 40).size, len(data))

    def test_every_byte_is_under_the_crc(self):
        data = example()
        for i in list(range(16)) + list(range(20, len(data))):
            damaged = bytearray(data)
            damaged[i] ^= 0x40
            with self.assertRaises(bundle.BundleError):
                bundle.read(bytes(damaged))

    def test_checks_behind_the_crc(self):
        data = bytearray(example())
        found = sections(data)
        params = found[1][0]
        for at, value, words in ((0, b"\0\0\0\0", "unroll_count"),
                                 (28, struct.pack("<I", 1024), "flags"),
                                 (8, struct.pack("<I", 101), "n_measurements"),
                                 (26, b"\x01", "ring"), (40, b"\x01", "reserved")):
            damaged = bytearray(data)
            damaged[params + at:params + at + len(value)] = value
            self.refused(with_crc(damaged), words)
        damaged = bytearray(data)
        damaged[found[35][0] + 4] = 2                              # a gap in the code's table
        self.refused(with_crc(damaged), "instruction by instruction")
        damaged = bytearray(data)
        damaged[found[2][0] + found[2][1] - 1] = ord("x")           # strings without their NUL
        self.refused(with_crc(damaged), "NUL")
        damaged = bytearray(data)
        damaged[0] = ord("X")
        self.refused(bytes(damaged), "magic")

    def test_the_writer_keeps_the_limits(self):
        with self.assertRaises(bundle.BundleError) as cm:
            bundle.build(bundle.Params(unroll_count=1000000), ([], []), {"code": b"\x90" * 9})
        self.assertIn("unroll_count times the code", str(cm.exception))
        with self.assertRaises(bundle.BundleError):
            bundle.build(bundle.Params(), ([config.Event("x", "caf\u00e9")], []), {})
        with self.assertRaises(bundle.BundleError):
            bundle.build(bundle.Params(sibling="work"), ([], HT1), {})   # no workload named


if __name__ == "__main__":
    unittest.main()
