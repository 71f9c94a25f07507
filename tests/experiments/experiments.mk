# tests/experiments/: the erratum experiments (kernel code: event lists, offsets, verdict rules).
KERNEL_SRCS += $(wildcard tests/experiments/*.c)
