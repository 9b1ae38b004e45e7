// SPDX-License-Identifier: MIT
// A __local array longer than 2^32 elements: its declaration must say so, not wrap to 16.
__kernel void huge(__global int *g)
{
	__local int a[(1UL << 32) + 16];
	int l = get_local_id(0);
	a[l] = g[l];
	g[l] = a[l + 1];
}
