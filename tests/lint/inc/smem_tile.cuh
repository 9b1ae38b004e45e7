// SPDX-License-Identifier: MIT
// A shared-memory tile view for clbanks' CUDA and HIP tests: element (r, c) of a Rows x Cols
// tile with a row pitch, through __forceinline__ accessors (the accesses are reported at
// the kernel's calls).
#pragma once

template <typename T, int Rows, int Cols, int Pitch = Cols>
struct SmemTile {
	T *base;
	__device__ __forceinline__ explicit SmemTile(T *p) : base(p) {}
	__device__ __forceinline__ T &at(int r, int c) const { return base[r * Pitch + c]; }
	__device__ __forceinline__ void put(int r, int c, T v) const { base[r * Pitch + c] = v; }
};
