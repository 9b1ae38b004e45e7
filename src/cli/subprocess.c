/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/subprocess.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void child(char *const argv[], int in_fd, int out_fd)
{
	dup2(in_fd, STDIN_FILENO);
	dup2(out_fd, STDOUT_FILENO);
	close(in_fd);
	close(out_fd);
	signal(SIGPIPE, SIG_DFL);
	execv(argv[0], argv);
	_exit(127);
}

/* Feeds INPUT and drains the output at the same time, so that neither pipe can fill up and
 * block both processes. */
static cb_rc pump_loop(int *to_fd_p, int *from_fd_p, const char *input, size_t input_len,
		       size_t out_cap, cb_filter_result *res, cb_error *err)
{
	int to_fd = *to_fd_p, from_fd = *from_fd_p;
	size_t sent = 0, cap = 65536;
	res->out = cb_xmalloc(cap + 1);
	res->out_len = 0;
	if (input_len == 0) {
		close(to_fd);
		to_fd = -1;
	}
	while (from_fd >= 0) {
		struct pollfd p[2] = { { from_fd, POLLIN, 0 }, { to_fd, POLLOUT, 0 } };
		if (poll(p, to_fd >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR && cb_check_interrupt(err) != CB_OK)
				break;
			continue;
		}
		if (to_fd >= 0 && (p[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
			ssize_t w = write(to_fd, input + sent, input_len - sent);
			if (w > 0)
				sent += (size_t)w;
			/* EPIPE: the program stopped reading; its exit status tells why. */
			if ((w < 0 && errno != EINTR && errno != EAGAIN) || sent == input_len) {
				close(to_fd);
				to_fd = -1;
			}
		}
		if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			if (res->out_len == cap) {
				if (cap >= out_cap) {
					cb_error_set(err, CB_ERR_RUNTIME, "the program wrote more than %zu bytes",
						     out_cap);
					break;
				}
				cap = cap * 2 < out_cap ? cap * 2 : out_cap;
				res->out = cb_xrealloc(res->out, cap + 1);
			}
			ssize_t r = read(from_fd, res->out + res->out_len, cap - res->out_len);
			if (r > 0)
				res->out_len += (size_t)r;
			else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
				close(from_fd);
				from_fd = -1;
			}
		}
	}
	*to_fd_p = to_fd;
	*from_fd_p = from_fd;
	res->out[res->out_len] = '\0';
	return from_fd < 0 ? CB_OK : (err ? err->rc : CB_ERR_RUNTIME);
}

static cb_rc pump(int to_fd, int from_fd, const char *input, size_t input_len, size_t out_cap,
		  cb_filter_result *res, cb_error *err)
{
	cb_rc rc = pump_loop(&to_fd, &from_fd, input, input_len, out_cap, res, err);
	if (to_fd >= 0)
		close(to_fd);
	if (from_fd >= 0)
		close(from_fd);
	return rc;
}

cb_rc cb_filter_run(char *const argv[], const char *input, size_t input_len, size_t out_cap,
		    cb_filter_result *res, cb_error *err)
{
	memset(res, 0, sizeof *res);
	res->exit_status = -1;
	int in[2], out[2];
	if (pipe(in) != 0)
		return cb_error_call(err, CB_ERR_RUNTIME, "pipe", errno, "cannot run %s: %s", argv[0],
				     strerror(errno));
	if (pipe(out) != 0) {
		close(in[0]);
		close(in[1]);
		return cb_error_call(err, CB_ERR_RUNTIME, "pipe", errno, "cannot run %s: %s", argv[0],
				     strerror(errno));
	}
	/* A program that exits before reading everything must not kill clbanks. */
	struct sigaction ign, old;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old);
	pid_t pid = fork();
	if (pid == 0) {
		close(in[1]);
		close(out[0]);
		child(argv, in[0], out[1]);
	}
	close(in[0]);
	close(out[1]);
	cb_rc rc;
	if (pid < 0) {
		close(in[1]);
		close(out[0]);
		rc = cb_error_call(err, CB_ERR_RUNTIME, "fork", errno, "cannot run %s: %s", argv[0],
				   strerror(errno));
	} else {
		fcntl(in[1], F_SETFL, O_NONBLOCK);
		rc = pump(in[1], out[0], input, input_len, out_cap, res, err);
		if (rc != CB_OK)
			kill(pid, SIGKILL);
		int status = 0;
		pid_t w;
		while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
			;
		if (w < 0)
			res->exit_status = -1;
		else if (WIFEXITED(status))
			res->exit_status = WEXITSTATUS(status);
		else if (WIFSIGNALED(status))
			res->term_signal = WTERMSIG(status);
	}
	sigaction(SIGPIPE, &old, NULL);
	if (rc != CB_OK)
		cb_filter_result_free(res);
	return rc;
}

void cb_filter_result_free(cb_filter_result *res)
{
	free(res->out);
	res->out = NULL;
	res->out_len = 0;
}
