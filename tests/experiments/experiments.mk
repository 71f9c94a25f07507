# tests/experiments/: the erratum experiments. The table, the verdict rules and the leak survey's
# rule and events are pure (host-tested); the runner, the suite, the custom run and the survey's
# measurements drive the machine.
EXPERIMENTS_PURE := tests/experiments/experiments.c tests/experiments/verdict.c tests/experiments/rule.c \
	tests/experiments/thresholds.c \
	$(wildcard tests/experiments/rules_*.c) \
	tests/experiments/survey_rule.c tests/experiments/survey_events.c tests/experiments/stand_in.c
PURE_SRCS += $(EXPERIMENTS_PURE)
KERNEL_SRCS += $(filter-out $(EXPERIMENTS_PURE),$(wildcard tests/experiments/*.c))
