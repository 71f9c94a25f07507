# pmu/: events, microarchitecture tables, schedulers, XSU, multiplexing and the driver: every
# pmu/*.c is pure code (kernel and host), with no kernel header (the real MSR backend is
# kernel/pmu_backend_hw.c).
PURE_SRCS += $(wildcard pmu/*.c)

# Intel's event tables: pmu/intel_core_events.txt (committed; tools/perfmon-import makes it from
# Intel's perfmon data) becomes C at build time, by eventgen, for the kernel, schedsim and the host
# tests alike (layout: pmu/intel_events.h). The generated file is never committed.
INTEL_EVENTS_C := $(BUILD)/gen/pmu/intel_core_events.c
PURE_SRCS += $(INTEL_EVENTS_C)
EVENTGEN := $(BUILD)/tools/eventgen
EVENTGEN_OBJS := $(patsubst %.c,$(BUILD)/tools/obj/%.o,$(wildcard tools/src/eventgen/*.c))

$(EVENTGEN): $(EVENTGEN_OBJS)
	$(say) LD $@
	$(Q)$(CC) -o $@ $^

$(INTEL_EVENTS_C): pmu/intel_core_events.txt $(EVENTGEN)
	$(say) GEN $@
	@mkdir -p $(@D)
	$(Q)$(EVENTGEN) pmu/intel_core_events.txt $@
