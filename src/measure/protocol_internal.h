/* SPDX-License-Identifier: MIT */
/* Shared by the two halves of the timing protocol (protocol.c, calibrate.c). */
#ifndef CB_PROTOCOL_INTERNAL_H
#define CB_PROTOCOL_INTERNAL_H

#include "measure/protocol.h"

/* Runs N launches in batches (one launch per batch with the host clock, whose time then
 * replaces the device's); counts samples into ST when not NULL. */
cb_rc cb_run_items(const cb_launcher *l, cb_timer_mode mode, const cb_launch_item *items, size_t n,
		   double expected_s, uint64_t *ns, long *bad, cb_protocol_state *st,
		   cb_error *err);
/* Time per step from a long and a short chain's times, or 0 when they cannot give one. */
double cb_differential(uint64_t ns_long, uint64_t ns_short, unsigned steps, unsigned steps_short);

#endif
