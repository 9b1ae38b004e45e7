/* SPDX-License-Identifier: MIT */
/*
 * clbanks atomic kernel (OpenCL C 1.2): the lane-table kernel of cl/chase.cl for __local
 * atomics, atomic_add on 32-bit words (CB_ELEM_BYTES 4) or atom_add on 64-bit ones
 * (CB_ELEM_BYTES 8, with cl_khr_int64_base_atomics).
 *
 * Every work-item adds 1 to the element at the byte offset of its lane in lane table TABLE,
 * STEPS times, as a chain: the next offset is start | (old & mask), with old the value the
 * atomic returned and mask zero at run time but unknown to the compiler, so each atomic
 * waits for the one before and none can be merged or dropped. A step is the atomic and one
 * three-input logic operation. Local memory is filled with the pattern (CB_PATTERN) first;
 * after the loop (and a barrier) every element holds its pattern plus STEPS times the number
 * of work-items of the work-group that add to it, which each work-item reads back: its low
 * 32 bits (64-bit: the fold of both halves) plus the step count go to global memory and, for
 * the first and the last work-group, to this launch's SLOT of CHECK, where the host checks
 * them.
 *
 * Arguments and build options: cl/lane_table.clh; CB_ELEM_BYTES is 4 or 8.
 */
#include "lane_table.clh"

#if CB_ELEM_BYTES == 8
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define CB_ADD(p) ((uint)atom_add((volatile __local ulong *)(p), 1ul))
#define CB_READ(p) ((uint)*(__local const ulong *)(p) ^ (uint)(*(__local const ulong *)(p) >> 32))
#elif CB_ELEM_BYTES == 4
#define CB_ADD(p) atomic_add((volatile __local uint *)(p), 1u)
#define CB_READ(p) (*(__local const uint *)(p))
#else
#error "atomics are measured on 4- and 8-byte elements"
#endif

#define CB_STEP                                        \
	do {                                           \
		old = CB_ADD(bytes + off);             \
		off = start | (old & mask);            \
	} while (0)

__kernel CB_REQD_SUBGROUP
void cb_atomic(__global const uint *lane_tables,  /* byte offsets: nlanes per table */
	       const uint table,
	       const uint nlanes,
	       const uint steps,                  /* multiple of 4 */
	       const uint mask,                   /* zero at run time */
	       const uint fill_words,             /* 32-bit words of buf to fill */
	       __global uint *out,
	       __global uint *check,              /* 2 * nlanes results per slot */
	       const uint slot)
{
	__local uint4 buf[CB_LOCAL_BYTES / 16];
	__local uchar *bytes = (__local uchar *)buf;
	__local uint *words = (__local uint *)buf;
	const uint lid = (uint)get_local_id(0);
	const uint lsize = (uint)get_local_size(0);

	for (uint w = lid; w < fill_words; w += lsize)
		words[w] = CB_PATTERN(w);
	barrier(CLK_LOCAL_MEM_FENCE);

	const uint start = lane_tables[table * nlanes + lid % nlanes];
	uint off = start, old = 0, i;
	/* Eights, counted from 4 where STEPS asks for 4 more after them: the slowest atomics'
	 * chains are 8 and 4 steps long. */
	for (i = steps & 4u; i < steps; i += 8) {
		CB_STEP; CB_STEP; CB_STEP; CB_STEP;
		CB_STEP; CB_STEP; CB_STEP; CB_STEP;
	}
	if (steps & 4u) {
		CB_STEP; CB_STEP; CB_STEP; CB_STEP;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	const uint result = CB_READ(bytes + start) + i + (old & mask);
	out[get_global_id(0)] = result;
	CB_REPORT(check, slot, nlanes, lid, result);
}
