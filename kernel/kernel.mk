# kernel/: the machine. Pure parsers and formatters (KERNEL_PURE) are also compiled into the host
# tests; the rest runs only in the kernel. kernel/lib/ is what the kernel shares with the code it
# runs at CPL 3 (kernel/qr, tests/ring3): formatted output, CRC-32, the system calls' numbers.
KERNEL_PURE := kernel/lib/format.c kernel/lib/crc32.c kernel/record.c kernel/cmdline.c kernel/config.c \
	kernel/cmdline_cut.c kernel/boot_modules.c \
	kernel/multiboot.c kernel/acpi.c kernel/apic.c kernel/topology.c kernel/memmap.c \
	kernel/fpu_plan.c kernel/tick_stats.c kernel/font.c kernel/screen.c kernel/framebuffer.c \
	kernel/syscall_rules.c kernel/qr_page_draw.c
PURE_SRCS += $(KERNEL_PURE)
KERNEL_SRCS += kernel/libc/string.c kernel/libc/strings.c kernel/isr.asm kernel/idt.c kernel/trap.c \
	kernel/extable.c kernel/gdt.c kernel/percpu.c kernel/paging.c kernel/serial.c \
	kernel/vga.c kernel/console.c kernel/record_stream.c kernel/end.c kernel/end_screen.c \
	kernel/exit.c \
	kernel/kmain.c kernel/apic_hw.c kernel/time.c \
	kernel/smp.c kernel/pair.c kernel/tick.c kernel/fpu.c kernel/user.c kernel/user_entry.asm kernel/user_rdpmc.c \
	kernel/syscall.c kernel/syscall_entry.asm kernel/page_alloc.c kernel/pmu.c kernel/pmu_backend_hw.c

# The screen's font (kernel/font.h): a Terminus PSF font of console-setup-linux, converted into C
# at build time (make SCREEN_FONT=/usr/share/consolefonts/... takes another of its PSF fonts).
# Generated under $(BUILD), never committed.
SCREEN_FONT ?= /usr/share/consolefonts/Uni2-Terminus16.psf.gz
SCREEN_FONT_C := $(BUILD)/gen/kernel/console_font.c
PURE_SRCS += $(SCREEN_FONT_C)
$(SCREEN_FONT_C): $(SCREEN_FONT) $(BUILD)/tools/psf2c
	$(say) PSF2C $<
	@mkdir -p $(@D)
	$(Q)gzip -dcf $< | $(BUILD)/tools/psf2c $(notdir $<) > $@
$(SCREEN_FONT):
	@echo "$@ is missing: tools/deps.sh installs it (Debian's console-setup-linux)" >&2; exit 1

# GCC would otherwise recognise the loops in memcpy/memset and compile them into calls to
# memcpy/memset themselves.
$(BUILD)/kernel/kernel/libc/string.o: KERNEL_CFLAGS += -fno-tree-loop-distribute-patterns

# The version in the boot record ties a log to the build that wrote it: version.h is rewritten
# whenever the version changes (a commit, a dirty tree), and kmain.o is rebuilt with it.
PMU_VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
$(BUILD)/kernel/version.h: FORCE
	@mkdir -p $(@D)
	@echo '#define PMU_VERSION "$(PMU_VERSION)"' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/kernel/kernel/kmain.o: $(BUILD)/kernel/version.h
$(BUILD)/kernel/kernel/kmain.o: KERNEL_CFLAGS += -include $(BUILD)/kernel/version.h

# The end-of-run screen's QR codes (kernel/qr/).
include kernel/qr/qr.mk
