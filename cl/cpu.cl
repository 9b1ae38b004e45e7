/* SPDX-License-Identifier: MIT */
/*
 * clbanks one-kernel program for CPU devices (OpenCL C 1.2): the three lane-table kernels
 * (cl/chase.cl loads, cl/store.cl, cl/atomic.cl) at every element size in one kernel, the op
 * and the element size being arguments.
 *
 * Why: a CPU driver compiles each kernel at its first launch (PoCL: about 0.15 s each on 2
 * cores, 12 kernels for a run of every op), and a CPU's local memory is global memory
 * (CL_DEVICE_LOCAL_MEM_TYPE = CL_GLOBAL), without banks to time. The host uses this file only
 * on such a device with the embedded kernels; a GPU runs the per-element kernels, unchanged.
 *
 * Each step, chain and result is the one of the per-element kernel of the same op and element
 * (see those files for why they are written so); the host checks every launch against the same
 * expected values (src/measure/ocl.c). The choice of op and element is made once per work-item
 * (a switch around the whole chain, never inside it), and every barrier is outside the switch:
 * PoCL replicates the code around a barrier in a branch, which made a kernel with barriers
 * inside the switch compile slower than the separate kernels.
 *
 * Build options: cl/lane_table.clh (CB_ELEM and CB_ELEM_BYTES are not used). Arguments: those
 * of cl/lane_table.clh, then
 *   op           0 load (chase), 1 store, 2 atomic
 *   elem_bytes   1, 2, 4, 8 or 16 (atomics: 4, or 8 with cl_khr_int64_base_atomics)
 */
#include "lane_table.clh"

#ifdef cl_khr_int64_base_atomics
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif

#define CB_OP_LOAD 0u
#define CB_OP_STORE 1u
#define CB_OP_ATOMIC 2u

#define CB_FOLD1(x) ((uint)(x))
#define CB_FOLD8(x) ((x).s0 ^ (x).s1)
#define CB_FOLD16(x) ((x).s0 ^ (x).s1 ^ (x).s2 ^ (x).s3)

/* cl/chase.cl: one dependent load. */
#define CB_LOAD(T, F)                                                    \
	do {                                                             \
		v = F(*(__local const T *)(bytes + off));                \
		off = start | (v & mask);                                \
	} while (0)
#define CB_CHASE(T, F)                                                   \
	for (i = 0; i < steps; i += 8) {                                 \
		CB_LOAD(T, F); CB_LOAD(T, F); CB_LOAD(T, F); CB_LOAD(T, F); \
		CB_LOAD(T, F); CB_LOAD(T, F); CB_LOAD(T, F); CB_LOAD(T, F); \
	}

/* cl/store.cl: a store of v (of the element UP with its first word v, for 8 and 16 bytes). */
#define CB_STORE_N(T)                                                    \
	do {                                                             \
		*(__local T *)(bytes + (start | (v & mask))) = (T)(v);   \
		v++;                                                     \
	} while (0)
#define CB_STORE_V(T, UP)                                                \
	do {                                                             \
		T x_ = UP;                                               \
		x_.s0 = v;                                               \
		*(__local T *)(bytes + (start | (v & mask))) = x_;       \
		v++;                                                     \
	} while (0)
#define CB_STORES(S)                                                     \
	while (v < steps) {                                              \
		S; S; S; S; S; S; S; S;                                  \
	}

/* cl/atomic.cl: one atomic add whose result gives the next offset. */
#define CB_ADD4(p) atomic_add((volatile __local uint *)(p), 1u)
#define CB_ADD8(p) ((uint)atom_add((volatile __local ulong *)(p), 1ul))
#define CB_ATOM(A)                                                       \
	do {                                                             \
		old = A(bytes + off);                                    \
		off = start | (old & mask);                              \
	} while (0)
#define CB_ATOMICS(A)                                                    \
	for (i = steps & 4u; i < steps; i += 8) {                        \
		CB_ATOM(A); CB_ATOM(A); CB_ATOM(A); CB_ATOM(A);          \
		CB_ATOM(A); CB_ATOM(A); CB_ATOM(A); CB_ATOM(A);          \
	}                                                                \
	if (steps & 4u) {                                                \
		CB_ATOM(A); CB_ATOM(A); CB_ATOM(A); CB_ATOM(A);          \
	}

#define CB_CASE(op, bytes) ((op) * 32u + (bytes))

