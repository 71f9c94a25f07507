# kernel/qr/: the run's records as QR codes (docs/qr-codes.md), which the end-of-run screen
# (kernel/end_screen.c) shows. It includes nothing of kernel/ but its library (kernel/lib/).
#
# At CPL 0, in the kernel: the copy of the records and the pages' layout (pure, host-tested).
QR_PURE := kernel/qr/record_copy.c kernel/qr/page.c
PURE_SRCS += $(QR_PURE)

# At CPL 3 (kernel/qr/job.h says why): the chunks, Base45 and the codes' capacity (pure, and
# host-tested too), the glue and the C library functions, linked with Debian's static libdeflate
# and libqrcodegen into one object whose only global symbol is its entry and whose sections go to
# the user pages (.user.*, linker.ld).
QR_USER_PURE := kernel/qr/chunk.c kernel/qr/base45.c kernel/qr/capacity.c
QR_USER_SRCS := $(QR_USER_PURE) kernel/lib/crc32.c kernel/qr/user_make.c kernel/qr/user_libc.c \
	kernel/libc/strings.c
QR_LIB_HEADERS := libdeflate.h qrcodegen/qrcodegen.h
QR_LIB_DIR := $(BUILD)/gen/qr/lib
QR_LIBS := $(QR_LIB_DIR)/libdeflate.a $(QR_LIB_DIR)/libqrcodegen.a
QR_INCLUDE := $(BUILD)/gen/qr/include
QR_USER_CFLAGS := $(RING3_CFLAGS) -I$(QR_INCLUDE)
QR_USER_OBJS := $(patsubst %.c,$(BUILD)/qr-user/%.o,$(QR_USER_SRCS))
QR_USER := $(BUILD)/qr-user/qr_user.o
KERNEL_LINK_OBJS += $(QR_USER)
QR_MISSING := is missing: tools/deps.sh installs it (Debian's libdeflate-dev and libqrcodegen-dev)

# The libraries and their two headers are copied where the compiler finds them, when a recipe
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

# Linked alone, the ring-3 code must leave nothing undefined (a call into the kernel's pages
# would fault at CPL 3); then every symbol but the entry is made local, so that its memcpy and the
# kernel's do not meet.
$(QR_USER): $(QR_USER_OBJS) $(QR_LIBS)
	$(say) LD3 "$@ (with libdeflate.a, libqrcodegen.a)"
	$(Q)ld -r -o $@.tmp $(QR_USER_OBJS) $(QR_LIBS)
	$(Q)undefined=$$(nm -u $@.tmp); if [ -n "$$undefined" ]; then \
		echo "the QR codes' ring-3 code calls outside itself:"; echo "$$undefined"; \
		rm -f $@.tmp; exit 1; fi
	$(Q)$(OBJCOPY) --keep-global-symbol=qr_user_entry --remove-section=.eh_frame \
		--remove-section=.note.gnu.property --remove-section=.comment \
		--prefix-alloc-sections=.user $@.tmp $@ && rm -f $@.tmp

# The host tests of the ring-3 pure code link it with the same libraries (the host's).
QR_USER_PURE_HOST := $(patsubst %.c,$(BUILD)/host/%.o,$(QR_USER_PURE))
$(BUILD)/host/tests/test_qr_chunk: $(QR_USER_PURE_HOST)
$(BUILD)/host/tests/test_qr_base45: $(QR_USER_PURE_HOST)
$(BUILD)/host/tests/test_qr_page: $(QR_USER_PURE_HOST)
HOST_TEST_LIBS_test_qr_chunk := -ldeflate -lqrcodegen
HOST_TEST_LIBS_test_qr_base45 := -ldeflate -lqrcodegen
HOST_TEST_LIBS_test_qr_page := -ldeflate -lqrcodegen
