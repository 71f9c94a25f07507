# tests/: the payload the kernel starts (kernel/payload.h): its entry point here, the boot checks
# in tests/checks/, the workloads' table and set-up in tests/workloads/ (their ring-3 loops are
# tests/ring3/), the experiments in tests/experiments/. The random data of the set-ups is pure
# (host-tested).
WORKLOADS_PURE := tests/workloads/random_data.c
PURE_SRCS += $(WORKLOADS_PURE) tests/lib/payload_config.c tests/payload_check.c
KERNEL_SRCS += tests/payload.c tests/lib/check.c $(wildcard tests/checks/*.c) \
	$(filter-out $(WORKLOADS_PURE),$(wildcard tests/workloads/*.c))
