"""pmu-bench --image: the GRUB ISO (BIOS and UEFI) with the bundles as module2 lines and the
native UEFI image with them beside cmdline.txt, each read back file by file, each booted under
QEMU (the ISO under SeaBIOS, the FAT image under OVMF) to its end record with the words
pmu-bench wrote, and the kernel running the bundles of each, in order.

Then a native image with files the loader cannot all pass on (one too big, a directory, more
than the kernel keeps): the others run, and the kernel names each of those in a warn record."""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

import efi_image
import pmu_records
import qemu_boot
from tests.owncode.benchtool import BUILD, KERNEL, run

WORDS = "exit=qemu mux_ms=4"
EFI = os.path.join(BUILD, "efi", "BOOTX64.EFI")


NEEDS_ISO = unittest.skipUnless(os.path.exists(KERNEL) and shutil.which("xorriso"),
                                "needs build/pmu-testkernel.elf (make) and xorriso (tools/deps.sh)")
NEEDS_IMG = unittest.skipUnless(os.path.exists(EFI) and shutil.which("mtype"),
                                "needs build/efi/BOOTX64.EFI (make image) and mtools (deps.sh)")
NEEDS_QEMU = unittest.skipUnless(qemu_boot.qemu_available() and os.path.exists(
    qemu_boot.OVMF_CODE), "needs QEMU and OVMF (tools/deps.sh)")


