# kernel/qr/: the run's records as QR codes (docs/qr-codes.md), which the end-of-run screen
# (kernel/end_screen.c) shows. It includes nothing of kernel/ but its library (kernel/lib/).
#
# At CPL 0, in the kernel: the copy of the records, the screens' plans, the pages' layout (pure,
# host-tested). Drawing a page on the framebuffer is the kernel's (kernel/qr_page_draw.c).
QR_PURE := kernel/qr/record_copy.c kernel/qr/plan.c kernel/qr/page.c
PURE_SRCS += $(QR_PURE)

# At CPL 3 (kernel/qr/job.h says why): making the codes, the chunks, Base45, the compressor and
# its dictionary, the codes' capacity (pure, and host-tested too), the glue and the C library
# functions, linked with Debian's static zlib and libqrcodegen into one object whose only global
# symbol is its entry and whose sections go to the user pages (.user.*, linker.ld).
QR_USER_PURE := kernel/qr/make.c kernel/qr/chunk.c kernel/qr/base45.c kernel/qr/capacity.c \
	kernel/qr/compress.c kernel/qr/dictionary.c
QR_USER_SRCS := $(QR_USER_PURE) kernel/lib/crc32.c kernel/qr/user_make.c kernel/qr/user_libc.c \
	kernel/libc/strings.c
QR_LIB_HEADERS := zlib.h zconf.h qrcodegen/qrcodegen.h
QR_LIB_DIR := $(BUILD)/gen/qr/lib
QR_LIBS := $(QR_LIB_DIR)/libz.a $(QR_LIB_DIR)/libqrcodegen.a
QR_INCLUDE := $(BUILD)/gen/qr/include
# Z_SOLO: zlib's header without the C library's headers (ring-3 code has none); the interface of
# the deflate functions is the same.
QR_USER_CFLAGS := $(RING3_CFLAGS) -I$(QR_INCLUDE) -DZ_SOLO
QR_USER_OBJS := $(patsubst %.c,$(BUILD)/qr-user/%.o,$(QR_USER_SRCS))
QR_USER := $(BUILD)/qr-user/qr_user.o
KERNEL_LINK_OBJS += $(QR_USER)
QR_MISSING := is missing: tools/deps.sh installs it (Debian's zlib1g-dev and libqrcodegen-dev)

# The libraries and their headers are copied where the compiler finds them, when a recipe
# needs them and not when make reads this file: on a fresh machine `make run` has tools/deps.sh
# install them first. The headers go alone: ring-3 code is built without the system's include path.
$(QR_LIB_DIR)/%.a:
	@mkdir -p $(@D)
	$(Q)found=$$($(CC) -print-file-name=$(@F)); \
	if [ ! -f "$$found" ]; then echo "$(@F) $(QR_MISSING)" >&2; exit 1; fi; cp "$$found" $@

$(QR_INCLUDE)/%.h:
	@mkdir -p $(@D)
	$(Q)found=$$($(CC) -M -E -x c /dev/null -include $*.h 2>/dev/null | tr ' \\' '\n\n' | \
		grep '/$*\.h$$' | head -n 1); \
	if [ ! -f "$$found" ]; then echo "$*.h $(QR_MISSING)" >&2; exit 1; fi; cp "$$found" $@

$(BUILD)/qr-user/%.o: %.c | $(addprefix $(QR_INCLUDE)/,$(QR_LIB_HEADERS))
	$(say) CC3 $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(QR_USER_CFLAGS) $(DEPFLAGS) -c $< -o $@

# The dictionary is included by the assembler (.incbin), which the compiler's dependencies miss.
QR_DICTIONARY := kernel/qr/dictionary.txt
$(BUILD)/qr-user/kernel/qr/dictionary.o $(BUILD)/host/kernel/qr/dictionary.o \
	$(BUILD)/tools/obj/kernel/qr/dictionary.o: $(QR_DICTIONARY)

# Linked alone, the ring-3 code must leave nothing undefined (a call into the kernel's pages
# would fault at CPL 3); then every symbol but the entry is made local, so that its memcpy and the
# kernel's do not meet.
$(QR_USER): $(QR_USER_OBJS) $(QR_LIBS)
	$(say) LD3 "$@ (with libz.a, libqrcodegen.a)"
	$(Q)ld -r -o $@.tmp $(QR_USER_OBJS) $(QR_LIBS)
	$(Q)undefined=$$(nm -u $@.tmp); if [ -n "$$undefined" ]; then \
		echo "the QR codes' ring-3 code calls outside itself:"; echo "$$undefined"; \
		rm -f $@.tmp; exit 1; fi
	$(Q)$(OBJCOPY) --keep-global-symbol=qr_user_entry --remove-section=.eh_frame \
		--remove-section=.note.gnu.property --remove-section=.comment \
		--prefix-alloc-sections=.user $@.tmp $@ && rm -f $@.tmp

# The host tests of the ring-3 pure code link it with the same libraries (the host's).
QR_USER_PURE_HOST := $(patsubst %.c,$(BUILD)/host/%.o,$(QR_USER_PURE))
QR_HOST_TESTS := test_qr_chunk test_qr_base45 test_qr_page
$(addprefix $(BUILD)/host/tests/,$(QR_HOST_TESTS)): $(QR_USER_PURE_HOST)
$(foreach t,$(QR_HOST_TESTS),$(eval HOST_TEST_LIBS_$(t) := -lz -lqrcodegen))