__kernel
void cb_cpu(__global const uint *lane_tables,  /* byte offsets: nlanes per table */
	    const uint table,
	    const uint nlanes,
	    const uint steps,                  /* multiple of 8 (atomics: of 4) */
	    const uint mask,                   /* zero at run time */
	    const uint fill_words,             /* 32-bit words of buf to fill (not for stores) */
	    __global uint *out,
	    __global uint *check,              /* 2 * nlanes results per slot */
	    const uint slot,
	    const uint op,
	    const uint elem_bytes)
{
	__local uint4 buf[CB_LOCAL_BYTES / 16];  /* uint4: 16-byte aligned for every element */
	__local uchar *bytes = (__local uchar *)buf;
	__local uint *words = (__local uint *)buf;
	const uint lid = (uint)get_local_id(0);
	const uint lsize = (uint)get_local_size(0);
	const uint which = CB_CASE(op, elem_bytes);

	if (op != CB_OP_STORE)
		for (uint w = lid; w < fill_words; w += lsize)
			words[w] = CB_PATTERN(w);
	barrier(CLK_LOCAL_MEM_FENCE);

	const uint start = lane_tables[table * nlanes + lid % nlanes];
	const uint hi = start & mask; /* zero, as in cl/store.cl */
	const uint2 up2 = (uint2)(hi) + (uint2)(0u, 0x5u);
	const uint4 up4 = (uint4)(hi) + (uint4)(0u, 0x5u, 0x6u, 0x7u);
	uint off = start, v = 0, old = 0, i = 0;
	switch (which) {
	case CB_CASE(CB_OP_LOAD, 1): CB_CHASE(uchar, CB_FOLD1) break;
	case CB_CASE(CB_OP_LOAD, 2): CB_CHASE(ushort, CB_FOLD1) break;
	case CB_CASE(CB_OP_LOAD, 4): CB_CHASE(uint, CB_FOLD1) break;
	case CB_CASE(CB_OP_LOAD, 8): CB_CHASE(uint2, CB_FOLD8) break;
	case CB_CASE(CB_OP_LOAD, 16): CB_CHASE(uint4, CB_FOLD16) break;
	case CB_CASE(CB_OP_STORE, 1): CB_STORES(CB_STORE_N(uchar)) break;
	case CB_CASE(CB_OP_STORE, 2): CB_STORES(CB_STORE_N(ushort)) break;
	case CB_CASE(CB_OP_STORE, 4): CB_STORES(CB_STORE_N(uint)) break;
	case CB_CASE(CB_OP_STORE, 8): CB_STORES(CB_STORE_V(uint2, up2)) break;
	case CB_CASE(CB_OP_STORE, 16): CB_STORES(CB_STORE_V(uint4, up4)) break;
	case CB_CASE(CB_OP_ATOMIC, 4): CB_ATOMICS(CB_ADD4) break;
#ifdef cl_khr_int64_base_atomics
	case CB_CASE(CB_OP_ATOMIC, 8): CB_ATOMICS(CB_ADD8) break;
#endif
	default: break;
	}
	barrier(CLK_LOCAL_MEM_FENCE);

	/* What each per-element kernel returns: the chain's last value plus the step count (loads);
	 * the element at the lane's offset read back, folded, plus the steps (stores, atomics). */
	__local const uchar *at = bytes + start;
	uint result;
	switch (which) {
	case CB_CASE(CB_OP_STORE, 1): result = *at + v; break;
	case CB_CASE(CB_OP_STORE, 2): result = *(__local const ushort *)at + v; break;
	case CB_CASE(CB_OP_STORE, 4): result = *(__local const uint *)at + v; break;
	case CB_CASE(CB_OP_STORE, 8): result = CB_FOLD8(*(__local const uint2 *)at) + v; break;
	case CB_CASE(CB_OP_STORE, 16): result = CB_FOLD16(*(__local const uint4 *)at) + v; break;
	case CB_CASE(CB_OP_ATOMIC, 4): result = *(__local const uint *)at + i + (old & mask); break;
	case CB_CASE(CB_OP_ATOMIC, 8): {
		const ulong x = *(__local const ulong *)at;
		result = ((uint)x ^ (uint)(x >> 32)) + i + (old & mask);
		break;
	}
	default: result = v + i; break;
	}
	out[get_global_id(0)] = result;
	CB_REPORT(check, slot, nlanes, lid, result);
}
