// SPDX-License-Identifier: MIT
// OpenCL C 2.0 style: the tile size from an included header (-I), the work-group size from
// reqd_work_group_size (no --local needed), sub-group built-ins for the index, and a helper
// with an unqualified (generic) pointer that gets the __local tile and a private array.
#include "tile.h"

void put(float *p, int i, float v)
{
	p[i] = v;
}

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void subgroups(__global float *out)
{
	__local float tile[2][TILE];
	float priv[2];
	int sg = get_sub_group_id(), lane = get_sub_group_local_id();
	put(tile[sg], lane, 1.0f);
	put(priv, 0, 2.0f);
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_local_id(0)] = tile[sg][(lane * 2) % TILE] + priv[0];
}
