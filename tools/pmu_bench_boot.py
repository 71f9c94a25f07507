"""Bundles to the kernel: a QEMU boot with them as multiboot1 modules, or a stick image.

    result, stream = boot_qemu(bundles, kernel, cpu, append, timeout, log)
    write_image(path, bundles, append, build)

Under QEMU the bundles are copied into a scratch folder as bench1.bin, bench2.bin, ... (QEMU's
-initrd list cannot hold commas or spaces) and given to QEMU's own multiboot1 loader in that
order, with the kernel words `exp=none exit=qemu` and the caller's.

A stick image is written by the means `make image` uses (boot/boot.mk, boot/efi/efi.mk):
- FILE.iso: GRUB for BIOS and UEFI (grub-mkrescue), the bundles as /boot/bench/bench1.bin, ...,
  loaded by the default menu entry with `module2`, in order;
- FILE.img: the native UEFI loader's FAT image (tools/efi_image.py), the bundles as
  /EFI/BOOT/BENCH1.BIN, BENCH2.BIN, ... beside /EFI/BOOT/cmdline.txt, which holds the words.
"""

import os
import re
import shutil
import subprocess
import tempfile

import efi_image
import pmu_records
import qemu_boot

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_BUNDLES = 16
# Kernel words that GRUB's menu and cmdline.txt carry without quoting.
WORD_RE = re.compile(r"[A-Za-z0-9_.,:=+/@%-]+")
BASE_WORDS = "exp=none"


class BootError(Exception):
    """Something missing or refused before the kernel could run; the message says what."""


def iso_names(count):
    return ["bench%d.bin" % (i + 1) for i in range(count)]


def esp_names(count):
    return ["BENCH%d.BIN" % (i + 1) for i in range(count)]


def check_words(append):
    words = append.split()
    for w in words:
        if not WORD_RE.fullmatch(w):
            raise BootError("--append: %r: a kernel word is key=value of letters, digits and "
                            "_.,:=+/@%%- (no quotes, spaces or shell characters)" % w)
    return words


def _need(path, what):
    if not os.path.exists(path):
        raise BootError("%s is missing (%s); run make%s first" % (
            os.path.relpath(path), what, " image" if "efi" in path else ""))
    return path


def boot_qemu(bundles, kernel, cpu="Haswell", append="", timeout=120, log=None, echo=None,
              cores=1):
    """Boots the kernel with the bundle files as modules, on a machine of `cores` cores of two
    threads each; (qemu_boot.BootResult, the parsed pmu_records.Stream)."""
    _need(kernel, "the kernel")
    if not qemu_boot.qemu_available():
        raise BootError("qemu-system-x86_64 is missing; tools/deps.sh installs it")
    if len(bundles) > MAX_BUNDLES:
        raise BootError("%d bundles; at most %d in one boot" % (len(bundles), MAX_BUNDLES))
    cmdline = " ".join(["%s exit=qemu" % BASE_WORDS] + append.split())
    with tempfile.TemporaryDirectory(prefix="pmu-bench-") as tmp:
        modules = []
        for src, name in zip(bundles, iso_names(len(bundles))):
            modules.append(os.path.join(tmp, name))
            shutil.copyfile(src, modules[-1])
        try:
            result = qemu_boot.boot("kernel", kernel, log_path=log, timeout=timeout, cpu=cpu,
                                    cmdline=cmdline, modules=modules, echo=echo,
                                    smp="%d,sockets=1,cores=%d,threads=2" % (2 * cores, cores))
        except ValueError as e:
            raise BootError(str(e))
    return result, pmu_records.parse(result.log)


def write_image(path, bundles, append="", build=None):
    """A stick image with the bundles, by FILE's extension: .iso or .img."""
    build = build or os.path.join(TOP, "build")
    words = check_words(append)
    if not 1 <= len(bundles) <= MAX_BUNDLES:
        raise BootError("--image: 1 to %d bundles, not %d" % (MAX_BUNDLES, len(bundles)))
    check_image_name(path)
    if path.endswith(".iso"):
        return _write_iso(path, bundles, words, build)
    return _write_esp(path, bundles, words, build)


