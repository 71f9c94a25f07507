# pmu/: events, microarchitecture tables, schedulers, XSU, multiplexing (pure), and the driver.
# Every pmu/*.c is pure code (kernel and host) unless listed in PMU_KERNEL_ONLY.
PMU_KERNEL_ONLY := pmu/backend_hw.c
PURE_SRCS += $(filter-out $(PMU_KERNEL_ONLY),$(wildcard pmu/*.c))
KERNEL_SRCS += $(PMU_KERNEL_ONLY)
