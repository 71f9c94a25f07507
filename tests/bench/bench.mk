# tests/bench/: the workloads the siblings run at CPL 3 (triad and friends).
WORKLOAD_SRCS += $(wildcard tests/bench/*.c)
