/* SPDX-License-Identifier: MIT */
/* SIGINT/SIGTERM end a run cleanly between launches; a second signal kills at once. SIGALRM is
 * the host watchdog for a launch that never returns. */
#ifndef CB_SIGNALS_H
#define CB_SIGNALS_H

#include <signal.h>

/* The signal that asked to stop, or 0. Set only by the handler. */
extern volatile sig_atomic_t cb_stop_signal;

void cb_signals_install(void);
/* Temporary file the watchdog removes before it exits (NULL: none). Copied. */
void cb_signals_set_tempfile(const char *path);
/* Arms the watchdog for SECONDS (0 disarms). WHAT names the launch in the message. */
void cb_watchdog_arm(unsigned seconds, const char *what);

#endif
