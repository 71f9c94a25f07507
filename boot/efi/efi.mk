# boot/efi/: the native UEFI loader BOOTX64.EFI (GNU-EFI) and the FAT image for a USB stick.
#
# The loader is a hosted-by-firmware PE32+ program with its own flags (position independent, the
# firmware's calling convention), none of the kernel's: it is linked as a shared ELF against
# GNU-EFI's crt0 and libraries, then objcopy writes the PE32+ image. The kernel ELF is embedded
# in it (kernel_image.asm), so the same file boots from the FAT image and chainloaded by GRUB.

EFI_LOADER_SRCS := boot/efi/loader.c boot/efi/kernel_load.c boot/efi/esp_file.c \
	boot/efi/bundles.c boot/efi/firmware_info.c boot/efi/firmware_map.c boot/efi/handoff.c
# Pure code: also linked into the host tests (tests/host/test_efi_*.c).
EFI_PURE_SRCS := boot/efi/elf_plan.c boot/efi/efi_memmap.c boot/efi/load_options.c
# Pure code of kernel/ the loader needs too: which words a cut command line keeps.
EFI_KERNEL_SRCS := kernel/cmdline_cut.c
EFI_ASM_SRCS := boot/efi/kernel_image.asm
HOST_TEST_SRCS += $(EFI_PURE_SRCS)

EFI_DIR := $(BUILD)/efi
EFI_LOADER := $(EFI_DIR)/BOOTX64.EFI
EFI_IMAGE := $(BUILD)/pmu-testkernel-efi.img
IMAGE_FILES += $(EFI_IMAGE)

EFI_LD := ld
GNU_EFI_INC := /usr/include/efi
GNU_EFI_LIB := /usr/lib
EFI_CFLAGS := -std=gnu11 -O2 -g $(WARN) -I. -isystem $(GNU_EFI_INC) \
	-isystem $(GNU_EFI_INC)/x86_64 -ffreestanding -fpic -fshort-wchar -fno-strict-aliasing \
	-fno-stack-protector -fno-stack-check -mno-red-zone -maccumulate-outgoing-args \
	-fcf-protection=none -DGNU_EFI_USE_MS_ABI
# --no-undefined: a shared object may otherwise link with unresolved symbols.
EFI_LDFLAGS := -nostdlib -znocombreloc -shared -Bsymbolic --no-undefined -z noexecstack \
	--build-id=none -T $(GNU_EFI_LIB)/elf_x86_64_efi.lds
EFI_OBJS := $(patsubst %.c,$(EFI_DIR)/obj/%.o,$(EFI_LOADER_SRCS) $(EFI_PURE_SRCS) \
	$(EFI_KERNEL_SRCS)) \
	$(patsubst %.asm,$(EFI_DIR)/obj/%.o,$(EFI_ASM_SRCS))

$(EFI_DIR)/obj/%.o: %.c
	$(say) EFICC $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(EFI_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(EFI_DIR)/obj/%.o: %.asm
	$(say) NASM $<
	@mkdir -p $(@D)
	$(Q)$(NASM) -f elf64 -w+all -I$(EFI_DIR)/ -MD $(@:.o=.d) -MP $< -o $@

# The embedded kernel: without debug sections, with .symtab (the loader looks up kernel_entry64).
$(EFI_DIR)/kernel.elf: $(KERNEL_ELF)
	$(say) STRIP $@
	@mkdir -p $(@D)
	$(Q)$(OBJCOPY) --strip-debug $< $@
$(EFI_DIR)/obj/boot/efi/kernel_image.o: $(EFI_DIR)/kernel.elf

$(EFI_DIR)/loader.so: $(EFI_OBJS) boot/efi/efi.mk
	$(say) EFILD $@
	$(Q)$(EFI_LD) $(EFI_LDFLAGS) $(GNU_EFI_LIB)/crt0-efi-x86_64.o $(EFI_OBJS) \
		-L$(GNU_EFI_LIB) -lefi -lgnuefi -o $@

# The sections GNU-EFI's linker script defines, as a PE32+ EFI application (subsystem 10).
$(EFI_LOADER): $(EFI_DIR)/loader.so
	$(say) PE32+ $@
	$(Q)$(OBJCOPY) -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel -j .rela \
		-j .rel.* -j .rela.* -j .reloc --target efi-app-x86_64 --subsystem=10 $< $@

# Legacy BIOS boot code for the image's MBR: says the stick boots under UEFI only.
$(EFI_DIR)/mbr.bin: boot/efi/mbr.asm
	$(say) NASM $<
	@mkdir -p $(@D)
	$(Q)$(NASM) -f bin -w+all $< -o $@

# The stick: an MBR with one FAT32 partition holding \EFI\BOOT\BOOTX64.EFI and an editable
# cmdline.txt (the layout and why: tools/efi_image.py), made with mtools, no root needed.
$(EFI_IMAGE): $(EFI_LOADER) $(EFI_DIR)/mbr.bin boot/efi/cmdline.txt tools/efi_image.py
	$(say) IMAGE $@
	$(Q)$(PYTHON) tools/efi_image.py create $@ --mbr $(EFI_DIR)/mbr.bin \
		--file $(EFI_LOADER)=/EFI/BOOT/BOOTX64.EFI \
		--file boot/efi/cmdline.txt=/EFI/BOOT/cmdline.txt
