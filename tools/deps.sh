#!/bin/sh
# Check that every Debian package the project needs is installed; install the missing ones with
# apt-get when running as root, otherwise print the one command that would do it and fail.
#
#   tools/deps.sh            check and install
#   tools/deps.sh --list     print the package list
#
# `make run` and `make test` call this first, so a fresh Debian 12 machine needs no other step.

set -u

# What each package is for:
#   gcc make binutils        the kernel, the host tools and the host tests
#   nasm                     boot/ entry and AP trampoline
#   grub-common grub-pc-bin grub-efi-amd64-bin xorriso mtools
#                            grub-mkrescue: the BIOS+UEFI ISO/USB image; mtools also builds the
#                            FAT image of the native UEFI loader
#   gnu-efi                  the native UEFI loader (boot/efi)
#   qemu-system-x86          the QEMU boot tests and `make run` (SeaBIOS comes with it)
#   ovmf                     UEFI firmware for the QEMU boot tests
#   libcmocka-dev            host unit tests of the pure code
#   libpfm4-dev              test_libpfm4: libpfm4's encodings, an independent oracle for the
#                            event names (tests/host/test_libpfm4.c)
#   python3 python3-matplotlib
#                            the QEMU test driver, tools/pmu-report and its plots
#   python3-hypothesis       the property tests of tools/pmu-report (tests/report) and of
#                            tools/pmu-bench (tests/owncode)
#   python3-capstone         tools/pmu-bench: the decode table of a bundle's machine code (what
#                            each instruction is, for the model PMU's trace)
#   libzydis-dev             test_decode_zydis: a second decoder, which lists implicit memory
#                            operands, as an oracle for that table (tests/host/test_decode_zydis.c)
#   clang-14 libclang-rt-14-dev
#                            the libFuzzer harnesses of the parsers (tests/fuzz): the compiler,
#                            and its runtime with libFuzzer and the sanitizers
#   clang-format-14          the house style (.clang-format): make format, tests/style
#   console-setup-linux      the Terminus console font (PSF) the kernel draws its screen with,
#                            converted into C at build time (kernel/font.h)
#   tesseract-ocr tesseract-ocr-eng python3-pil
#                            the screen tests: OCR of QEMU's screendump (tests/qemu/cases_screen.py);
#                            python3-pil also reads the photos of the QR codes and makes the
#                            degraded ones of the tests and tools/qr-measure (tools/qr_photo.py)
#   zlib1g-dev libqrcodegen-dev
#                            the end-of-run screen's QR codes (kernel/qr/): libz.a (deflate with a
#                            preset dictionary) and libqrcodegen.a, linked into the kernel's ring-3
#                            code, and into tools/src/qr-pages, which draws the pages on the host
#   python3-zxing-cpp        pmu-report --from-photos: zxing-cpp reads the QR codes in the photos
#   zbar-tools               pmu-report --from-photos: zbarimg reads what zxing-cpp left unread
#   qrencode                 the report's tests make QR pictures of a log on the host
#                            (tests/report/test_compare_cli.py), a second encoder beside the kernel's
#   ffmpeg                   pmu-report --from-photos reads a video of the screen (its frames);
#                            tools/qemu-run --video and the QR tests make one of the pages
#   python3-numpy            the video's frames as arrays for zxing-cpp, the photos' keystone and
#                            lamp (tools/qr_photo.py)
PACKAGES="gcc make binutils nasm grub-common grub-pc-bin grub-efi-amd64-bin xorriso mtools
gnu-efi qemu-system-x86 ovmf libcmocka-dev libpfm4-dev python3 python3-matplotlib
python3-hypothesis python3-capstone libzydis-dev clang-14 libclang-rt-14-dev clang-format-14
console-setup-linux tesseract-ocr tesseract-ocr-eng python3-pil zlib1g-dev libqrcodegen-dev
python3-zxing-cpp zbar-tools qrencode ffmpeg python3-numpy"

if [ "${1:-}" = "--list" ]; then
	echo $PACKAGES
	exit 0
fi

missing=""
for p in $PACKAGES; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	case "$status" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done

[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing Debian packages:$missing" >&2
	echo "deps: install them with:" >&2
	echo "  sudo $cmd" >&2
	exit 1
fi

echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have empty package lists: update once when the first attempt fails.
if ! $cmd >/dev/null 2>&1; then
	apt-get update -q >/dev/null 2>&1 || true
	if ! $cmd; then
		echo "deps: apt-get failed; run as root: $cmd" >&2
		exit 1
	fi
fi
echo "deps: done" >&2
exit 0
