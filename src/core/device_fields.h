/* SPDX-License-Identifier: MIT */
/*
 * The members of a document's device section (cb_device_doc) that the codec reads and writes
 * by table, in the order they are written, with the range a reader accepts for each number.
 * One list for two users: the codec's field table (src/doc/doc_tables.h) and the gathering of
 * the driver's values (src/measure/device.c), which checks every value against the same
 * range, so that a run never writes a number its own reader refuses.
 * CB_DEVICE_DOC_FIELDS(STR, INT): STR(member) is a string, INT(member, lo, hi) an integer.
 */
#ifndef CB_DEVICE_FIELDS_H
#define CB_DEVICE_FIELDS_H

/* clang-format off */
#define CB_DEVICE_DOC_FIELDS(STR, INT)                                                    \
	STR(platform) STR(platform_vendor) STR(platform_version) STR(name) STR(vendor)     \
	STR(driver_version) STR(device_version) STR(opencl_c_version) STR(type)            \
	INT(compute_units, 0, 1e7) INT(max_clock_mhz, 0, 1e6) INT(local_mem_bytes, 1, 1e12) \
	STR(local_mem_type) INT(timer_resolution_ns, 0, 1e12)                              \
	INT(max_work_group_size, 0, 1e9) STR(subgroup_source) STR(compute_capability)      \
	STR(gfxip) INT(slm_units, 1, 1e7) INT(local_mem_per_cu_bytes, 1, 1e12) STR(slm_unit)
/* clang-format on */

#endif
