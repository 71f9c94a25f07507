# kernel/: the machine. Pure parsers (command line, records, formatted output, ACPI, topology)
# are listed in KERNEL_PURE and also compiled into the host tests.
KERNEL_PURE :=
PURE_SRCS += $(KERNEL_PURE)
KERNEL_SRCS += kernel/libc/string.c
# GCC would otherwise recognise the loops in memcpy/memset and compile them into calls to
# memcpy/memset themselves.
$(BUILD)/kernel/kernel/libc/string.o: KERNEL_CFLAGS += -fno-tree-loop-distribute-patterns
