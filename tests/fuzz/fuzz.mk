# tests/fuzz/: libFuzzer harnesses of the kernel's parsers (tests/fuzz/fuzz_<name>.c), built with
# clang's -fsanitize=fuzzer plus AddressSanitizer and UBSan against the same pure sources the
# host tests compile. `make fuzz` runs each for FUZZ_SECONDS and prints what it found;
# `make test` runs each for a few seconds (tests/fuzz/test_fuzz.py). Seeds: tests/fuzz/seeds/.
CLANG := clang-14
FUZZERS := cmdline config event_parse acpi multiboot load_options bundle
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS := -std=gnu11 -O1 -g $(WARN) -I. -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all
# The parsers and what they call: the pure code of kernel/ and pmu/ (with what the build
# generates for them, the event tables and the font; of the payload's under tests/ its
# command-line keys and their check, with the experiments' table and rules it names), the EFI
# load options, the fake physical memory of the host tests, the harnesses' shared input helpers.
FUZZ_LIB_SRCS := $(filter-out tests/%,$(PURE_SRCS)) tests/lib/payload_config.c tests/payload_check.c \
	$(EXPERIMENTS_PURE) boot/efi/load_options.c \
	tests/host/lib/fake_phys.c tests/fuzz/fuzz_input.c
FUZZ_LIB_OBJS := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(FUZZ_LIB_SRCS))
FUZZ_BINS := $(addprefix $(BUILD)/fuzz/bin/fuzz_,$(FUZZERS))

$(BUILD)/fuzz/obj/%.o: %.c
	$(say) FUZZCC $<
	@mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(DEPFLAGS) -c $< -o $@

$(BUILD)/fuzz/bin/fuzz_%: $(BUILD)/fuzz/obj/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJS)
	$(say) FUZZLD $@
	@mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^

# The bundle reader is pure code under tests/owncode/, which FUZZ_LIB_SRCS leaves out.
$(BUILD)/fuzz/bin/fuzz_bundle: $(BUILD)/fuzz/obj/tests/owncode/bundle.o

.PHONY: fuzz
fuzz: deps $(FUZZ_BINS)
	$(Q)$(PYTHON) tests/fuzz/fuzzers.py --build $(BUILD) --seconds $(FUZZ_SECONDS)

# The smoke run of every fuzzer is one of `make test`'s tests.
test: $(FUZZ_BINS)
