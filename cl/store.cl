/* SPDX-License-Identifier: MIT */
/*
 * clbanks store kernel (OpenCL C 1.2): the lane-table kernel of cl/chase.cl for __local stores.
 *
 * Every work-item stores to the byte offset of its lane in lane table TABLE, STEPS times. The
 * offset of each store is start | (v & mask), with v the step counter and mask zero at run
 * time but unknown to the compiler: two stores may go to different places, so none can be
 * merged, dropped or moved out of the loop. A step is the store, one add and one three-input
 * logic operation. The value stored is v (in the first 32 bits of a wider element, whose other
 * words are 5, 6 and 7), so after the loop (and a barrier) every element a lane wrote holds the
 * last step's value whichever lane wrote it last; each work-item reads its element back, and
 * that fold plus v goes to global memory and, for the first and the last work-group, to this
 * launch's SLOT of CHECK, where the host checks it: a skipped or cut-short loop, or a store
 * that never happened, is an error, not a time.
 *
 * Arguments and build options: cl/lane_table.clh (FILL_WORDS is unused: nothing is read
 * before it is written).
 */
#include "lane_table.clh"

/* One step: v stored at the lane's offset (for 8- and 16-byte elements, the element UP with its
 * first word replaced by v), then the next v.
 *
 * UP is (hi, hi + 5, hi + 6, hi + 7) with hi = start & mask, zero at run time: its upper words
 * come from a per-lane register, computed once (a uniform constant would sit in scalar
 * registers and be copied to the four vector registers of ds_write_b128 on every step, AMD),
 * and only the first word changes per step. UP is a vector sum, not a vector built lane by
 * lane from (v, 5, ...): Oclgrind rewrites a store of "insertelement V, v, 0" into a store of
 * V and a store of v, and when V is a constant with an undefined first lane, <poison, 5>, it
 * reports "Uninitialized value written to local memory" although the next store fills that
 * lane (issue 23.12; tests/oclgrind.test). */
#if CB_ELEM_BYTES >= 8
#define CB_STEP                                                                  \
	do {                                                                     \
		CB_ELEM x_ = up;                                                 \
		x_.s0 = v;                                                       \
		*(__local CB_ELEM *)(bytes + (start | (v & mask))) = x_;         \
		v++;                                                             \
	} while (0)
#else
#define CB_STEP                                                                  \
	do {                                                                     \
		*(__local CB_ELEM *)(bytes + (start | (v & mask))) = (CB_ELEM)(v); \
		v++;                                                             \
	} while (0)
#endif

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
#if CB_ELEM_BYTES == 16
	const uint4 up = (uint4)(hi) + (uint4)(0u, 0x5u, 0x6u, 0x7u);
#elif CB_ELEM_BYTES == 8
	const uint2 up = (uint2)(hi) + (uint2)(0u, 0x5u);
#endif
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
