/* SPDX-License-Identifier: MIT */
/*
 * What the three lane-table kernels (cl/chase.cl loads, cl/store.cl, cl/atomic.cl) share: the
 * build options and their checks, the sub-group pin, the fill pattern, the fold of an element
 * to 32 bits and the copy of each launch's results that the host checks. OpenCL C 1.2.
 *
 * Each kernel includes this file with #include "lane_table.h". clbanks expands that line
 * itself, from the same folder as the kernel (--kernel-dir) or from its embedded copy, so no
 * driver needs an include path; offline compilers take -I cl.
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
 * Kernel arguments, the same for all three:
 *   lane_tables  byte offsets, NLANES per table    table       the table of this launch
 *   nlanes       lanes per table                   steps       accesses per work-item (x 8)
 *   mask         zero at run time, unknown to the compiler
 *   fill_words   32-bit words of __local memory to fill with CB_PATTERN first
 *   out          one result per work-item          check, slot see CB_REPORT
 */
#ifndef CB_LANE_TABLE_H
#define CB_LANE_TABLE_H

#ifndef CB_ELEM
#define CB_ELEM uint
#endif
#ifndef CB_ELEM_BYTES
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

/* The fill pattern the host reproduces: 32-bit word w holds w * 0x9E3779B1. */
#define CB_PATTERN(w) ((uint)(w) * 0x9E3779B1u)

/* An element folded to 32 bits. */
#if CB_ELEM_BYTES == 16
#define CB_FOLD(x) ((x).s0 ^ (x).s1 ^ (x).s2 ^ (x).s3)
#elif CB_ELEM_BYTES == 8
#define CB_FOLD(x) ((x).s0 ^ (x).s1)
#else
#define CB_FOLD(x) ((uint)(x))
#endif

/* The first and the last work-group copy their first NLANES results into this launch's SLOT
 * of CHECK (2 * NLANES words per slot), so that the host checks every launch of a batch: a
 * skipped, cut short or miscompiled chain is an error, not a time. */
#define CB_REPORT(check, slot, nlanes, lid, result)                                   \
	do {                                                                          \
		const uint group_ = (uint)get_group_id(0);                            \
		const uint last_ = (uint)get_num_groups(0) - 1u;                      \
		if (group_ == 0u && (lid) < (nlanes))                                 \
			(check)[(slot) * 2u * (nlanes) + (lid)] = (result);           \
		if (group_ == last_ && (lid) < (nlanes))                              \
			(check)[((slot) * 2u + 1u) * (nlanes) + (lid)] = (result);    \
	} while (0)

#endif
