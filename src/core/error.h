/* SPDX-License-Identifier: MIT */
/*
 * One error contract for library code (modelled on hwloc's documented return contract): a
 * function that can fail returns a cb_rc and, on failure, fills a caller-owned cb_error with
 * what failed -- the OpenCL or system call and its status where there is one -- and one
 * sentence. Library code never prints and never exits; the CLI prints the record and maps the
 * code to the documented exit status (clbanks(1)) with cb_exit_status(), the one table of
 * exit statuses.
 *
 * Two exits from library code are sanctioned, each with one line on stderr and exit status 4
 * (cb_exit_status() of CB_ERR_NOMEM and CB_ERR_RUNTIME): running out of memory in the cb_x*
 * allocators (core/util.h; no caller could do more than say it), and the watchdog
 * (measure/watchdog.h), which ends a driver call that hangs past --timeout and so never
 * returns to report it.
 */
#ifndef CB_ERROR_H
#define CB_ERROR_H

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>

typedef enum {
	CB_OK = 0,
	CB_ERR_USAGE,       /* a bad option or argument (exit 2) */
	CB_ERR_INPUT,       /* a bad document, plan, kernel or path (exit 2) */
	CB_ERR_NODEV,       /* no OpenCL platform, or no such device (exit 3) */
	CB_ERR_RUNTIME,     /* OpenCL or run-time failure (exit 4) */
	CB_ERR_IO,          /* reading or writing a file failed (exit 4) */
	CB_ERR_NOMEM,       /* out of memory (exit 4) */
	CB_ERR_INTERRUPTED, /* a signal asked to stop (exit 128 + signal) */
	CB_ERR_QUALITY,     /* --strict, or a lint finding with --fail-on-conflict (exit 5) */
} cb_rc;

typedef struct {
	cb_rc rc;
	const char *call;  /* the failing OpenCL or system call (a string literal), or NULL */
	int code;          /* its status: a cl_int, an errno value, or 0 */
	int signal;        /* with CB_ERR_INTERRUPTED: the signal */
	char text[8192];   /* one sentence: what failed and, where known, what to do (two paths
	                     * of PATH_MAX fit, so the reason is never cut off) */
	char detail[8192]; /* lines that explain it (a build log), or "" */
} cb_error;

/* Records RC and the formatted sentence; returns RC. A NULL ERR is allowed; an argument may
 * be ERR's own text. Over the text's size the sentence keeps both ends (" [...] " between). */
cb_rc cb_error_set(cb_error *err, cb_rc rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* cb_error_set with a va_list. */
cb_rc cb_error_vset(cb_error *err, cb_rc rc, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* Records a failed call: CALL (a string literal) returned CODE. */
cb_rc cb_error_call(cb_error *err, cb_rc rc, const char *call, int code, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void cb_error_clear(cb_error *err);
/* Puts PREFIX in front of the recorded sentence (cut to fit). */
void cb_error_prefix(cb_error *err, const char *prefix);
/* Adds explanatory lines (a build log) to a recorded error. */
void cb_error_detail(cb_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The process exit status for a return code (see clbanks(1)). */
int cb_exit_status(const cb_error *err);
/* The return code a clbanks process's exit STATUS stands for (a child's: the lint helper's):
 * the inverse of cb_exit_status, where 2 is CB_ERR_INPUT (usage and input share it), 4
 * CB_ERR_RUNTIME and above 128 CB_ERR_INTERRUPTED. */
cb_rc cb_rc_of_exit_status(int status);

/* The signal that asked clbanks to stop (SIGINT, SIGTERM, SIGHUP or SIGQUIT), or 0. Set only by
 * the CLI's signal handler; long-running library code polls it and returns CB_ERR_INTERRUPTED. */
extern volatile sig_atomic_t cb_stop_signal;
/* The program cb_child_run is running (core/child.c), or 0: a signal that ends clbanks at once
 * (a second one) kills it first, so that no child outlives clbanks. */
extern volatile sig_atomic_t cb_child_pid;
/* Records the interruption when a stop was asked for: returns CB_ERR_INTERRUPTED, else CB_OK. */
cb_rc cb_check_interrupt(cb_error *err);
/* The stop cb_stop_signal asked for, and how far the work got: "interrupted by SIGINT" followed
 * by FMT (" after 3 of at least 6 rounds; no results written"); records the signal. Returns
 * CB_ERR_INTERRUPTED. */
cb_rc cb_error_interrupted(cb_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Blocks the stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT) while a handler must not see a value
 * half updated, the mask before in SAVED; cb_stop_signals_restore(SAVED) ends it. */
/* The stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT) in STOPS. */
void cb_stop_signals_set(sigset_t *stops);
void cb_stop_signals_block(sigset_t *saved);
void cb_stop_signals_restore(const sigset_t *saved);
/* "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT" or "a signal". */
const char *cb_signal_name(int sig);

#endif
