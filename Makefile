# pmu-testkernel: a bare-metal x86-64 kernel that reproduces the BJ122/BV98/HSD29 cross-hyperthread
# counter corruption and shows XSU scheduling with Hopcroft-Karp counter assignment removing it.
#
#   make            kernel, host tools, host tests
#   make image      build/pmu-testkernel.iso (BIOS + UEFI, CD or USB stick) and
#                   build/pmu-testkernel-efi.img (the native UEFI loader, USB stick)
#   make run        the default experiment suite in QEMU, then the report
#   make test       every test (host unit tests and QEMU boots); last line "N passed, N failed"
#   make bench      scheduler timings, pmu-report's time against a log's size and the comparison's
#   make fuzz       the parsers' libFuzzer harnesses, FUZZ_SECONDS (60) each (tests/fuzz/)
#   make V=1 ...    show the commands
#
# Every folder describes its own sources in a fragment (<folder>/*.mk); this file holds the rules.

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:
# Objects are intermediate files of several rules; keep them between builds.
.SECONDARY:

BUILD := build
V ?= 0
ifeq ($(V),1)
Q :=
say := @true
else
Q := @
say := @printf '  %-7s %s\n'
endif

CC := gcc
NASM := nasm
OBJCOPY := objcopy
PYTHON := /usr/bin/python3

WARN := -Wall -Wextra -Werror
DEPFLAGS = -MMD -MP

# The kernel: freestanding, no red zone (interrupts arrive on the current stack), no SSE/x87 in
# kernel code (so the tick handler never has to save vector state), frame pointers for backtraces.
# Our own <string.h> and <ctype.h> come from kernel/libc/include; gcc's freestanding headers give
# <stdint.h>, <stddef.h>, <stdbool.h>, <stdarg.h>.
KERNEL_CFLAGS := -std=gnu11 -O2 -g $(WARN) -ffreestanding -nostdinc \
	-isystem $(shell $(CC) -print-file-name=include) -Ikernel/libc/include -I. \
	-fno-pic -fno-pie -fno-stack-protector -fno-omit-frame-pointer -mno-red-zone \
	-mgeneral-regs-only -fno-asynchronous-unwind-tables -fcf-protection=none \
	-mcmodel=small -DPMU_KERNEL=1
# Workloads (tests/ring3) run at CPL 3 on the siblings and may use SSE/AVX once the kernel has
# enabled them. Their sections are renamed to .user.* so the linker places them on user pages.
RING3_CFLAGS := $(filter-out -mgeneral-regs-only,$(KERNEL_CFLAGS)) -msse2 -fno-builtin \
	-fno-tree-loop-distribute-patterns
KERNEL_LDFLAGS := -nostdlib -static -no-pie -Wl,-n -Wl,-z,max-page-size=0x1000 -Wl,--no-warn-rwx-segments -Wl,-z,noexecstack \
	-Wl,--build-id=none -T linker.ld
NASMFLAGS := -f elf64 -g -F dwarf -w+all -w-unknown-warning -I.

# Host builds of the pure code: unit tests with the sanitizers, tools and benchmarks optimised.
HOST_CFLAGS := -std=gnu11 -O1 -g $(WARN) -I. -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all
HOST_LDFLAGS := -fsanitize=address,undefined -pthread
TOOL_CFLAGS := -std=gnu11 -O2 -g $(WARN) -I.

# Filled in by the fragments.
PURE_SRCS :=        # pure C: compiled into the kernel and into host tests and tools
KERNEL_SRCS :=      # kernel-only C and NASM
RING3_SRCS :=    # ring-3 workloads, linked into the kernel on user pages
HOST_TESTS :=       # names N of host unit tests: tests/host/N.c -> $(BUILD)/host/tests/N
HOST_TEST_SRCS :=   # extra host-only sources linked into every host test (fakes, fixtures)
TOOLS :=            # host programs, $(BUILD)/tools/<name>
BENCH_PROGS :=      # programs `make bench` runs, in order
IMAGE_FILES :=      # files `make image` produces
KERNEL_LINK_OBJS := # objects a fragment builds itself and links into the kernel (kernel/qr)

# Before the fragments: make expands the prerequisites of their rules as it reads them.
KERNEL_ELF := $(BUILD)/pmu-testkernel.elf

include boot/boot.mk
include kernel/kernel.mk
include pmu/pmu.mk
include tests/payload.mk
include tests/ring3/ring3.mk
include tests/experiments/experiments.mk
include tests/owncode/owncode.mk
include tests/profiles/profiles.mk
include tests/host/host.mk
include tools/tools.mk
include tests/fuzz/fuzz.mk
include tests/report/report.mk
include tests/style/style.mk

