# tests/: the payload the kernel starts (kernel/payload.h): its entry point here, the boot checks
# in tests/checks/, the workloads' table and set-up in tests/workloads/ (their ring-3 loops are
# tests/bench/), the experiments in tests/experiments/.
KERNEL_SRCS += tests/payload.c $(wildcard tests/checks/*.c) $(wildcard tests/workloads/*.c)
