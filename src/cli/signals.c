/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/signals.h"
#include "core/util.h"

#include <string.h>
#include <unistd.h>

volatile sig_atomic_t cb_stop_signal = 0;

/* Async-signal-safe copies: the handlers may only use these with write() and unlink(). */
static char tempfile[4096];
static char watchdog_msg[512];

static void on_stop(int sig)
{
	if (cb_stop_signal) {
		/* Second signal: the user means it. */
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	cb_stop_signal = sig;
}

static void on_alarm(int sig)
{
	(void)sig;
	ssize_t w = write(STDERR_FILENO, watchdog_msg, strlen(watchdog_msg));
	(void)w;
	if (tempfile[0])
		unlink(tempfile);
	_exit(CB_EXIT_RUNTIME);
}

void cb_signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
}

void cb_signals_set_tempfile(const char *path)
{
	if (!path) {
		tempfile[0] = '\0';
		return;
	}
	strncpy(tempfile, path, sizeof tempfile - 1);
	tempfile[sizeof tempfile - 1] = '\0';
}

void cb_watchdog_arm(unsigned seconds, const char *what)
{
	if (seconds && what) {
		size_t n = sizeof watchdog_msg;
		/* Built here, outside the handler. */
		strncpy(watchdog_msg, "\nclbanks: watchdog: ", n);
		strncat(watchdog_msg, what, n - strlen(watchdog_msg) - 1);
		strncat(watchdog_msg, " did not finish within --timeout; giving up (no output written)\n",
			n - strlen(watchdog_msg) - 1);
	}
	alarm(seconds);
}
