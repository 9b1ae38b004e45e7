/* SPDX-License-Identifier: MIT */
/* The host watchdog of the driver calls that can block (a hung kernel, a lost device, a
 * compiler or an ICD that never returns): such a call cannot be cancelled, so when the alarm
 * fires clbanks says which call hung and ends the process with exit status 4. A stop signal
 * (SIGINT, SIGTERM, SIGHUP) that arrives while a driver call is under way, or before one
 * starts, ends the process with 128 + N if the call has not returned within
 * CB_WATCHDOG_GRACE_S. No output file exists while the driver is called. */
#ifndef CB_WATCHDOG_H
#define CB_WATCHDOG_H

#include <pthread.h>

#define CB_WATCHDOG_GRACE_S 3

/* The seconds one driver call may take (--timeout; 0: no limit, the default). A kernel build
 * and the driver's start-up (listing devices, a context) may take ten times as long: compilers
 * and drivers start slowly under valgrind and on a busy machine. */
void cb_watchdog_set_limit(unsigned seconds);

/* Arms the watchdog for SECONDS (0: no alarm) around a driver call that WHAT names;
 * (0, NULL) disarms it after the call. */
void cb_watchdog_arm(unsigned seconds, const char *what);
/* Arms it for the limit, or for ten times the limit (a build, the driver's start-up). */
void cb_watchdog_call(const char *what);
void cb_watchdog_slow(const char *what);

/* Starts a helper thread running FN(ARG) with every signal blocked in it: a stop and the
 * watchdog's alarm are the main thread's to take. pthread_create's status. */
int cb_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);

/* For the stop-signal handler (async-signal-safe): a stop was asked for by SIG. */
void cb_watchdog_stop_signal(int sig);

#endif
