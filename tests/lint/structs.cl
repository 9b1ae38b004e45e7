// SPDX-License-Identifier: MIT
// Whole structs through __local memory (issue 31, point 3): clang copies them with
// llvm.memcpy, clears them with llvm.memset; lint prices each as the word accesses the
// device issues, on the line of the copy.
typedef struct { float x, y, z, w; } quad;   // 16 bytes, 4-byte aligned: four 4-byte words

__kernel void copies(__global const quad *in, __global quad *out)
{
	__local quad q[64];
	int l = get_local_id(0);
	q[l] = in[l];                  // a store of 4 words per lane: stride 16 B, 4-way
	barrier(CLK_LOCAL_MEM_FENCE);
	quad p = q[63 - l];            // a load of 4 words per lane, 4-way
	out[l] = p;
}

__kernel void clears(__global quad *out)
{
	__local quad q[64];
	int l = get_local_id(0);
	q[l] = (quad){ 0.0f, 0.0f, 0.0f, 0.0f };
	barrier(CLK_LOCAL_MEM_FENCE);
	q[(l + 1) & 63] = q[l];        // __local to __local: a load and a store
	barrier(CLK_LOCAL_MEM_FENCE);
	out[l] = q[l];
}

// A helper that returns a struct read from __local memory: clang copies it out with
// llvm.memcpy inside the helper, priced on the helper's return line.
quad fetch(__local const quad *q, int i)
{
	return q[i];
}

__kernel void returns(__global quad *out)
{
	__local quad q[64];
	int l = get_local_id(0);
	q[l] = (quad){ 1.0f, 2.0f, 3.0f, 4.0f };
	barrier(CLK_LOCAL_MEM_FENCE);
	out[l] = fetch(q, l);
}
