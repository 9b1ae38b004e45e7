// SPDX-License-Identifier: MIT
// Does not compile: lint reports clang's build log.
__kernel void broken(__global float *out)
{
	out[get_local_id(0)] = undeclared_variable;
}
