/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/signals.h"
#include "core/util.h"
#include "measure/watchdog.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Async-signal-safe copies: the handlers use these only with write() and unlink(). */
static char tempfile[4096];

static void on_stop(int sig)
{
	if (cb_stop_signal) {
		/* Second signal: the user means it. Leave nothing behind, then die of it. */
		if (tempfile[0])
			unlink(tempfile);
		if (cb_child_pid > 0)
			kill((pid_t)cb_child_pid, SIGKILL);
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	cb_stop_signal = sig;
	/* A driver call that never returns would never see the flag. */
	cb_watchdog_stop_signal(sig);
}

/* SIGUSR1 as the process started: LLVM's handler of it (an "info" signal) only prints. */
static struct sigaction usr1_at_start;

static void install_handlers(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	/* No SA_RESTART: a read blocked on a pipe or FIFO returns EINTR, so a stop is seen. */
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL); /* Ctrl-\: a stop like Ctrl-C, not a core dump */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGXFSZ, &sa, NULL);
}

void cb_signals_install(void)
{
	install_handlers();
	sigaction(SIGUSR1, NULL, &usr1_at_start);
	/* 'clbanks lint' blocks them before it execs its helper, so that none arriving while the
	 * helper starts kills it unannounced; pending ones are handled now. */
	sigset_t stops;
	cb_stop_signals_set(&stops);
	sigprocmask(SIG_UNBLOCK, &stops, NULL);
}

void cb_signals_reclaim(void)
{
	install_handlers();
	sigaction(SIGUSR1, &usr1_at_start, NULL);
}

void cb_signals_set_tempfile(const char *path)
{
	if (!path) {
		tempfile[0] = '\0';
		return;
	}
	/* Written while no handler may read it half-updated: block the stop signals. */
	sigset_t old;
	cb_stop_signals_block(&old);
	strncpy(tempfile, path, sizeof tempfile - 1);
	tempfile[sizeof tempfile - 1] = '\0';
	cb_stop_signals_restore(&old);
}