def check_image_name(path):
    if not path.endswith((".iso", ".img")):
        raise BootError("--image %s: the name ends in .iso (GRUB, BIOS and UEFI, CD or USB "
                        "stick) or .img (the native UEFI loader's FAT image, USB stick)" % path)


def grub_config(count, words):
    """boot/grub.cfg's console set-up (everything before its first menu entry), then an entry
    that loads the bundles as modules and one that boots without them."""
    with open(os.path.join(TOP, "boot", "grub.cfg")) as f:
        head = f.read().split("\nmenuentry ", 1)[0]
    line = " ".join(["/boot/pmu-testkernel.elf", BASE_WORDS] + words)
    modules = "".join("\tmodule2 /boot/bench/%s %s\n" % (n, n) for n in iso_names(count))
    return (head.rstrip("\n") + "\n\n"
            "# Written by tools/pmu-bench --image: the bundles run in this order.\n"
            'menuentry "pmu-testkernel: your own code (%d bundle%s)" {\n'
            "\tmultiboot2 %s\n%s\tboot\n}\n"
            'menuentry "pmu-testkernel: boot check only (no bundles)" --hotkey=b {\n'
            "\tmultiboot2 %s\n\tboot\n}\n"
            'menuentry "Reboot" {\n\treboot\n}\n' % (
                count, "" if count == 1 else "s", line, modules, line))


def _write_iso(path, bundles, words, build):
    kernel = _need(os.path.join(build, "pmu-testkernel.elf"), "the kernel")
    if shutil.which("grub-mkrescue") is None:
        raise BootError("grub-mkrescue is missing; tools/deps.sh installs it")
    with tempfile.TemporaryDirectory(prefix="pmu-bench-iso-") as tmp:
        tree = os.path.join(tmp, "iso")
        os.makedirs(os.path.join(tree, "boot", "grub"))
        os.makedirs(os.path.join(tree, "boot", "bench"))
        shutil.copyfile(kernel, os.path.join(tree, "boot", "pmu-testkernel.elf"))
        for src, name in zip(bundles, iso_names(len(bundles))):
            shutil.copyfile(src, os.path.join(tree, "boot", "bench", name))
        with open(os.path.join(tree, "boot", "grub", "grub.cfg"), "w") as f:
            f.write(grub_config(len(bundles), words))
        proc = subprocess.run(["grub-mkrescue", "--mbr-force-bootable", "--locales=",
                               "--themes=", "--fonts=", "-o", path, tree],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise BootError("grub-mkrescue failed:\n" + (proc.stderr or proc.stdout)[-2000:])
    return path


def cmdline_txt(words):
    return ("# pmu-testkernel command line, written by tools/pmu-bench --image: the kernel runs\n"
            "# the bundles BENCH1.BIN, BENCH2.BIN, ... beside this file, in that order.\n"
            "%s\n" % " ".join([BASE_WORDS] + words))


def _write_esp(path, bundles, words, build):
    loader = _need(os.path.join(build, "efi", "BOOTX64.EFI"), "the native UEFI loader")
    mbr = _need(os.path.join(build, "efi", "mbr.bin"), "the image's MBR code")
    with tempfile.TemporaryDirectory(prefix="pmu-bench-img-") as tmp:
        cmdline = os.path.join(tmp, "cmdline.txt")
        with open(cmdline, "w") as f:
            f.write(cmdline_txt(words))
        files = [(loader, "/EFI/BOOT/BOOTX64.EFI"), (cmdline, "/EFI/BOOT/cmdline.txt")]
        files += [(src, "/EFI/BOOT/" + n) for src, n in zip(bundles, esp_names(len(bundles)))]
        with open(mbr, "rb") as f:
            code = f.read()
        try:
            efi_image.create(path, code, files)
        except (efi_image.ImageError, OSError) as e:
            raise BootError("--image %s: %s" % (path, e))
    return path
