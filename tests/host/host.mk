# tests/host/: cmocka unit tests of the pure code, one program per file test_<topic>.c.
# tests/host/lib/*.c (fixtures, fakes) are linked into every one of them.
HOST_TESTS += $(basename $(notdir $(wildcard tests/host/test_*.c)))
HOST_TEST_SRCS += $(wildcard tests/host/lib/*.c)

# test_intel_events reads the committed event table itself (not the C made from it).
$(BUILD)/host/tests/host/test_intel_events.o: HOST_CFLAGS += \
	-DINTEL_EVENTS_TABLE='"$(CURDIR)/pmu/intel_core_events.txt"'
# test_libpfm4 asks libpfm4 (Debian's libpfm4-dev) for its encodings, as an independent oracle.
HOST_TEST_LIBS_test_libpfm4 := -lpfm
# test_decode_zydis holds pmu-bench's decode table against Zydis (Debian's libzydis-dev).
HOST_TEST_LIBS_test_decode_zydis := -lZydis

# The workload table's test links the table with its set-ups, and the ring-3 loops themselves (plain
# x86-64 code, so they run on the host too), with a user_memory_alloc() of its own.
WORKLOAD_TABLE_SRCS := tests/workloads/workloads.c $(RING3_SRCS)
$(BUILD)/host/tests/test_workloads: $(patsubst %.c,$(BUILD)/host/%.o,$(WORKLOAD_TABLE_SRCS))
