// SPDX-License-Identifier: MIT
// A helper declared here but defined elsewhere: lint cannot see what it does with the
// __local array, so that access is unknown (never a silent gap).
void Helper(__local uint *p, uint i);

__kernel void unseen(__global uint *g)
{
	__local uint s[64];
	uint l = get_local_id(0);
	Helper(s, l);
	g[l] = s[l];
}
