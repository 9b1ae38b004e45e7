/* SPDX-License-Identifier: MIT */
/*
 * clbanks lane-table kernel (OpenCL C 1.2).
 *
 * Every work-item reads the byte offset of its lane from lane table TABLE (lid % nlanes) and
 * performs a chain of dependent __local loads at that offset. The next offset depends on the
 * loaded value through a mask that is zero at run time but unknown to the compiler, so the
 * loads can neither be hoisted nor dropped, for every element size. One step is the load and
 * one three-input logic operation (start | (v & mask)), so that the banks, not the ALUs, set
 * the pace. The last loaded value plus the step count goes to global memory and the host
 * checks it: a skipped or miscompiled chain is an error, not a time.
 *
 * Build options (set by the host):
 *   -DCB_ELEM=uchar|ushort|uint|uint2|uint4   element type
 *   -DCB_ELEM_BYTES=1|2|4|8|16                its size
 */
#ifndef CB_ELEM
#define CB_ELEM uint
#define CB_ELEM_BYTES 4
#endif

#if CB_ELEM_BYTES == 16
#define CB_FOLD(x) ((x).s0 ^ (x).s1 ^ (x).s2 ^ (x).s3)
#elif CB_ELEM_BYTES == 8
#define CB_FOLD(x) ((x).s0 ^ (x).s1)
#else
#define CB_FOLD(x) ((uint)(x))
#endif

/* The fill pattern the host reproduces: 32-bit word w holds w * 0x9E3779B1. */
#define CB_PATTERN(w) ((uint)(w) * 0x9E3779B1u)

/* All lanes of the table are aligned to the element size, so OR-ing in the masked value is an
 * addition the compiler cannot see through. */
#define CB_STEP                                                          \
	do {                                                             \
		v = CB_FOLD(*(__local const CB_ELEM *)(bytes + off));    \
		off = start | (v & mask);                                \
	} while (0)

__kernel void cb_chase(__global const uint *lane_tables,  /* byte offsets: nlanes per table */
		       const uint table,
		       const uint nlanes,
		       const uint steps,                  /* multiple of 8 */
		       const uint mask,                   /* zero at run time */
		       const uint fill_words,             /* 32-bit words of buf to fill */
		       __global uint *out,
		       __local uint4 *buf)                /* uint4: 16-byte aligned for every CB_ELEM */
{
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
	out[get_global_id(0)] = v + i;
}
