// SPDX-License-Identifier: GPL-2.0
/*
 * How much of a corrupting event's count leaks into the sibling counter, per event: the model
 * PMU's erratum parameters, taken from the thesis's own measurements (M. Dimakopoulou, "Improving
 * Reliability & Efficiency of Performance Monitoring in Linux", 2014; triad on both hyperthreads
 * of a Core i7-4770, user level, 10 s).
 *
 * - MEM_UOPS_RETIRED.ALL_LOADS (0x81d0): 2.3950%. Ch. 7.1, lists in different orders without XSU:
 *   CPU4's LBR_INSERTS (0x20cc, really zero) read 137,641,709, leaked from CPU0's ALL_LOADS on the
 *   same counter, which kept 5,609,439,398: 137,641,709 / 5,747,081,107. (Ch. 4 rounds the same
 *   kind of measurement to 2.5%; ch. 8 sees ALL_LOADS drop 1.8% when its sibling counter is
 *   unused: 5,565,857,411 -> 5,465,161,580.)
 * - MEM_LOAD_UOPS_RETIRED.L1_MISS (0x08d1): 45.2475%. Ch. 7.1, same run: CPU0's LBR_INSERTS read
 *   137,640,089, leaked from CPU4's L1_MISS, which kept 166,553,900: 137,640,089 / 304,193,989.
 *   (Ch. 8: "lost more than 46%", 292,858,367 -> 157,542,131.)
 * - MEM_LOAD_UOPS_RETIRED.L2_MISS (0x10d1): 50.9829%. Ch. 8, sibling counter unused (XSU on)
 *   against the aligned run where the leaks compensate: 1 - 104,608,156 / 213,411,639 ("51%").
 * - MEM_LOAD_UOPS_RETIRED.L1_HIT (0x01d1): 1.0068%. Ch. 8, same runs:
 *   1 - 2,879,525,359 / 2,908,809,947.
 * - Any other unit mask of 0xD0-0xD3: 2.5%, the ratio ch. 4 gives for a corrupting load event
 *   ("the error is small"). The thesis measures no other corrupting event.
 *
 * Sandy Bridge documents no L1_MISS or L2_MISS unit mask of 0xD1 (Intel's event data), so its
 * experiments count MEM_LOAD_UOPS_RETIRED.L2_HIT (0x02d1: the L1 misses that hit L2) and LLC_HIT
 * (0x04d1: the L2 misses that hit the LLC) in their place (tests/experiments/stand_in.c); the
 * model gives each the share of the event it stands in for. No figure of the thesis is about them.
 *
 * These are one workload's figures on one machine; the hardware's leak depends on the workload
 * (ch. 4: "the severity of the corruption cannot be predicted"). They make the model's corruption
 * of the same size as the thesis's, not a prediction for other code.
 */
#include <stddef.h>

#include "pmu/model.h"

/* The thesis's figures, then 2.5% for any other unit mask; every table ends with these. */
/* clang-format off */
#define THESIS_SHARES \
	{ .event = 0xd0, .umask = 0x81, .ppm = 23950, .name = "MEM_UOPS_RETIRED.ALL_LOADS" }, \
	{ .event = 0xd1, .umask = 0x08, .ppm = 452475, .name = "MEM_LOAD_UOPS_RETIRED.L1_MISS" }, \
	{ .event = 0xd1, .umask = 0x10, .ppm = 509829, .name = "MEM_LOAD_UOPS_RETIRED.L2_MISS" }, \
	{ .event = 0xd1, .umask = 0x01, .ppm = 10068, .name = "MEM_LOAD_UOPS_RETIRED.L1_HIT" }, \
	{ .event = 0xd0, .any_umask = true, .ppm = 25000, .name = "MEM_UOPS_RETIRED.*" }, \
	{ .event = 0xd1, .any_umask = true, .ppm = 25000, .name = "MEM_LOAD_UOPS_RETIRED.*" }, \
	{ .event = 0xd2, .any_umask = true, .ppm = 25000, .name = "MEM_LOAD_UOPS_LLC_HIT_RETIRED.*" }, \
	{ .event = 0xd3, .any_umask = true, .ppm = 25000, .name = "MEM_LOAD_UOPS_LLC_MISS_RETIRED.*" }, \
	{ .name = NULL }

const struct model_share model_default_shares[] = { THESIS_SHARES };

static const struct model_share sandybridge_shares[] = {
	{ .event = 0xd1, .umask = 0x02, .ppm = 452475, .name = "MEM_LOAD_UOPS_RETIRED.L2_HIT" },
	{ .event = 0xd1, .umask = 0x04, .ppm = 509829, .name = "MEM_LOAD_UOPS_RETIRED.LLC_HIT" },
	THESIS_SHARES,
};
/* clang-format on */

const struct model_share *model_shares_for(const struct uarch *u)
{
	return u && u->id == UARCH_SANDYBRIDGE ? sandybridge_shares : model_default_shares;
}
