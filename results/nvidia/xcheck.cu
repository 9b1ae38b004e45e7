// SPDX-License-Identifier: MIT
// Shared-memory wavefronts per instruction for stores, atomics and loads of given strides:
// ncu's own count of passes, to compare with clbanks predict --op.
#include <cstdio>
#include <cstdlib>
__global__ void probe(int op, int bytes, int stride, unsigned *out)
{
	__shared__ __align__(16) unsigned char buf[32768];
	unsigned lane = threadIdx.x;
	unsigned off = (lane * (unsigned)stride * (unsigned)bytes) % 32768u;
	unsigned addr = (unsigned)__cvta_generic_to_shared(buf + off);
	unsigned r = 0, v = lane;
	for (int i = 0; i < 64; i++) {
		if (op == 0) {
			if (bytes == 4) asm volatile("st.shared.u32 [%0], %1;" :: "r"(addr), "r"(v + i) : "memory");
			else if (bytes == 8) asm volatile("st.shared.v2.u32 [%0], {%1, %2};" :: "r"(addr), "r"(v + i), "r"(v) : "memory");
			else asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" :: "r"(addr), "r"(v + i), "r"(v), "r"(i), "r"(v) : "memory");
		} else if (op == 1) {
			if (bytes == 4) { unsigned o; asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(o) : "r"(addr), "r"(1u) : "memory"); r += o; }
			else { unsigned long long o; asm volatile("atom.shared.add.u64 %0, [%1], %2;" : "=l"(o) : "r"(addr), "l"(1ull) : "memory"); r += (unsigned)o; }
		} else {
			unsigned o; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(o) : "r"(addr) : "memory"); r += o;
		}
	}
	__syncthreads();
	out[lane] = r + buf[lane];
}
int main()
{
	static const int cases[][3] = {
		{0,4,0},{0,4,1},{0,4,2},{0,4,4},{0,4,8},{0,4,16},{0,4,32},{0,4,33},
		{0,8,0},{0,8,1},{0,8,2},{0,8,16},{0,16,0},{0,16,1},{0,16,2},{0,16,8},
		{1,4,0},{1,4,1},{1,4,2},{1,4,4},{1,4,8},{1,4,16},{1,4,32},{1,4,33},
		{1,8,0},{1,8,1},{1,8,2},{1,8,16},
		{2,4,0},{2,4,2},{2,4,32}};
	unsigned *out;
	cudaMalloc(&out, 32 * sizeof(unsigned));
	for (auto &c : cases) {
		probe<<<1, 32>>>(c[0], c[1], c[2], out);
		cudaDeviceSynchronize();
		printf("%s %d %d\n", c[0] == 0 ? "store" : c[0] == 1 ? "atomic" : "load", c[1], c[2]);
	}
	return 0;
}
