#!/usr/bin/python3
"""The FAT image of the native UEFI loader (build/pmu-testkernel-efi.img), made without root.

    tools/efi_image.py create IMAGE --mbr MBR.BIN --file SRC=/DEST [--file ...]
    tools/efi_image.py add IMAGE --file SRC=/DEST [--file ...]

Layout, as USB sticks that UEFI firmware of 2011-2015 boots are laid out (a Windows 8 install
stick made by Microsoft's tools looks the same): an MBR partition table with one FAT32 partition
(type 0x0C, FAT32 with LBA, marked active) from 1 MiB on, holding \\EFI\\BOOT\\BOOTX64.EFI, the
removable-media boot path (UEFI 2.10, 3.5.1.1). The MBR's boot code (boot/efi/mbr.asm) tells a
legacy BIOS that the stick boots under UEFI only. The partition table is written here; the file
system by mtools, addressing the partition as IMAGE@@OFFSET, so no loop device is needed.

Also imported by the QEMU tests (tests/qemu/cases_uefi.py) to put a cmdline.txt into a copy.
"""

import argparse
import os
import struct
import subprocess
import sys
import tempfile

SECTOR = 512
IMAGE_BYTES = 40 << 20          # 40 MiB: room for FAT32 with 512-byte clusters (> 65524)
PARTITION_START = 2048          # LBA: 1 MiB, the alignment partitioning tools use since 2009
PARTITION_TYPE_FAT32_LBA = 0x0C
DISK_SIGNATURE = 0x54554D50     # "PMUT"
VOLUME_LABEL = "PMU-TESTKRN"
BOOT_CODE_BYTES = 440
# The geometry BIOSes translate LBA disks to: 255 heads, 63 sectors per track.
HEADS, SECTORS_PER_TRACK = 255, 63


class ImageError(Exception):
    pass


def chs(lba):
    """The 3-byte CHS address of an LBA in a partition entry (1023/254/63 when out of reach)."""
    cylinder = lba // (HEADS * SECTORS_PER_TRACK)
    head = (lba // SECTORS_PER_TRACK) % HEADS
    sector = lba % SECTORS_PER_TRACK + 1
    if cylinder > 1023:
        cylinder, head, sector = 1023, 254, 63
    return bytes([head, sector | ((cylinder >> 2) & 0xC0), cylinder & 0xFF])


def mbr(boot_code, start, sectors):
    """Boot code, disk signature and a partition table with one active FAT32 partition."""
    if len(boot_code) > BOOT_CODE_BYTES:
        raise ImageError("MBR boot code is %d bytes, at most %d fit"
                         % (len(boot_code), BOOT_CODE_BYTES))
    entry = (bytes([0x80]) + chs(start) + bytes([PARTITION_TYPE_FAT32_LBA])
             + chs(start + sectors - 1) + struct.pack("<II", start, sectors))
    sector = bytearray(SECTOR)
    sector[:len(boot_code)] = boot_code
    sector[440:446] = struct.pack("<IH", DISK_SIGNATURE, 0)
    sector[446:462] = entry
    sector[510:512] = b"\x55\xaa"
    return bytes(sector)


def partition_offset(image):
    """Byte offset of the image's first partition, from its MBR."""
    with open(image, "rb") as f:
        sector = f.read(SECTOR)
    if len(sector) < SECTOR or sector[510:512] != b"\x55\xaa":
        raise ImageError("%s has no MBR" % image)
    start = struct.unpack_from("<I", sector, 446 + 8)[0]
    if start == 0:
        raise ImageError("%s has no first partition" % image)
    return start * SECTOR


def _mtools(tool, image, *args, check=True):
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    target = "%s@@%d" % (image, partition_offset(image))
    proc = subprocess.run([tool, "-i", target] + list(args), env=env, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)
    if check and proc.returncode != 0:
        raise ImageError("%s %s failed: %s" % (tool, " ".join(args),
                                               (proc.stderr or proc.stdout).strip()))
    return proc.returncode == 0


def _directories(dest):
    """The directories above a path like /EFI/BOOT/BOOTX64.EFI, outermost first."""
    parts = dest.strip("/").split("/")[:-1]
    return ["/" + "/".join(parts[:i + 1]) for i in range(len(parts))]


def add_file(image, source, dest, made=None):
    """Copy a host file to dest (an absolute path in the FAT file system), replacing it."""
    made = set() if made is None else made
    for directory in _directories(dest):
        if directory not in made and not _mtools("mdir", image, "-b", "::" + directory,
                                                 check=False):
            _mtools("mmd", image, "::" + directory)
        made.add(directory)
    _mtools("mcopy", image, "-o", "-D", "o", source, "::" + dest)


def add_data(image, dest, data):
    """Write bytes to dest in the image (through a scratch file beside the image)."""
    with tempfile.NamedTemporaryFile(dir=os.path.dirname(os.path.abspath(image)),
                                     prefix=".efi_image-") as f:
        f.write(data)
        f.flush()
        add_file(image, f.name, dest)


def add_directory(image, dest):
    """An empty directory at dest (the tests put one where the loader looks for a file)."""
    for directory in _directories(dest):
        if not _mtools("mdir", image, "-b", "::" + directory, check=False):
            _mtools("mmd", image, "::" + directory)
    _mtools("mmd", image, "::" + dest)


def create(image, boot_code, files, size=IMAGE_BYTES):
    """A new image of size bytes (IMAGE_BYTES: what `make image` writes) holding files, a list
    of (host file, absolute path in the FAT file system)."""
    sectors = size // SECTOR - PARTITION_START
    tmp = image + ".tmp"
    with open(tmp, "wb") as f:
        f.truncate(size)
        f.write(mbr(boot_code, PARTITION_START, sectors))
    # FAT32, one sector per cluster, two FATs; hidden sectors = where the partition starts (the
    # BPB records it); fixed serial number so that the image is the same from build to build.
    _mtools("mformat", tmp, "-F", "-c", "1", "-T", str(sectors), "-h", str(HEADS),
            "-s", str(SECTORS_PER_TRACK), "-H", str(PARTITION_START), "-v", VOLUME_LABEL,
            "-N", "%08x" % DISK_SIGNATURE, "::")
    made = set()
    for source, dest in files:
        add_file(tmp, source, dest, made)
    os.replace(tmp, image)


def _file_args(values):
    files = []
    for value in values or []:
        source, sep, dest = value.partition("=")
        if not sep or not dest.startswith("/"):
            raise ImageError("--file takes SRC=/DEST, got %r" % value)
        files.append((source, dest))
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("create", help="write a new image")
    p.add_argument("image")
    p.add_argument("--mbr", required=True, help="MBR boot code (at most 440 bytes)")
    p.add_argument("--file", action="append", help="SRC=/DEST")
    p = sub.add_parser("add", help="add or replace files in an image")
    p.add_argument("image")
    p.add_argument("--file", action="append", required=True, help="SRC=/DEST")
    args = parser.parse_args()
    try:
        files = _file_args(args.file)
        if args.command == "create":
            with open(args.mbr, "rb") as f:
                create(args.image, f.read(), files)
        else:
            made = set()
            for source, dest in files:
                add_file(args.image, source, dest, made)
    except (ImageError, OSError) as e:
        print("efi_image: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
