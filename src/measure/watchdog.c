/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/watchdog.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Built outside the handlers, which only read it (with write()). */
static char message[512];
static volatile sig_atomic_t busy, stop_sig, slow;
/* When the pending alarm is due, in ms of the monotonic clock since BASE (0: none): a SIGALRM
 * before it was sent by another process, not by alarm(), and is not a timeout. */
static volatile sig_atomic_t due_ms;
static struct timespec base;
static unsigned limit_s;

static long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t); /* async-signal-safe */
	return (long)(t.tv_sec - base.tv_sec) * 1000 + (t.tv_nsec - base.tv_nsec) / 1000000;
}

/* alarm(SECONDS), and when it is due. */
static void set_alarm(unsigned seconds)
{
	due_ms = 0;
	alarm(seconds);
	if (seconds)
		due_ms = (sig_atomic_t)(now_ms() + 1000L * seconds);
}

/* A SIGALRM before the alarm is due (50 ms of slack for the clocks), or with none pending:
 * re-armed for the time left, and otherwise ignored. */
static bool foreign_alarm(void)
{
	long due = due_ms, left = due - now_ms();
	if (due && left <= 50)
		return false;
	if (due)
		alarm((unsigned)((left + 999) / 1000));
	return true;
}

static void put(const char *s)
{
	ssize_t w = write(STDERR_FILENO, s, strlen(s));
	(void)w;
}

static const char *signal_name(int sig)
{
	return sig == SIGINT    ? "SIGINT"
	       : sig == SIGTERM ? "SIGTERM"
	       : sig == SIGHUP  ? "SIGHUP"
	       : sig == SIGQUIT ? "SIGQUIT"
				: "a signal";
}

static void on_alarm(int sig)
{
	(void)sig;
	if (foreign_alarm())
		return;
	if (stop_sig) {
		put("\nclbanks: interrupted by ");
		put(signal_name(stop_sig));
		put(", but ");
		put(message);
		put(" did not return; giving up (no output written)\n");
		_exit(128 + stop_sig);
	}
	put("\nclbanks: watchdog: ");
	put(message);
	put(slow ? " did not finish within ten times --timeout (a build's or the driver's start-up "
		   "allowance); giving up (no output written)\n"
		 : " did not finish within --timeout; giving up (no output written)\n");
	_exit(4);
}

/* A stop asked for: the call under way gets the grace period, unless its alarm comes first. */
static void arm_grace(void)
{
	long due = due_ms;
	if (due && due - now_ms() < 1000L * CB_WATCHDOG_GRACE_S)
		return; /* the call's own alarm comes first */
	set_alarm(CB_WATCHDOG_GRACE_S);
}

void cb_watchdog_arm(unsigned seconds, const char *what)
{
	static bool installed;
	if (!installed) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_alarm;
		sigemptyset(&sa.sa_mask);
		clock_gettime(CLOCK_MONOTONIC, &base);
		sigaction(SIGALRM, &sa, NULL);
		installed = true;
	}
	if (!what) {
		busy = slow = 0;
		set_alarm(0);
		return;
	}
	busy = 0; /* the message is not read while it changes */
	strncpy(message, what, sizeof message - 1);
	message[sizeof message - 1] = '\0';
	set_alarm(seconds);
	busy = 1;
	if (stop_sig)
		arm_grace();
}

void cb_watchdog_set_limit(unsigned seconds)
{
	limit_s = seconds;
}

void cb_watchdog_call(const char *what)
{
	slow = 0;
	cb_watchdog_arm(limit_s, what);
}

void cb_watchdog_slow(const char *what)
{
	slow = 1;
	cb_watchdog_arm(limit_s > 86400 ? 864000 : limit_s * 10, what);
}

void cb_watchdog_stop_signal(int sig)
{
	if (stop_sig)
		return;
	stop_sig = sig;
	if (busy)
		arm_grace();
}

int cb_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int e = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return e;
}
