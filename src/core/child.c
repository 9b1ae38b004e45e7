/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum { IN, OUT, ERR };

#define CB_CHILD_POLL_MS 100

/* Pipes: fds[k][0] is the parent's end (stdin's write end, the others' read ends). */
typedef struct {
	int fd[3];
	size_t sent;
} pumps;

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The program with its standard streams on fresh pipes; *PID. The parent's ends in P. */
static int start(const cb_child_spec *s, pumps *p, pid_t *pid)
{
	int pipes[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } };
	int rc = 0;
	for (int k = 0; k < 3 && rc == 0; k++)
		if ((k != IN || s->input) && (k != ERR || !s->share_err) && pipe(pipes[k]) != 0)
			rc = errno;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	if (s->input)
		posix_spawn_file_actions_adddup2(&fa, pipes[IN][0], 0);
	else
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipes[OUT][1], 1);
	if (!s->share_err)
		posix_spawn_file_actions_adddup2(&fa, pipes[ERR][1], 2);
	for (int k = 0; k < 3; k++)
		for (int e = 0; e < 2; e++)
			if (pipes[k][e] >= 0)
				posix_spawn_file_actions_addclose(&fa, pipes[k][e]);
	/* The program gets the default disposition of what clbanks ignores (SIGPIPE, SIGXFSZ). */
	sigset_t def, none;
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGXFSZ);
	sigemptyset(&none);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	const char *prog = s->argv[0];
	if (rc == 0)
		rc = strchr(prog, '/') ? posix_spawn(pid, prog, &fa, &at, s->argv, environ)
				       : posix_spawnp(pid, prog, &fa, &at, s->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	p->fd[IN] = pipes[IN][1];
	p->fd[OUT] = pipes[OUT][0];
	p->fd[ERR] = pipes[ERR][0];
	close_fd(&pipes[IN][0]);
	close_fd(&pipes[OUT][1]);
	close_fd(&pipes[ERR][1]);
	if (rc != 0)
		for (int k = 0; k < 3; k++)
			close_fd(&p->fd[k]);
	else if (p->fd[IN] >= 0)
		fcntl(p->fd[IN], F_SETFL, O_NONBLOCK);
	return rc;
}

static void feed(const cb_child_spec *s, pumps *p)
{
	ssize_t w = write(p->fd[IN], s->input + p->sent, s->input_len - p->sent);
	if (w > 0)
		p->sent += (size_t)w;
	/* EPIPE: the program stopped reading; its exit status tells why. */
	if ((w < 0 && errno != EINTR && errno != EAGAIN) || p->sent == s->input_len)
		close_fd(&p->fd[IN]);
}

/* Reads what FD has into B, keeping LIMIT bytes; *OVER when more came. */
static void take(int *fd, cb_buf *b, size_t limit, bool *over)
{
	char chunk[65536];
	ssize_t n = read(*fd, chunk, sizeof chunk);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close_fd(fd);
		return;
	}
	size_t keep = b->len >= limit ? 0 : limit - b->len;
	keep = (size_t)n < keep ? (size_t)n : keep;
	cb_buf_add(b, chunk, keep);
	*over |= keep < (size_t)n;
}

/* Until both output pipes end (or stdout overflows, or a stop): feeds input, drains output. */
static cb_rc pump(const cb_child_spec *s, pumps *p, cb_child_result *r, cb_error *err)
{
	if (p->fd[IN] >= 0 && s->input_len == 0)
		close_fd(&p->fd[IN]);
	while ((p->fd[OUT] >= 0 || p->fd[ERR] >= 0) && !r->out_over) {
		struct pollfd f[3] = { { p->fd[OUT], POLLIN, 0 },
				       { p->fd[ERR], POLLIN, 0 },
				       { p->fd[IN], POLLOUT, 0 } };
		/* A signal that came outside poll() interrupts nothing: look at the flag before
		 * each wait, and wait at most CB_CHILD_POLL_MS so that one arriving between the
		 * look and the wait is seen too. */
		if (cb_check_interrupt(err) != CB_OK)
			return CB_ERR_INTERRUPTED;
		if (poll(f, 3, CB_CHILD_POLL_MS) < 0) {
			if (errno != EINTR)
				return cb_error_call(err, CB_ERR_RUNTIME, "poll", errno,
						     "talking to %s: %s", s->argv[0],
						     strerror(errno));
			if (cb_check_interrupt(err) != CB_OK)
				return CB_ERR_INTERRUPTED;
			continue;
		}
		if (f[2].revents)
			feed(s, p);
		if (f[0].revents)
			take(&p->fd[OUT], &r->out, s->out_limit, &r->out_over);
		if (f[1].revents)
			take(&p->fd[ERR], &r->err, s->err_limit, &r->err_over);
	}
	return CB_OK;
}

static void wait_for(pid_t pid, cb_child_result *r)
{
	int status = 0;
	pid_t w;
	while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (w == pid && WIFEXITED(status))
		r->exit_status = WEXITSTATUS(status);
	else if (w == pid && WIFSIGNALED(status))
		r->term_signal = WTERMSIG(status);
}

cb_rc cb_child_run(const cb_child_spec *s, cb_child_result *r, cb_error *err)
{
	memset(r, 0, sizeof *r);
	r->exit_status = -1;
	/* A program that exits before reading all its input must not kill the caller. */
	struct sigaction ign, old;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old);
	pumps p = { { -1, -1, -1 }, 0 };
	pid_t pid;
	/* No stop signal between the spawn and cb_child_pid: a second one must find the pid. */
	sigset_t saved;
	cb_stop_signals_block(&saved);
	int e = start(s, &p, &pid);
	if (e == 0)
		cb_child_pid = (sig_atomic_t)pid;
	cb_stop_signals_restore(&saved);
	cb_rc rc = CB_OK;
	if (e != 0)
		rc = cb_error_call(err, CB_ERR_RUNTIME, "posix_spawn", e, "cannot run %s: %s",
				   s->argv[0], strerror(e));
	else {
		rc = pump(s, &p, r, err);
		if (rc != CB_OK || r->out_over)
			kill(pid, SIGKILL);
		for (int k = 0; k < 3; k++)
			close_fd(&p.fd[k]);
		wait_for(pid, r);
		cb_child_pid = 0;
	}
	sigaction(SIGPIPE, &old, NULL);
	return rc;
}

void cb_child_result_free(cb_child_result *r)
{
	cb_buf_free(&r->out);
	cb_buf_free(&r->err);
}
