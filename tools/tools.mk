# tools/: host programs. Each tool N is built as $(BUILD)/tools/N from tools/src/N/*.c and the
# pure objects; tools/N itself is a small wrapper that builds it when needed and runs it. (The
# sources cannot live in tools/N/: that path is the wrapper.)
#
# TOOL_PURE_OBJS is defined by the top-level Makefile after this fragment is read, hence the
# second expansion of the link prerequisites.
.SECONDEXPANSION:

tool_objs = $(patsubst %.c,$(BUILD)/tools/obj/%.o,$(wildcard tools/src/$(1)/*.c))

# The scheduling simulator of the thesis, section 7.2 (docs/schedsim.md). --fair-sweep measures
# the XSU policies against the exact optimum with the host tests' references (random lists, the
# enumeration of joint placements, the max-min linear programme), built here without sanitizers.
TOOLS += schedsim
SCHEDSIM_REFERENCE := $(patsubst %.c,$(BUILD)/tools/obj/%.o,$(addprefix tests/host/lib/,\
	brute_force.c joint_placements.c leximin.c random_lists.c))
$(BUILD)/tools/schedsim: $(call tool_objs,schedsim) $(SCHEDSIM_REFERENCE) $$(TOOL_PURE_OBJS)
	$(say) LD $@
	$(Q)$(CC) -o $@ $^

# `make bench`: greedy and Hopcroft-Karp cost per scheduling call, side by side.
BENCH_PROGS += $(BUILD)/tools/schedbench
$(BUILD)/tools/schedbench: $(call tool_objs,schedbench) $$(TOOL_PURE_OBJS)
	$(say) LD $@
	$(Q)$(CC) -o $@ $^

# The converter of the screen's PSF font into C (kernel/font.h), run while building the kernel.
$(BUILD)/tools/psf2c: $(call tool_objs,psf2c)
	$(say) LD $@
	$(Q)$(CC) -o $@ $^

# Its PSF reader is host-tested (tests/host/test_psf.c).
$(BUILD)/host/tests/test_psf: $(BUILD)/host/tools/src/psf2c/psf.o

# The pages of QR codes a screen would show for a log, drawn by the kernel's code (kernel/qr/), for
# tools/qr-measure: the kernel's ring-3 pure code with the host's zlib and libqrcodegen.
TOOLS += qr-pages
QR_PAGES_QR_OBJS := $(patsubst %.c,$(BUILD)/tools/obj/%.o,$(QR_USER_PURE))
$(BUILD)/tools/qr-pages: $(call tool_objs,qr-pages) $(QR_PAGES_QR_OBJS) $$(TOOL_PURE_OBJS)
	$(say) LD $@
	$(Q)$(CC) -o $@ $^ -lz -lqrcodegen
