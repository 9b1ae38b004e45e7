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
 * Build options (set by the host):
 *   -DCB_ELEM=uchar|ushort|uint|uint2|uint4   element type
 *   -DCB_ELEM_BYTES=1|2|4|8|16                its size
 *   -DCB_LOCAL_BYTES=N                        bytes of the __local array (a multiple of 16)
 *   -DCB_SUBGROUP=N                           optional: pin the sub-group size (SIMD width)
 *                                             with cl_intel_required_subgroup_size; only for
 *                                             a device with that extension and N among its
 *                                             CL_DEVICE_SUB_GROUP_SIZES_INTEL (else the
 *                                             build fails, e.g. N = 8 on Ponte Vecchio)
 *
 * The __local array is static, sized at build time: with a __local pointer argument every
 * step costs one more address addition on AMD (LDS base + offset: v_add_u32 before each
 * ds_read); a static array sits at LDS address 0, so the offset is the address.
 */
#ifndef CB_ELEM
#define CB_ELEM uint
#define CB_ELEM_BYTES 4
#endif
#ifndef CB_LOCAL_BYTES
#error "build with -DCB_LOCAL_BYTES=<bytes of __local memory per work-group, a multiple of 16>"
#elif CB_LOCAL_BYTES < 16 || CB_LOCAL_BYTES % 16 != 0
#error "CB_LOCAL_BYTES must be a positive multiple of 16"
#endif

#ifdef CB_SUBGROUP
#define CB_REQD_SUBGROUP __attribute__((intel_reqd_sub_group_size(CB_SUBGROUP)))
#else
#define CB_REQD_SUBGROUP
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
	const uint group = (uint)get_group_id(0), last = (uint)get_num_groups(0) - 1u;
	if (group == 0u && lid < nlanes)
		check[slot * 2u * nlanes + lid] = result;
	if (group == last && lid < nlanes)
		check[(slot * 2u + 1u) * nlanes + lid] = result;
}
