# kernel/: the machine. Pure parsers (command line, records, formatted output, ACPI, topology)
# are listed in KERNEL_PURE and also compiled into the host tests.
KERNEL_PURE :=
PURE_SRCS += $(KERNEL_PURE)
KERNEL_SRCS += kernel/libc/string.c
