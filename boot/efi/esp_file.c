// SPDX-License-Identifier: GPL-2.0
/*
 * Reading files that lie beside the loader on the stick: cmdline.txt, the bundles BENCH1.BIN, ...
 * (EFI_FILE_PROTOCOL, UEFI 2.10, 13.5). The directory is the one of the loader's own file path
 * (10.3.5.4 "File Path Media Device Path": the path may be split over several nodes); when the
 * loader was not started from a file path (GRUB chainloading it from memory), \EFI\BOOT\ is
 * assumed. The file system is the one on the device the loader came from
 * (EFI_SIMPLE_FILE_SYSTEM_PROTOCOL, 13.4); a device without one (an ISO 9660 CD) simply has no
 * such file.
 */
#include "boot/efi/loader.h"

#define PATH_MAX_CHARS 256

static const CHAR16 default_directory[] = L"\\EFI\\BOOT\\";

/* Append the file path nodes of path to out (at most max - 1 characters); returns the length. */
static UINTN file_path_of(EFI_DEVICE_PATH *path, CHAR16 *out, UINTN max)
{
	UINTN len = 0;

	out[0] = 0;
	while (path && !IsDevicePathEndType(path)) {
		UINTN node_len = DevicePathNodeLength(path);
		if (node_len < 4)
			break;
		if (DevicePathType(path) == MEDIA_DEVICE_PATH &&
		    DevicePathSubType(path) == MEDIA_FILEPATH_DP) {
			const CHAR16 *name = ((FILEPATH_DEVICE_PATH *)path)->PathName;
			UINTN chars = (node_len - 4) / sizeof(CHAR16);
			/* Components of separate nodes need a separator between them. */
			if (len > 0 && out[len - 1] != L'\\' && chars > 0 && name[0] != L'\\' &&
			    len + 1 < max)
				out[len++] = L'\\';
			for (UINTN i = 0; i < chars && name[i] && len + 1 < max; i++)
				out[len++] = name[i] == L'/' ? L'\\' : name[i];
			out[len] = 0;
		}
		path = (EFI_DEVICE_PATH *)((UINT8 *)path + node_len);
	}
	return len;
}

/* "<the loader's directory>\<name>" into out; false when it does not fit. */
static BOOLEAN path_beside_loader(EFI_LOADED_IMAGE *self, const CHAR16 *name, CHAR16 *out,
				  UINTN max)
{
	UINTN len = file_path_of(self->FilePath, out, max), dir = 0;

	for (UINTN i = 0; i < len; i++)
		if (out[i] == L'\\')
			dir = i + 1;
	if (dir == 0) {
		for (; default_directory[dir]; dir++)
			out[dir] = default_directory[dir];
	}
	for (UINTN i = 0; name[i]; i++, dir++) {
		if (dir + 1 >= max)
			return FALSE;
		out[dir] = name[i];
	}
	out[dir] = 0;
	return TRUE;
}

EFI_STATUS esp_open_beside_loader(EFI_LOADED_IMAGE *self, const CHAR16 *name, struct esp_file *f)
{
	CHAR16 path[PATH_MAX_CHARS];
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs = NULL;
	EFI_STATUS status;

	*f = (struct esp_file){ 0 };
	if (!path_beside_loader(self, name, path, PATH_MAX_CHARS))
		return EFI_NOT_FOUND;
	status = BS->HandleProtocol(self->DeviceHandle, &gEfiSimpleFileSystemProtocolGuid,
				    (void **)&fs);
	if (EFI_ERROR(status))
		return EFI_NOT_FOUND;
	status = fs->OpenVolume(fs, &f->root);
	if (EFI_ERROR(status)) {
		f->root = NULL;
		return status;
	}
	status = f->root->Open(f->root, &f->file, path, EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(status)) {
		f->file = NULL;
		esp_close(f);
	}
	return status;
}

EFI_STATUS esp_file_info(struct esp_file *f, UINT64 *size, BOOLEAN *directory)
{
	/* EFI_FILE_INFO ends in the file's name: room for FAT's longest (255 characters). */
	UINT64 buffer[(sizeof(EFI_FILE_INFO) + 256 * sizeof(CHAR16)) / sizeof(UINT64) + 1];
	UINTN bytes = sizeof(buffer);
	EFI_STATUS status = f->file->GetInfo(f->file, &gEfiFileInfoGuid, &bytes, buffer);

	if (EFI_ERROR(status))
		return status;
	*size = ((EFI_FILE_INFO *)buffer)->FileSize;
	*directory = (((EFI_FILE_INFO *)buffer)->Attribute & EFI_FILE_DIRECTORY) != 0;
	return EFI_SUCCESS;
}

/* Read() may return fewer bytes than asked before the end of the file (13.5.8): ask again. */
EFI_STATUS esp_file_read(struct esp_file *f, void *buffer, UINTN *size)
{
	UINTN done = 0;

	while (done < *size) {
		UINTN chunk = *size - done;
		EFI_STATUS status = f->file->Read(f->file, &chunk, (UINT8 *)buffer + done);
		if (EFI_ERROR(status)) {
			*size = done;
			return status;
		}
		if (chunk == 0)
			break; /* the end of the file */
		done += chunk;
	}
	*size = done;
	return EFI_SUCCESS;
}

void esp_close(struct esp_file *f)
{
	if (f->file)
		f->file->Close(f->file);
	if (f->root)
		f->root->Close(f->root);
	*f = (struct esp_file){ 0 };
}

EFI_STATUS esp_read_beside_loader(EFI_LOADED_IMAGE *self, const CHAR16 *name, void *buffer,
				  UINTN *size)
{
	struct esp_file f;
	EFI_STATUS status = esp_open_beside_loader(self, name, &f);

	if (EFI_ERROR(status))
		return status;
	status = esp_file_read(&f, buffer, size);
	esp_close(&f);
	return status;
}
