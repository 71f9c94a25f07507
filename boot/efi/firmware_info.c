// SPDX-License-Identifier: GPL-2.0
/*
 * What the firmware knows that the kernel wants: the ACPI RSDP from the configuration table
 * (UEFI 2.10, 4.6 "EFI Configuration Table"; ACPI 6.5, 5.2.5.2 "Finding the RSDP on UEFI Enabled
 * Systems": the ACPI 2.0 entry is preferred, the 1.0 one is the fallback) and the linear
 * framebuffer of the Graphics Output Protocol (UEFI 2.10, 12.9), as the firmware left its mode.
 */
#include "boot/efi/loader.h"

static void *configuration_table(EFI_GUID *guid)
{
	for (UINTN i = 0; i < ST->NumberOfTableEntries; i++)
		if (CompareGuid(&ST->ConfigurationTable[i].VendorGuid, guid) == 0)
			return ST->ConfigurationTable[i].VendorTable;
	return NULL;
}

void firmware_find_acpi(struct boot_info *info)
{
	EFI_GUID acpi20 = ACPI_20_TABLE_GUID, acpi10 = ACPI_TABLE_GUID;
	const UINT8 *rsdp = configuration_table(&acpi20);

	if (!rsdp)
		rsdp = configuration_table(&acpi10);
	if (!rsdp) {
		Print(LOADER_SAY L"no ACPI table in the firmware's configuration table\n");
		return;
	}
	/* The firmware's own RSDP; acpi_rsdp_copy is for multiboot2, which hands over a copy. */
	info->acpi_rsdp = (uint64_t)(UINTN)rsdp;
	info->acpi_rsdp_source = BOOT_ACPI_UEFI;
}

/* Position and width of a contiguous colour mask. */
static void mask_field(UINT32 mask, uint8_t *position, uint8_t *size)
{
	*position = 0;
	*size = 0;
	if (!mask)
		return;
	*position = (uint8_t)__builtin_ctz(mask);
	while (*position + *size < 32 && (mask >> (*position + *size)) & 1)
		(*size)++;
}

/* 32 bits a pixel, a byte a colour, green in the second byte (UEFI 2.x, 12.9: the two byte orders
 * of EFI_GRAPHICS_PIXEL_FORMAT). */
static void set_bytes_per_colour(struct boot_framebuffer *fb, uint8_t red, uint8_t blue)
{
	fb->bpp = 32;
	fb->red_position = red;
	fb->green_position = 8;
	fb->blue_position = blue;
	fb->red_size = fb->green_size = fb->blue_size = 8;
}

void firmware_find_framebuffer(struct boot_info *info)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;

	/* The console's own display first, then any. */
	if (EFI_ERROR(BS->HandleProtocol(ST->ConsoleOutHandle, &gEfiGraphicsOutputProtocolGuid,
					 (void **)&gop)) ||
	    !gop) {
		gop = NULL;
		if (EFI_ERROR(BS->LocateProtocol(&gEfiGraphicsOutputProtocolGuid, NULL,
						 (void **)&gop)))
			return;
	}
	if (!gop || !gop->Mode || !gop->Mode->Info)
		return;

	const EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *mode = gop->Mode->Info;
	struct boot_framebuffer *fb = &info->framebuffer;
	switch (mode->PixelFormat) {
	case PixelRedGreenBlueReserved8BitPerColor: /* bytes R, G, B, reserved */
		set_bytes_per_colour(fb, 0, 16);
		break;
	case PixelBlueGreenRedReserved8BitPerColor: /* bytes B, G, R, reserved */
		set_bytes_per_colour(fb, 16, 0);
		break;
	case PixelBitMask: {
		const EFI_PIXEL_BITMASK *m = &mode->PixelInformation;
		UINT32 all = m->RedMask | m->GreenMask | m->BlueMask | m->ReservedMask;
		if (!all)
			return;
		fb->bpp = (uint8_t)(((32 - __builtin_clz(all)) + 7) / 8 * 8);
		mask_field(m->RedMask, &fb->red_position, &fb->red_size);
		mask_field(m->GreenMask, &fb->green_position, &fb->green_size);
		mask_field(m->BlueMask, &fb->blue_position, &fb->blue_size);
		break;
	}
	default: /* PixelBltOnly: no linear framebuffer to hand over */
		return;
	}
	fb->type = BOOT_FRAMEBUFFER_RGB;
	fb->address = gop->Mode->FrameBufferBase;
	fb->width = mode->HorizontalResolution;
	fb->height = mode->VerticalResolution;
	fb->pitch = mode->PixelsPerScanLine * (fb->bpp / 8);
}
