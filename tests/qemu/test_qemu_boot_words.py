"""What tools/qemu-run says it boots (qemu_boot.booting): the file booted, by a path a person finds
again (relative inside the current folder, else absolute), and how; the way's words never name
another file (--way ovmf-usb with the native loader's image said "ISO written raw to a USB
stick", and --photos printed its copy as ../../tmp/...)."""

import os
import shutil
import tempfile
import unittest

import qemu_boot


class Booting(unittest.TestCase):
    def setUp(self):
        self.top = os.path.realpath(tempfile.mkdtemp(prefix="qemu-boot-words-"))
        self.addCleanup(shutil.rmtree, self.top, ignore_errors=True)
        self.addCleanup(os.chdir, os.getcwd())
        os.makedirs(os.path.join(self.top, "work", "build"))
        os.chdir(os.path.join(self.top, "work"))

    def test_a_path_inside_the_folder_is_relative(self):
        self.assertEqual(qemu_boot.shown_path(os.path.join(self.top, "work", "build", "x.img")),
                         os.path.join("build", "x.img"))
        self.assertEqual(qemu_boot.shown_path("build/x.img"), os.path.join("build", "x.img"))

    def test_a_path_outside_it_is_absolute(self):
        outside = os.path.join(self.top, "pmu-photos-1", "pmu-testkernel-efi.img")
        self.assertEqual(qemu_boot.shown_path(outside), outside)

    def test_each_way_names_the_file_booted_and_no_other(self):
        for way in qemu_boot.BOOT_WAYS:
            words = qemu_boot.booting(way, "build/pmu-testkernel-efi.img")
            self.assertTrue(words.startswith(os.path.join("build", "pmu-testkernel-efi.img") +
                                             " "), words)
            self.assertNotIn("ISO", words)
        self.assertEqual(qemu_boot.booting("ovmf-usb", "build/pmu-testkernel-efi.img"),
                         "build/pmu-testkernel-efi.img written raw to a USB stick (xHCI "
                         "usb-storage) under OVMF (UEFI)")
