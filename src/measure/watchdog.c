/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/watchdog.h"

#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

/* Built outside the handler, which may only write() it. */
static char message[512];

static void on_alarm(int sig)
{
	(void)sig;
	ssize_t w = write(STDERR_FILENO, message, strlen(message));
	(void)w;
	_exit(4);
}

void cb_watchdog_arm(unsigned seconds, const char *what)
{
	static bool installed;
	if (!installed) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_alarm;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, NULL);
		installed = true;
	}
	if (seconds && what) {
		size_t n = sizeof message;
		strncpy(message, "\nclbanks: watchdog: ", n);
		strncat(message, what, n - strlen(message) - 1);
		strncat(message, " did not finish within --timeout; giving up (no output written)\n",
			n - strlen(message) - 1);
	}
	alarm(seconds);
}
