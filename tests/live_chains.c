/* SPDX-License-Identifier: MIT */
/* Atomics' chains of 4 mod 8 steps on a real driver (the default device, PoCL in the tests):
 * cl/atomic.cl and cl/cpu.cl's one kernel run 4 steps after their eights, and the host's
 * verification of every work-item's result (pattern + steps x adders) must pass for 4, 12 and
 * 20 steps as for 8 and 16. A run picks these lengths only where a table is slow, so this
 * launches them directly. Skips (TAP "1..0 # SKIP") without an OpenCL device. */
#include "config.h"
#include "measure/device.h"
#include "measure/ocl.h"
#include "measure/protocol.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

/* Lanes 0..3 on elements 0, 1, 1, 3 of ELEM bytes: two adders on one element. */
static void lanes_of(unsigned elem, uint32_t *lanes)
{
	static const uint32_t el[4] = { 0, 1, 1, 3 };
	for (int i = 0; i < 4; i++)
		lanes[i] = el[i] * elem;
}

static void chains(const cb_device_ref *ref, const cb_device_info *info, int one)
{
	cb_error err = { 0 };
	cb_ocl *c = NULL;
	cb_ocl_opts o = { NULL, NULL, NULL, true, NULL, one };
	unsigned sizes[2] = { 4, 8 }, nsizes = info->has_int64_atomics ? 2 : 1;
	uint32_t tables[8];
	bool need[CB_NKERNELS] = { false };
	cb_rc rc = cb_ocl_open(ref, info, &o, &c, &err);
	cb_ocl_set_timeout(c, 120);
	cb_build_params bp = { 4096, 0 };
	cb_ocl_set_build_params(c, &bp);
	for (unsigned s = 0; s < nsizes; s++) {
		need[cb_kernel_index(CB_OP_ATOMIC, cb_elem_index(sizes[s]))] = true;
		lanes_of(sizes[s], tables + 4 * s);
	}
	if (rc == CB_OK)
		rc = cb_ocl_build_set(c, need, &err);
	if (rc == CB_OK)
		rc = cb_ocl_set_tables(c, tables, nsizes, 4, &err);
	if (rc == CB_OK)
		rc = cb_ocl_set_work(c, 32, 16, 4, 1, &err);
	tap_ok(rc == CB_OK, "%s: built and set up (%s)", one > 0 ? "cl/cpu.cl" : "cl/atomic.cl",
	       rc == CB_OK ? "ok" : err.text);
	static const unsigned steps[] = { 4, 12, 20, 8, 16 };
	for (unsigned s = 0; rc == CB_OK && s < nsizes; s++)
		for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
			cb_launch_req req = { CB_OP_ATOMIC,
					      cb_elem_index(sizes[s]),
					      s,
					      4,
					      steps[k],
					      cb_fill_words(tables + 4 * s, 4, sizes[s]),
					      tables + 4 * s,
					      "a test chain" };
			uint64_t ns = 0;
			double host_s = 0;
			long bad = -1;
			cb_error e = { 0 };
			cb_rc r = cb_ocl_run_batch(c, &req, 1, 1.0, &ns, &host_s, &bad, &e);
			tap_ok(r == CB_OK && bad<0, "%s: %u-byte atomics, %u steps verify (%s)",
						 one> 0
				       ? "cl/cpu.cl"
				       : "cl/atomic.cl",
			       sizes[s], steps[k], r == CB_OK ? "ok" : e.text);
		}
	cb_ocl_close(c);
}

int main(void)
{
	cb_device_list list;
	cb_error err = { 0 };
	if (cb_devices_enumerate(&list, NULL, &err) != CB_OK) {
		printf("1..0 # SKIP no OpenCL device (%s)\n", err.text);
		return 0;
	}
	size_t idx = cb_device_default(&list);
	cb_device_info info;
	memset(&info, 0, sizeof info);
	cb_device_info_gather(&list.items[idx], &info, NULL);
	chains(&list.items[idx], &info, 1);
	chains(&list.items[idx], &info, -1);
	cb_device_info_free(&info);
	cb_devices_free(&list);
	return tap_done();
}
