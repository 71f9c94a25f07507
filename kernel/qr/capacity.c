// SPDX-License-Identifier: GPL-2.0
/*
 * A code's capacity, by bisection over the text's length. qrcodegen refuses a text too long for
 * the version before it builds anything, and a fixed mask spares the mask search where the text
 * fits, so each question costs at most one plain encoding.
 */
#include <string.h>

#include <qrcodegen/qrcodegen.h>

#include "kernel/qr/capacity.h"

static int fits(int version, size_t chars, char *text, uint8_t *segment, uint8_t *temp,
		uint8_t *qrcode)
{
	memset(text, 'A', chars);
	text[chars] = 0;
	struct qrcodegen_Segment seg = qrcodegen_makeAlphanumeric(text, segment);
	return qrcodegen_encodeSegmentsAdvanced(&seg, 1, qrcodegen_Ecc_MEDIUM, version, version,
						qrcodegen_Mask_0, false, temp, qrcode);
}

size_t qr_alphanumeric_capacity(int version, char *text, uint8_t *segment, uint8_t *temp,
				uint8_t *qrcode)
{
	size_t lo = 0, hi = QR_CAPACITY_TEXT_MAX; /* lo fits, hi does not */

	if (version < qrcodegen_VERSION_MIN || version > qrcodegen_VERSION_MAX)
		return 0;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (fits(version, mid, text, segment, temp, qrcode))
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}