class Images(unittest.TestCase):
    """Each image is written once and booted once (the first test that asks), then checked."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="pmu-bench-image-")
        first, second = (os.path.join(cls.tmp.name, n) for n in ("one", "two"))
        r = run("-asm", "ADD RAX, RBX", "-fixed_counters", "--out", second)
        assert r.status == 0, r
        cls.second = os.path.join(second, "bundle.bin")
        cls.argv = ["-asm", "mov RAX, [R14]", "-fixed_counters", "--out", first, "--bundle",
                    cls.second, "--append", WORDS]
        cls.first = os.path.join(first, "bundle.bin")
        cls.images, cls.boots = {}, {}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def read(self, path):
        with open(path, "rb") as f:
            return f.read()

    def image(self, name):
        if name not in self.images:
            path = os.path.join(self.tmp.name, name)
            r = run(*self.argv + ["--image", path])
            self.assertEqual(r.status, 0, r)
            self.assertIn("stick image in " + path, r.stderr)
            self.images[name] = path
        return self.images[name]

    def boot(self, name):
        """(QEMU's result, the stream) of the image's boot: the ISO from a CD under SeaBIOS, the
        FAT image as a disk under OVMF."""
        if name not in self.boots:
            way = "seabios-cd" if name.endswith(".iso") else "ovmf-disk"
            result = qemu_boot.boot(way, self.image(name), timeout=120)
            self.boots[name] = result, pmu_records.parse(result.log)
        result, stream = self.boots[name]
        self.assertIsNotNone(stream.boot, result.tail())
        self.assertIsNotNone(stream.end, result.tail())
        return result, stream

    def bench_records(self, name):
        return [(r["source"], r["name"]) for r in self.boot(name)[1].of_type("bench")]

    @NEEDS_ISO
    def test_iso_holds_the_bundles_as_modules(self):
        out = os.path.join(self.tmp.name, "iso")
        subprocess.run(["xorriso", "-osirrox", "on", "-indev", self.image("stick.iso"),
                        "-extract", "/boot", out], check=True, capture_output=True)
        self.assertEqual(self.read(os.path.join(out, "bench", "bench1.bin")),
                         self.read(self.first))
        self.assertEqual(self.read(os.path.join(out, "bench", "bench2.bin")),
                         self.read(self.second))
        self.assertEqual(self.read(os.path.join(out, "pmu-testkernel.elf")), self.read(KERNEL))
        with open(os.path.join(out, "grub", "grub.cfg")) as f:
            cfg = f.read()
        entry = re.search(r'menuentry "pmu-testkernel: your own code \(2 bundles\)" \{\n(.*?)\}',
                          cfg, re.S)
        self.assertIsNotNone(entry, cfg)
        self.assertEqual(entry.group(1).split("\n"), [
            "\tmultiboot2 /boot/pmu-testkernel.elf exp=none " + WORDS,
            "\tmodule2 /boot/bench/bench1.bin bench1.bin",
            "\tmodule2 /boot/bench/bench2.bin bench2.bin", "\tboot", ""])
        self.assertIn("serial --unit=0 --speed=115200", cfg)    # boot/grub.cfg's console

    @NEEDS_ISO
    @NEEDS_QEMU
    def test_iso_boots_with_them(self):
        result, stream = self.boot("stick.iso")
        self.assertTrue(stream.boot["loader"].startswith("GRUB"))
        self.assertEqual(stream.boot["cmdline"].split(), ["exp=none"] + WORDS.split())
        self.assertNotIn("error:", result.log)                   # GRUB found both modules
        self.assertEqual(stream.problems, [])

    @NEEDS_ISO
    @NEEDS_QEMU
    def test_iso_runs_them(self):
        self.assertEqual(self.bench_records("stick.iso"),
                         [("multiboot2", "bench1.bin"), ("multiboot2", "bench2.bin")])

    def mtype(self, name):
        env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
        return subprocess.run(["mtype", "-i", self.image("stick.img") + "@@1M",
                               "::/EFI/BOOT/" + name], env=env, check=True,
                              capture_output=True).stdout

    @NEEDS_IMG
    def test_native_image_holds_the_bundles_beside_cmdline_txt(self):
        self.assertEqual(self.mtype("BENCH1.BIN"), self.read(self.first))
        self.assertEqual(self.mtype("BENCH2.BIN"), self.read(self.second))
        self.assertEqual(self.mtype("BOOTX64.EFI"), self.read(EFI))
        words = [w for line in self.mtype("cmdline.txt").decode().splitlines()
                 if not line.startswith("#") for w in line.split()]
        self.assertEqual(words, ["exp=none"] + WORDS.split())

    @NEEDS_IMG
    @NEEDS_QEMU
    def test_native_image_boots_with_them(self):
        result, stream = self.boot("stick.img")
        self.assertEqual(stream.boot["boot"], "uefi")
        self.assertEqual(stream.boot["cmdline"].split(), ["exp=none"] + WORDS.split())
        self.assertEqual(stream.problems, [])

    @NEEDS_IMG
    @NEEDS_QEMU
    def test_native_image_runs_them(self):
        self.assertEqual(self.bench_records("stick.img"),
                         [("uefi", "BENCH1.BIN"), ("uefi", "BENCH2.BIN")])

    def test_refusals(self):
        r = run(*self.argv + ["--image", os.path.join(self.tmp.name, "stick.raw")])
        self.assertEqual(r.status, 2, r)
        self.assertIn(".iso", r.stderr)
        r = run(*self.argv[:-1] + ["exp=none; reboot", "--image",
                                   os.path.join(self.tmp.name, "x.iso")])
        self.assertEqual(r.status, 2, r)
        self.assertIn("--append", r.stderr)


def crc32_of(path):
    """The CRC-32 a bundle's header carries (after magic, version, header size and total size),
    as the bench record writes it."""
    with open(path, "rb") as f:
        return "0x%08x" % int.from_bytes(f.read(20)[16:20], "little")


@NEEDS_IMG
@NEEDS_QEMU
class NativeImageBadFiles(unittest.TestCase):
    """BENCH1.BIN to BENCH19.BIN beside cmdline.txt: BENCH2.BIN one byte over the loader's
    128 MiB, BENCH3.BIN a directory, the rest two small bundles in turn, of which the kernel keeps
    16 (BENCH4.BIN to BENCH18.BIN after BENCH1.BIN) and not BENCH19.BIN. Booted once."""

    TOO_BIG = (128 << 20) + 1

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="pmu-bench-bad-files-")
        small = ["-fixed_counters", "-unroll_count", "10", "-n_measurements", "1",
                 "-warm_up_count", "0"]
        cls.bundles = []
        for i, code in enumerate(("ADD RAX, RBX", "mov RAX, [R14]")):
            out = os.path.join(cls.tmp.name, str(i))
            r = run("-asm", code, "--out", out, *small)
            assert r.status == 0, r
            cls.bundles.append(os.path.join(out, "bundle.bin"))
        big = os.path.join(cls.tmp.name, "big.bin")
        with open(big, "wb") as f:
            f.truncate(cls.TOO_BIG)
        cmdline = os.path.join(cls.tmp.name, "cmdline.txt")
        with open(cmdline, "w") as f:
            f.write("exp=none exit=qemu\n")
        cls.placed = {n: cls.bundles[n % 2] for n in range(1, 20) if n not in (2, 3)}
        files = [(EFI, "/EFI/BOOT/BOOTX64.EFI"), (cmdline, "/EFI/BOOT/cmdline.txt"),
                 (big, "/EFI/BOOT/BENCH2.BIN")]
        files += [(src, "/EFI/BOOT/BENCH%d.BIN" % n) for n, src in cls.placed.items()]
        image = os.path.join(cls.tmp.name, "bad.img")
        with open(os.path.join(BUILD, "efi", "mbr.bin"), "rb") as f:
            efi_image.create(image, f.read(), files, size=200 << 20)   # room for BENCH2.BIN
        efi_image.add_directory(image, "/EFI/BOOT/BENCH3.BIN")
        cls.result = qemu_boot.boot("ovmf-disk", image, timeout=120)
        cls.stream = pmu_records.parse(cls.result.log)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_boot_ends(self):
        self.assertIsNotNone(self.stream.end, self.result.tail())
        self.assertEqual(self.stream.boot["boot"], "uefi")
        self.assertEqual(self.stream.problems, [])

    def test_the_others_run_in_order_intact(self):
        kept = [1] + list(range(4, 19))
        bench = self.stream.of_type("bench")
        self.assertEqual([(r["source"], r["name"]) for r in bench],
                         [("uefi", "BENCH%d.BIN" % n) for n in kept], self.result.tail())
        # The bytes the kernel read are the file's: nothing overwrote a bundle's pages.
        self.assertEqual([(r["crc32"], r["error"]) for r in bench],
                         [(crc32_of(self.placed[n]), None) for n in kept])
        self.assertEqual({r["bench"] for r in self.stream.of_type("bench_result")},
                         set(range(16)))

    def test_each_file_not_passed_on_is_named(self):
        warns = [w for w in self.stream.of_type("warn") if w["key"] == "module"]
        self.assertEqual([(w["source"], w["value"], w["accepted"]) for w in warns], [
            ("boot", "BENCH2.BIN", "a readable file of at most 128 MiB"),
            ("boot", "BENCH3.BIN", "a readable file of at most 128 MiB"),
            ("boot", "BENCH19.BIN", "at most 16 modules")])
        self.assertIn("has %d bytes, more than the 128 MiB" % self.TOO_BIG, warns[0]["message"])
        self.assertIn("is a directory", warns[1]["message"])
        self.assertIn("at most 16 boot modules", warns[2]["message"])
        for line in ("BENCH2.BIN not loaded: larger than 128 MiB",
                     "BENCH3.BIN not loaded: a directory", "BENCH19.BIN not loaded: more than 16",
                     "bundles: 16 to run, 3 not passed on"):
            self.assertIn(line, self.result.log)    # the loader's console, before the kernel


if __name__ == "__main__":
    unittest.main()
