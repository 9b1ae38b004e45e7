/* SPDX-License-Identifier: MIT */
/*
 * clbanks lane-table kernel (OpenCL C 1.2).
 *
 * Every work-item reads the byte offset of its lane from lane table TABLE (lid % nlanes) and
 * performs a chain of dependent __local loads at that offset. The next offset depends on the
 * loaded value through a mask that is zero at run time but unknown to the compiler, so the
 * loads can neither be hoisted nor dropped, for every element size. One step is the load and
 * one three-input logic operation (start | (v & mask)), so that the banks, not the ALUs, set
 * the pace. The last loaded value plus the step count goes to global memory. The first and the
 * last work-group also copy their first NLANES results into this launch's SLOT of CHECK, so
 * that the host checks every launch of a batch: a skipped, cut short or miscompiled chain is
 * an error, not a time.
 *
 * Build options and arguments: cl/lane_table.clh.
 *
 * The __local array is static, sized at build time: with a __local pointer argument every
 * step costs one more address addition on AMD (LDS base + offset: v_add_u32 before each
 * ds_read); a static array sits at LDS address 0, so the offset is the address.
 */
#include "lane_table.clh"

/* All lanes of the table are aligned to the element size, so OR-ing in the masked value is an
 * addition the compiler cannot see through. */
#define CB_STEP                                                          \
	do {                                                             \
		v = CB_FOLD(*(__local const CB_ELEM *)(bytes + off));    \
		off = start | (v & mask);                                \
	} while (0)

__kernel CB_REQD_SUBGROUP
void cb_chase(__global const uint *lane_tables,  /* byte offsets: nlanes per table */
	      const uint table,
	      const uint nlanes,
	      const uint steps,                  /* multiple of 8 */
	      const uint mask,                   /* zero at run time */
	      const uint fill_words,             /* 32-bit words of buf to fill */
	      __global uint *out,
	      __global uint *check,              /* 2 * nlanes results per slot */
	      const uint slot)
{
	__local uint4 buf[CB_LOCAL_BYTES / 16];  /* uint4: 16-byte aligned for every CB_ELEM */
	const uint lid = (uint)get_local_id(0);
	const uint lsize = (uint)get_local_size(0);
	__local uint *words = (__local uint *)buf;
	__local const uchar *bytes = (__local const uchar *)buf;

	for (uint w = lid; w < fill_words; w += lsize)
		words[w] = CB_PATTERN(w);
	barrier(CLK_LOCAL_MEM_FENCE);

	const uint start = lane_tables[table * nlanes + lid % nlanes];
	uint off = start;
	uint v = 0;
	uint i;
	for (i = 0; i < steps; i += 8) {
		CB_STEP; CB_STEP; CB_STEP; CB_STEP;
		CB_STEP; CB_STEP; CB_STEP; CB_STEP;
	}
	const uint result = v + i;
	out[get_global_id(0)] = result;
	CB_REPORT(check, slot, nlanes, lid, result);
}
