# tests/experiments/: the erratum experiments. The table and the verdict rules are pure (host-
# tested); the runner and the suite drive the machine.
EXPERIMENTS_PURE := tests/experiments/experiments.c tests/experiments/verdict.c
PURE_SRCS += $(EXPERIMENTS_PURE)
KERNEL_SRCS += $(filter-out $(EXPERIMENTS_PURE),$(wildcard tests/experiments/*.c))
