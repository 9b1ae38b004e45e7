/* SPDX-License-Identifier: MIT */
/*
 * clbanks store kernel (OpenCL C 1.2): the lane-table kernel of cl/chase.cl for __local stores.
 *
 * Every work-item stores to the byte offset of its lane in lane table TABLE, STEPS times. The
 * offset of each store is start | (v & mask), with v the step counter and mask zero at run
 * time but unknown to the compiler: two stores may go to different places, so none can be
 * merged, dropped or moved out of the loop. A step is the store, one add and one three-input
 * logic operation. The value stored is v (in the first 32 bits of a wider element), so after
 * the loop (and a barrier) every element a lane wrote holds the last step's value whichever
 * lane wrote it last; each work-item reads its element back, and that fold plus v goes to
 * global memory and, for the first and the last work-group, to this launch's SLOT of CHECK,
 * where the host checks it: a skipped or cut-short loop, or a store that never happened, is
 * an error, not a time.
 *
 * Arguments and build options: cl/lane_table.clh (FILL_WORDS is unused: nothing is read
 * before it is written).
 */
#include "lane_table.clh"

/* The value of step v as an element. */
#if CB_ELEM_BYTES == 16
/* The upper words come from a per-lane register (start & mask: zero at run time, unknown to the
 * compiler), computed once: a uniform constant would sit in scalar registers and be copied to
 * the four vector registers of ds_write_b128 on every step (AMD). */
#define CB_VALUE(v) ((uint4)((v), hi + 0x5u, hi + 0x6u, hi + 0x7u))
#elif CB_ELEM_BYTES == 8
#define CB_VALUE(v) ((uint2)((v), 0x5u))
#else
#define CB_VALUE(v) ((CB_ELEM)(v))
#endif

#define CB_STEP                                                                  \
	do {                                                                     \
		*(__local CB_ELEM *)(bytes + (start | (v & mask))) = CB_VALUE(v); \
		v++;                                                             \
	} while (0)

__kernel CB_REQD_SUBGROUP
void cb_store(__global const uint *lane_tables,  /* byte offsets: nlanes per table */
	      const uint table,
	      const uint nlanes,
	      const uint steps,                  /* multiple of 8 */
	      const uint mask,                   /* zero at run time */
	      const uint fill_words,             /* unused */
	      __global uint *out,
	      __global uint *check,              /* 2 * nlanes results per slot */
	      const uint slot)
{
	__local uint4 buf[CB_LOCAL_BYTES / 16];  /* uint4: 16-byte aligned for every CB_ELEM */
	__local uchar *bytes = (__local uchar *)buf;
	const uint lid = (uint)get_local_id(0);
	(void)fill_words;

	const uint start = lane_tables[table * nlanes + lid % nlanes];
	const uint hi = start & mask; /* zero, in a vector register */
	uint v = 0;
	(void)hi;
	while (v < steps) {
		CB_STEP; CB_STEP; CB_STEP; CB_STEP;
		CB_STEP; CB_STEP; CB_STEP; CB_STEP;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	const uint result = CB_FOLD(*(__local const CB_ELEM *)(bytes + start)) + v;
	out[get_global_id(0)] = result;
	CB_REPORT(check, slot, nlanes, lid, result);
}
