/* SPDX-License-Identifier: MIT */
/*
 * clbanks lane-table kernel (OpenCL C 1.2).
 *
 * Every work-item reads the byte offset of its lane from lane table TABLE (lid % nlanes) and
 * performs a chain of dependent __local loads at that offset. The next index depends on the
 * loaded value through a mask that is zero at run time but unknown to the compiler, so the
 * loads can neither be hoisted nor dropped, for every element size. The sum of the loaded
 * values goes to global memory and the host checks it: a skipped or miscompiled chain is an
 * error, not a time.
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

#define CB_STEP                                   \
	do {                                      \
		CB_ELEM x = elems[idx];           \
		uint v = CB_FOLD(x);              \
		acc += v;                         \
		idx = start + (v & mask);         \
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
	__local CB_ELEM *elems = (__local CB_ELEM *)buf;

	for (uint w = lid; w < fill_words; w += lsize)
		words[w] = CB_PATTERN(w);
	barrier(CLK_LOCAL_MEM_FENCE);

	const uint start = lane_tables[table * nlanes + lid % nlanes] / CB_ELEM_BYTES;
	uint idx = start;
	uint acc = 0;
	for (uint i = 0; i < steps; i += 8) {
		CB_STEP; CB_STEP; CB_STEP; CB_STEP;
		CB_STEP; CB_STEP; CB_STEP; CB_STEP;
	}
	out[get_global_id(0)] = acc;
}