kernel_obj = $(patsubst %.c,$(BUILD)/kernel/%.o,$(patsubst %.asm,$(BUILD)/kernel/%.o,$(1)))
KERNEL_OBJS := $(call kernel_obj,$(KERNEL_SRCS) $(PURE_SRCS))
RING3_OBJS := $(patsubst %.c,$(BUILD)/ring3/%.o,$(RING3_SRCS))
HOST_PURE_OBJS := $(patsubst %.c,$(BUILD)/host/%.o,$(PURE_SRCS) $(HOST_TEST_SRCS))
TOOL_PURE_OBJS := $(patsubst %.c,$(BUILD)/tools/obj/%.o,$(PURE_SRCS))
HOST_TEST_BINS := $(addprefix $(BUILD)/host/tests/,$(HOST_TESTS))

.PHONY: all kernel image run test bench clean deps format check-format FORCE
all: kernel $(HOST_TEST_BINS) $(addprefix $(BUILD)/tools/,$(TOOLS))
kernel: $(KERNEL_ELF)

# tools/deps.sh installs the Debian packages the project needs (or prints the command to).
DEPS ?= tools/deps.sh
deps:
	$(Q)$(DEPS)

# ---- kernel -------------------------------------------------------------------------------------
$(BUILD)/kernel/%.o: %.c
	$(say) CC $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(KERNEL_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/kernel/%.o: %.asm
	$(say) NASM $<
	@mkdir -p $(@D)
	$(Q)$(NASM) $(NASMFLAGS) -MD $(@:.o=.d) -MP $< -o $@

$(BUILD)/ring3/%.o: %.c
	$(say) CC $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(RING3_CFLAGS) $(DEPFLAGS) -MT $@ -c $< -o $@.tmp
	$(Q)$(OBJCOPY) --prefix-alloc-sections=.user $@.tmp $@ && rm -f $@.tmp

# Ring-3 code may only call ring-3 code: a call into the kernel's pages (say, a memcpy GCC
# emitted) would fault at CPL 3. Linked alone, the workloads must leave nothing undefined.
$(BUILD)/ring3/user.o: $(RING3_OBJS)
	$(say) CHECK "ring-3 code is self-contained"
	$(Q)ld -r -o $@ $(RING3_OBJS)
	$(Q)undefined=$$(nm -u $@); if [ -n "$$undefined" ]; then \
		echo "ring-3 workloads call outside their pages:"; echo "$$undefined"; rm -f $@; exit 1; fi

$(KERNEL_ELF): $(KERNEL_OBJS) $(BUILD)/ring3/user.o $(KERNEL_LINK_OBJS) linker.ld
	$(say) LD $@
	$(Q)$(CC) $(KERNEL_LDFLAGS) -o $@ $(KERNEL_OBJS) $(BUILD)/ring3/user.o \
		$(KERNEL_LINK_OBJS) -lgcc

# ---- host: unit tests and tools -----------------------------------------------------------------
$(BUILD)/host/%.o: %.c
	$(say) HOSTCC $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(HOST_CFLAGS) $(DEPFLAGS) -c $< -o $@

# HOST_TEST_LIBS_<name>: the extra libraries of one host test (tests/host/host.mk).
$(BUILD)/host/tests/%: $(BUILD)/host/tests/host/%.o $(HOST_PURE_OBJS)
	$(say) HOSTLD $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(HOST_LDFLAGS) -o $@ $^ -lcmocka -lm $(HOST_TEST_LIBS_$*)

$(BUILD)/tools/obj/%.o: %.c
	$(say) HOSTCC $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(TOOL_CFLAGS) $(DEPFLAGS) -c $< -o $@

# ---- front door ---------------------------------------------------------------------------------
# `make run`, `make test` and `make bench` first have tools/deps.sh install what is missing, then
# build in a second make: nothing the build needs (a library's path, a header) is looked up before
# the packages are there, so the first command on a fresh machine works (tests/build).
FRONT_DOORS := run test bench
ifeq ($(DEPS_DONE),)
$(FRONT_DOORS): deps
	$(Q)$(MAKE) --no-print-directory DEPS_DONE=1 $@
else
# `make run` boots the default suite in QEMU (one core's two threads, Haswell, model PMU), keeps
# the serial log in $(BUILD)/run/serial.log and prints the report.
RUN_ARGS ?=
run: kernel
	$(Q)$(PYTHON) tools/qemu-run --log $(BUILD)/run/serial.log $(RUN_ARGS)
	$(Q)$(PYTHON) tools/pmu-report --out $(BUILD)/run/results $(BUILD)/run/serial.log

# `make test` runs everything; `make test T=regex` runs the tests whose names match.
T ?=
test: all image
	$(Q)$(PYTHON) tests/run.py --build $(BUILD) $(if $(T),--filter '$(T)')

bench: $(BENCH_PROGS)
	$(Q)set -e; for p in $(BENCH_PROGS); do ./$$p; done
endif

clean:
	rm -rf $(BUILD)

FORMAT_SRCS = $(shell git ls-files '*.c' '*.h')
CLANG_FORMAT = clang-format-14
format:
	$(CLANG_FORMAT) -i $(FORMAT_SRCS)
check-format:
	$(Q)$(CLANG_FORMAT) --dry-run --Werror $(FORMAT_SRCS)

# Prerequisite of rules that must always run (they decide themselves whether anything changed).
FORCE:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
