# tests/owncode/: your own code on both siblings (docs/own-code.md). The bundle reader and the
# numbers of bench_result are pure: the kernel runs bundles with them, the host tests
# (tests/host/test_bundle.c, test_bench_aggregate.c) and the fuzzer (tests/fuzz/fuzz_bundle.c)
# check them. The Python tests of tools/pmu-bench live here too (tests/run.py finds them).
OWNCODE_PURE := tests/owncode/bundle.c tests/owncode/aggregate.c tests/owncode/codegen.c \
	tests/owncode/trace.c
PURE_SRCS += $(OWNCODE_PURE)
# The kernel's side: the bundles as boot modules, run on the pair (tests/owncode/bench.h).
KERNEL_SRCS += tests/owncode/bench.c tests/owncode/bench_exec.c tests/owncode/bench_model.c \
	tests/owncode/bench_pass.c \
	tests/owncode/bench_record.c

# The host test reads bundles that tools/pmu-bench writes: the Python writer against the C
# reader. The fixture's options and expected contents are in tests/host/test_bundle.c.
BUNDLE_FIXTURE := $(BUILD)/owncode/fixture/bundle.bin
BUNDLE_SIBLING_FIXTURE := $(BUILD)/owncode/sibling/bundle.bin
PMU_BENCH := tools/pmu-bench $(wildcard tools/pmu_bench_*.py)

$(BUNDLE_FIXTURE): $(PMU_BENCH) tests/owncode/fixture.cfg
	$(say) BUNDLE $@
	@mkdir -p $(@D)
	$(Q)$(PYTHON) tools/pmu-bench -asm_init "mov RAX, R14; sub RAX, 8; mov [RAX], RAX" \
		-asm "mov RAX, [RAX]; push RAX; pop RBX; |5" -asm_late_init "lea RBX, [RSP]" \
		-config tests/owncode/fixture.cfg -fixed_counters -unroll_count 500 -loop_count 7 \
		-n_measurements 12 -median -xsu core --out $(@D) 2>$(@D).log || \
		{ cat $(@D).log; exit 1; }
$(BUNDLE_SIBLING_FIXTURE): $(PMU_BENCH) tests/owncode/fixture.cfg
	$(say) BUNDLE $@
	@mkdir -p $(@D)
	$(Q)$(PYTHON) tools/pmu-bench -asm "" -sibling_work idle -sibling_config \
		tests/owncode/fixture.cfg -ring 0 -basic_mode -no_normalization -xsu off \
		--out $(@D) 2>$(@D).log || { cat $(@D).log; exit 1; }

$(BUILD)/host/tests/host/test_bundle.o: $(BUNDLE_FIXTURE) $(BUNDLE_SIBLING_FIXTURE)
$(BUILD)/host/tests/host/test_bundle.o: HOST_CFLAGS += \
	-DBUNDLE_FIXTURE='"$(CURDIR)/$(BUNDLE_FIXTURE)"' \
	-DBUNDLE_SIBLING_FIXTURE='"$(CURDIR)/$(BUNDLE_SIBLING_FIXTURE)"'

# The decode table against Zydis (tests/host/test_decode_zydis.c): the corpus's statements are one
# -asm argument, a statement a line.
BUNDLE_CORPUS := $(BUILD)/owncode/corpus/bundle.bin
$(BUNDLE_CORPUS): $(PMU_BENCH) tests/owncode/decode_corpus.s
	$(say) BUNDLE $@
	@mkdir -p $(@D)
	$(Q)$(PYTHON) tools/pmu-bench -asm "$$(cat tests/owncode/decode_corpus.s)" -fixed_counters \
		-unroll_count 1 --out $(@D) 2>$(@D).log || { cat $(@D).log; exit 1; }
$(BUILD)/host/tests/host/test_decode_zydis.o: $(BUNDLE_CORPUS)
$(BUILD)/host/tests/host/test_decode_zydis.o: HOST_CFLAGS += \
	-DBUNDLE_CORPUS='"$(CURDIR)/$(BUNDLE_CORPUS)"'

# The generated code and the trace's counts on the same fixture (tests/host/test_bench_trace.c).
$(BUILD)/host/tests/host/test_bench_trace.o: $(BUNDLE_FIXTURE)
$(BUILD)/host/tests/host/test_bench_trace.o: HOST_CFLAGS += \
	-DBUNDLE_FIXTURE='"$(CURDIR)/$(BUNDLE_FIXTURE)"'
