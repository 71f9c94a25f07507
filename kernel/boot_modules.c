// SPDX-License-Identifier: GPL-2.0
/*
 * The warn records of boot modules a loader did not pass on (kernel/boot_modules.h). The loader
 * says only what happened, as numbers (kernel/boot_info.h): the words are the kernel's, as for
 * the command line's dropped words.
 */
#include "kernel/boot_modules.h"
#include "kernel/lib/format.h"

_Static_assert(BOOT_MODULES_MAX == 16 && BOOT_MODULE_FILE_MAX == 128ull << 20,
	       "BOOT_MODULES_ACCEPTED and the texts below name these limits");

/* EFI_STATUS error codes (UEFI 2.10, Appendix D "Status Codes"). */
static const char *const efi_status_names[] = {
	[1] = "EFI_LOAD_ERROR",
	[2] = "EFI_INVALID_PARAMETER",
	[3] = "EFI_UNSUPPORTED",
	[4] = "EFI_BAD_BUFFER_SIZE",
	[5] = "EFI_BUFFER_TOO_SMALL",
	[6] = "EFI_NOT_READY",
	[7] = "EFI_DEVICE_ERROR",
	[8] = "EFI_WRITE_PROTECTED",
	[9] = "EFI_OUT_OF_RESOURCES",
	[10] = "EFI_VOLUME_CORRUPTED",
	[11] = "EFI_VOLUME_FULL",
	[12] = "EFI_NO_MEDIA",
	[13] = "EFI_MEDIA_CHANGED",
	[14] = "EFI_NOT_FOUND",
	[15] = "EFI_ACCESS_DENIED",
	[16] = "EFI_NO_RESPONSE",
	[17] = "EFI_NO_MAPPING",
	[18] = "EFI_TIMEOUT",
	[19] = "EFI_NOT_STARTED",
	[20] = "EFI_ALREADY_STARTED",
	[21] = "EFI_ABORTED",
	[22] = "EFI_ICMP_ERROR",
	[23] = "EFI_TFTP_ERROR",
	[24] = "EFI_PROTOCOL_ERROR",
	[25] = "EFI_INCOMPATIBLE_VERSION",
	[26] = "EFI_SECURITY_VIOLATION",
	[27] = "EFI_CRC_ERROR",
	[28] = "EFI_END_OF_MEDIA",
	[31] = "EFI_END_OF_FILE",
	[32] = "EFI_INVALID_LANGUAGE",
	[33] = "EFI_COMPROMISED_DATA",
	[34] = "EFI_IP_ADDRESS_CONFLICT",
	[35] = "EFI_HTTP_ERROR",
};

const char *boot_efi_status_name(uint32_t code)
{
	if (code < sizeof(efi_status_names) / sizeof(efi_status_names[0]))
		return efi_status_names[code];
	return NULL;
}

/* "EFI_DEVICE_ERROR", or "EFI status 99" for a code of no name. */
static const char *status_text(uint32_t code, char *buf, size_t size)
{
	const char *name = boot_efi_status_name(code);

	if (name)
		return name;
	format_snprintf(buf, size, "EFI status %u", code);
	return buf;
}

const char *boot_module_problem_text(const struct boot_module_problem *p, char *message,
				     size_t size)
{
	const char *file = "a readable file of at most 128 MiB";
	int n = (int)sizeof(p->name); /* the name may fill its field without a NUL */
	unsigned long long bytes = (unsigned long long)p->size;
	char status[24];

	switch (p->kind) {
	case BOOT_MODULE_TOO_MANY:
		format_snprintf(message, size,
				"%.*s was not passed on: the kernel keeps at most %u boot modules "
				"(bundles) in one boot",
				n, p->name, BOOT_MODULES_MAX);
		return "at most 16 modules";
	case BOOT_MODULE_BAD_RANGE:
		format_snprintf(message, size,
				"%.*s ends before it starts in the loader's module list: not used",
				n, p->name);
		return "a module that ends after it starts";
	case BOOT_MODULE_TOO_BIG:
		format_snprintf(
			message, size,
			"%.*s has %llu bytes, more than the %llu MiB the UEFI loader reads: "
			"not loaded",
			n, p->name, bytes, BOOT_MODULE_FILE_MAX >> 20);
		return file;
	case BOOT_MODULE_NO_MEMORY:
		format_snprintf(message, size,
				"the UEFI loader found no room below 4 GiB for the %llu bytes of "
				"%.*s (%s): not loaded",
				bytes, n, p->name, status_text(p->status, status, sizeof(status)));
		return file;
	case BOOT_MODULE_UNREADABLE:
		format_snprintf(message, size, "the firmware could not read %.*s (%s): not loaded",
				n, p->name, status_text(p->status, status, sizeof(status)));
		return file;
	case BOOT_MODULE_SHORT_READ:
		format_snprintf(message, size,
				"%.*s gave fewer bytes than its size of %llu: not loaded", n,
				p->name, bytes);
		return file;
	case BOOT_MODULE_NOT_A_FILE:
		format_snprintf(message, size, "%.*s is a directory, not a file: not loaded", n,
				p->name);
		return file;
	default:
		format_snprintf(message, size, "%.*s was not passed on (problem %u)", n, p->name,
				p->kind);
		return BOOT_MODULES_ACCEPTED;
	}
}
