/* SPDX-License-Identifier: MIT */
/* The host watchdog of a launch: a driver call that never returns (a hung kernel, a lost
 * device) cannot be cancelled, so when the alarm fires clbanks says which launch hung and ends
 * the process with exit status 4. No output file exists while launches run. */
#ifndef CB_WATCHDOG_H
#define CB_WATCHDOG_H

/* Arms the watchdog for SECONDS (0 disarms). WHAT names the launch in the message. */
void cb_watchdog_arm(unsigned seconds, const char *what);

#endif
