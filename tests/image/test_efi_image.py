"""tools/efi_image.py: the layout of the native UEFI stick image (MBR, one active FAT32 partition
from 1 MiB on) and adding files to it, as the QEMU tests and docs/real-machine.md do."""

import os
import shutil
import struct
import subprocess
import tempfile
import unittest

import efi_image


class PartitionTable(unittest.TestCase):
    def test_one_active_fat32_partition(self):
        sector = efi_image.mbr(b"\xfa\xeb\xfe", 2048, 79872)
        self.assertEqual(len(sector), 512)
        self.assertEqual(sector[:3], b"\xfa\xeb\xfe")
        self.assertEqual(sector[3:440], bytes(437))
        self.assertEqual(struct.unpack_from("<I", sector, 440)[0], efi_image.DISK_SIGNATURE)
        entry = sector[446:462]
        self.assertEqual(entry[0], 0x80, "active")
        self.assertEqual(entry[4], 0x0C, "FAT32 with LBA")
        self.assertEqual(struct.unpack_from("<II", entry, 8), (2048, 79872))
        # LBA 2048 with 255 heads and 63 sectors per track: cylinder 0, head 32, sector 33.
        self.assertEqual(entry[1:4], bytes([32, 33, 0]))
        self.assertEqual(sector[462:510], bytes(48), "one partition only")
        self.assertEqual(sector[510:], b"\x55\xaa")

    def test_chs_beyond_1024_cylinders(self):
        self.assertEqual(efi_image.chs(255 * 63 * 1024), b"\xfe\xff\xff")
        self.assertEqual(efi_image.chs(255 * 63 * 1023), bytes([0, 1 | 0xC0, 0xFF]))

    def test_boot_code_must_fit(self):
        with self.assertRaises(efi_image.ImageError):
            efi_image.mbr(bytes(441), 2048, 100)


@unittest.skipUnless(shutil.which("mformat"), "mtools is not installed (tools/deps.sh)")
class Image(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="efi-image-test-")
        self.addCleanup(shutil.rmtree, self.dir)
        self.loader = self.write("loader.efi", b"MZ" + bytes(1000))
        self.cmdline = self.write("cmdline.txt", b"# comments only\n")
        self.image = os.path.join(self.dir, "stick.img")
        efi_image.create(self.image, b"\xeb\xfe", [(self.loader, "/EFI/BOOT/BOOTX64.EFI"),
                                                   (self.cmdline, "/EFI/BOOT/cmdline.txt")])

    def write(self, name, data):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def read(self, path):
        env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
        return subprocess.run(["mtype", "-i", "%s@@1M" % self.image, "::" + path], env=env,
                              check=True, capture_output=True).stdout

    def test_fat32_from_1_mib(self):
        self.assertEqual(os.path.getsize(self.image), efi_image.IMAGE_BYTES)
        self.assertEqual(efi_image.partition_offset(self.image), 1 << 20)
        with open(self.image, "rb") as f:
            f.seek(1 << 20)
            boot = f.read(512)
        self.assertEqual(boot[82:90], b"FAT32   ")
        self.assertEqual(struct.unpack_from("<I", boot, 28)[0], 2048, "hidden sectors")
        self.assertEqual(struct.unpack_from("<I", boot, 32)[0],
                         efi_image.IMAGE_BYTES // 512 - 2048, "sectors")
        self.assertEqual(boot[13], 1, "one sector per cluster")
        self.assertEqual(boot[510:], b"\x55\xaa")

    def test_files_in_place(self):
        self.assertEqual(self.read("/EFI/BOOT/BOOTX64.EFI"), b"MZ" + bytes(1000))
        self.assertEqual(self.read("/EFI/BOOT/cmdline.txt"), b"# comments only\n")

    def test_add_replaces(self):
        efi_image.add_data(self.image, "/EFI/BOOT/cmdline.txt", b"exp=none\n")
        self.assertEqual(self.read("/EFI/BOOT/cmdline.txt"), b"exp=none\n")
        self.assertEqual(self.read("/EFI/BOOT/BOOTX64.EFI"), b"MZ" + bytes(1000))
        efi_image.add_data(self.image, "/NEW/DIR/x.txt", b"x")
        self.assertEqual(self.read("/NEW/DIR/x.txt"), b"x")

    def test_not_an_image(self):
        with self.assertRaises(efi_image.ImageError):
            efi_image.partition_offset(self.cmdline)


if __name__ == "__main__":
    unittest.main()
