// SPDX-License-Identifier: MIT
// No __kernel function: lint has nothing to simulate.
float twice(float x)
{
	return 2 * x;
}
