# tests/profiles/: selftest=profiles, the built-in workloads' code traced with the trap flag, so
# that the host can hold their model profiles against what the code does (docs/model.md). The
# histogram of a trace's edges is pure (tests/host/test_trace_edges.c).
PURE_SRCS += tests/profiles/edges.c
KERNEL_SRCS += tests/profiles/profiles.c
