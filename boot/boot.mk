# boot/: how control reaches the kernel.
KERNEL_SRCS += boot/multiboot.asm boot/trampoline.asm

# A CPU without long mode still gets a boot and an end record from the 32-bit entry: their lines
# and CRCs are made at build time by a host program with the kernel's record code.
NO_LONG_MODE_GEN := $(BUILD)/boot/no-long-mode-records
NO_LONG_MODE_INC := $(BUILD)/boot/no_long_mode_records.inc
$(NO_LONG_MODE_GEN): $(patsubst %.c,$(BUILD)/tools/obj/%.o,boot/no_long_mode_records.c \
		kernel/record.c kernel/lib/crc32.c kernel/lib/format.c)
	$(say) LD $@
	@mkdir -p $(@D)
	$(Q)$(CC) -o $@ $^
# The version is in the records, as in the kernel's: rewritten when version.h changes.
$(NO_LONG_MODE_INC): $(NO_LONG_MODE_GEN) $(BUILD)/kernel/version.h
	$(say) GEN $@
	$(Q)$(NO_LONG_MODE_GEN) "$(PMU_VERSION)" > $@.tmp && mv $@.tmp $@
$(BUILD)/kernel/boot/multiboot.o: $(NO_LONG_MODE_INC)
$(BUILD)/kernel/boot/multiboot.o: NASMFLAGS += -I$(BUILD)/boot/

# The native UEFI loader and its FAT image.
include boot/efi/efi.mk

# The USB/ISO image: GRUB for BIOS (i386-pc) and UEFI (x86_64-efi) with our menu. The MBR gets an
# active partition: some BIOSes of the Sandy Bridge era refuse a stick without one. Under UEFI,
# the menu also offers the native loader, chainloaded from /boot/pmu-testkernel.efi.
ISO := $(BUILD)/pmu-testkernel.iso
IMAGE_FILES += $(ISO)

$(ISO): $(KERNEL_ELF) $(EFI_LOADER) boot/grub.cfg
	$(say) ISO $@
	@rm -rf $(BUILD)/iso && mkdir -p $(BUILD)/iso/boot/grub
	$(Q)cp $(KERNEL_ELF) $(BUILD)/iso/boot/pmu-testkernel.elf
	$(Q)cp $(EFI_LOADER) $(BUILD)/iso/boot/pmu-testkernel.efi
	$(Q)cp boot/grub.cfg $(BUILD)/iso/boot/grub/grub.cfg
	$(Q)grub-mkrescue --mbr-force-bootable --locales= --themes= --fonts= \
		-o $@ $(BUILD)/iso >$(BUILD)/grub-mkrescue.log 2>&1 || \
		{ cat $(BUILD)/grub-mkrescue.log; exit 1; }

image: deps $(IMAGE_FILES)
