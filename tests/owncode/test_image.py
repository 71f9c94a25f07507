"""pmu-bench --image: the GRUB ISO (BIOS and UEFI) with the bundles as module2 lines and the
native UEFI image with them beside cmdline.txt, each read back file by file, each booted under
QEMU (the ISO under SeaBIOS, the FAT image under OVMF) to its end record with the words
pmu-bench wrote. That the kernel runs the bundles it was given is checked when it writes `bench`
records; until then that test is skipped with the reason."""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

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
        found = self.boot(name)[1].of_type("bench")
        if not found:
            self.skipTest("this kernel does not run bundles yet: its boot ended without a "
                          "bench record")
        return [(r["source"], r["name"]) for r in found]

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


if __name__ == "__main__":
    unittest.main()
