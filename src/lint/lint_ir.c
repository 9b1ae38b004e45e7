/* SPDX-License-Identifier: MIT */
/* clang as a child process (posix_spawn, never a shell), its stderr kept as the build log, and
 * the bitcode it writes to stdout loaded with the LLVM-C API. */
#include "config.h"
#include "lint/lint_ir.h"
#include "core/util.h"

#include <llvm-c/BitReader.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define BITCODE_LIMIT ((size_t)1 << 29)
#define LOG_LIMIT ((size_t)1 << 20)

typedef struct {
	char *data;
	size_t len, cap, limit;
	bool truncated;
} buffer;

const char *cb_lint_clang(const char *requested)
{
	return requested && *requested ? requested : CB_CLANG;
}

static void buffer_add(buffer *b, const char *p, size_t n)
{
	if (b->len + n > b->limit) {
		b->truncated = true;
		n = b->limit - b->len;
	}
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->data = cb_xrealloc(b->data, b->cap);
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

/* Reads both pipes to their end (either may fill while the other is waited on). */
static cb_rc drain(int fd_out, int fd_err, buffer *out, buffer *log, cb_error *err)
{
	struct pollfd fds[2] = { { fd_out, POLLIN, 0 }, { fd_err, POLLIN, 0 } };
	buffer *bufs[2] = { out, log };
	char chunk[65536];
	int open_fds = 2;
	while (open_fds > 0) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return cb_error_call(err, CB_ERR_RUNTIME, "poll", errno,
					     "reading clang's output failed: %s", strerror(errno));
		}
		for (int i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t n = read(fds[i].fd, chunk, sizeof chunk);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
				continue;
			}
			buffer_add(bufs[i], chunk, (size_t)n);
		}
	}
	return CB_OK;
}

static cb_rc spawn(const char *clang, char *const argv[], buffer *out, buffer *log, int *status,
		   cb_error *err)
{
	int po[2], pe[2];
	if (pipe(po) != 0)
		return cb_error_call(err, CB_ERR_RUNTIME, "pipe", errno, "pipe: %s", strerror(errno));
	if (pipe(pe) != 0) {
		int e = errno;
		close(po[0]);
		close(po[1]);
		return cb_error_call(err, CB_ERR_RUNTIME, "pipe", e, "pipe: %s", strerror(e));
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, po[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
	int ends[4] = { po[0], po[1], pe[0], pe[1] };
	for (int i = 0; i < 4; i++)
		posix_spawn_file_actions_addclose(&fa, ends[i]);
	pid_t pid;
	int rc = strchr(clang, '/') ? posix_spawn(&pid, clang, &fa, NULL, argv, environ)
				    : posix_spawnp(&pid, clang, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(po[1]);
	close(pe[1]);
	if (rc != 0) {
		close(po[0]);
		close(pe[0]);
		return cb_error_call(err, CB_ERR_RUNTIME, "posix_spawn", rc,
				     "cannot run clang '%s': %s; install the clang of LLVM %d "
				     "(Debian: clang-%d) or name one with CLBANKS_CLANG",
				     clang, strerror(rc), CB_LLVM_MAJOR, CB_LLVM_MAJOR);
	}
	cb_rc r = drain(po[0], pe[0], out, log, err);
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return cb_error_call(err, CB_ERR_RUNTIME, "waitpid", errno, "waitpid: %s",
					     strerror(errno));
	}
	return r;
}

/* The first line of LOG that reports an error, for the one-sentence message. */
static void first_error(const char *log, char *out, size_t n)
{
	const char *p = strstr(log, "error:");
	if (!p) {
		snprintf(out, n, "see the build log");
		return;
	}
	const char *start = p;
	while (start > log && start[-1] != '\n')
		start--;
	size_t len = strcspn(start, "\n");
	snprintf(out, n, "%.*s", (int)(len < 300 ? len : 300), start);
}

static cb_rc check_request(const cb_lint_request *req, cb_error *err)
{
	struct stat st;
	if (!req->kernel_path || !*req->kernel_path)
		return cb_error_set(err, CB_ERR_USAGE, "lint needs a kernel file (KERNEL.cl)");
	if (stat(req->kernel_path, &st) != 0)
		return cb_error_call(err, CB_ERR_INPUT, "stat", errno, "cannot open %s: %s",
				     req->kernel_path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return cb_error_set(err, CB_ERR_INPUT, "%s is not a regular file", req->kernel_path);
	for (size_t i = 0; i < req->ndefines; i++) {
		const char *d = req->defines[i];
		if (!d || !*d || *d == '=' || strchr(d, '\n'))
			return cb_error_set(err, CB_ERR_USAGE, "-D needs NAME or NAME=VALUE");
	}
	return CB_OK;
}

static char **clang_argv(const cb_lint_request *req, const char *clang)
{
	static const char *const fixed[] = {
		"-x", "cl", "-cl-std=CL1.2", "-target", "spir64", "-g", "-O0", "-cl-kernel-arg-info",
		"-emit-llvm", "-c", "-o", "-",
	};
	size_t nfixed = sizeof fixed / sizeof fixed[0], k = 0;
	char **argv = cb_xcalloc(nfixed + req->ndefines + 4, sizeof *argv);
	argv[k++] = cb_xstrdup(clang);
	for (size_t i = 0; i < nfixed; i++)
		argv[k++] = cb_xstrdup(fixed[i]);
	for (size_t i = 0; i < req->ndefines; i++) {
		size_t n = strlen(req->defines[i]) + 3;
		argv[k] = cb_xmalloc(n);
		snprintf(argv[k++], n, "-D%s", req->defines[i]);
	}
	argv[k++] = cb_xstrdup("--");
	argv[k++] = cb_xstrdup(req->kernel_path);
	return argv;
}

typedef struct {
	char text[512];
} diag_state;

static void on_diagnostic(LLVMDiagnosticInfoRef di, void *ctx)
{
	diag_state *d = ctx;
	char *msg = LLVMGetDiagInfoDescription(di);
	if (!d->text[0] && msg)
		snprintf(d->text, sizeof d->text, "%s", msg);
	LLVMDisposeMessage(msg);
}

static cb_rc load_bitcode(const buffer *bc, const char *clang, cb_lint_ir *ir, cb_error *err)
{
	diag_state d = { { 0 } };
	ir->ctx = LLVMContextCreate();
	/* Without a handler, LLVM reports a bad module and exits the process. */
	LLVMContextSetDiagnosticHandler(ir->ctx, on_diagnostic, &d);
	LLVMMemoryBufferRef mb =
		LLVMCreateMemoryBufferWithMemoryRangeCopy(bc->data ? bc->data : "", bc->len, "kernel");
	LLVMBool bad = LLVMParseBitcodeInContext2(ir->ctx, mb, &ir->mod);
	LLVMDisposeMemoryBuffer(mb);
	LLVMContextSetDiagnosticHandler(ir->ctx, NULL, NULL);
	if (bad) {
		ir->mod = NULL;
		return cb_error_set(err, CB_ERR_RUNTIME,
				    "cannot read the bitcode of %s (%s); lint needs the clang of LLVM "
				    "%d, the version clbanks was built with (set CLBANKS_CLANG)",
				    clang, d.text[0] ? d.text : "no reason given", CB_LLVM_MAJOR);
	}
	return CB_OK;
}

cb_rc cb_lint_compile(const cb_lint_request *req, cb_lint_ir *ir, cb_error *err)
{
	memset(ir, 0, sizeof *ir);
	ir->log = cb_xstrdup("");
	cb_rc rc = check_request(req, err);
	if (rc != CB_OK)
		return rc;
	const char *clang = cb_lint_clang(req->clang);
	char **argv = clang_argv(req, clang);
	buffer out = { NULL, 0, 0, BITCODE_LIMIT, false }, log = { NULL, 0, 0, LOG_LIMIT, false };
	int status = 0;
	rc = spawn(clang, argv, &out, &log, &status, err);
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
	if (log.data) {
		free(ir->log);
		ir->log = log.data;
	}
	/* A child that could not exec says 127 and nothing else (when posix_spawn itself cannot
	 * tell, as under valgrind). */
	if (rc == CB_OK && WIFEXITED(status) && WEXITSTATUS(status) == 127 && !ir->log[0])
		rc = cb_error_call(err, CB_ERR_RUNTIME, "posix_spawn", 127,
				   "cannot run clang '%s'; install the clang of LLVM %d (Debian: "
				   "clang-%d) or name one with CLBANKS_CLANG", clang, CB_LLVM_MAJOR,
				   CB_LLVM_MAJOR);
	if (rc == CB_OK && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
		char first[320];
		first_error(ir->log, first, sizeof first);
		if (WIFEXITED(status))
			rc = cb_error_set(err, CB_ERR_INPUT, "%s does not compile (clang exit status %d): %s",
					  req->kernel_path, WEXITSTATUS(status), first);
		else
			rc = cb_error_set(err, CB_ERR_RUNTIME, "clang '%s' was killed by signal %d",
					  clang, WTERMSIG(status));
	} else if (rc == CB_OK && out.truncated) {
		rc = cb_error_set(err, CB_ERR_INPUT, "%s: the module is larger than %zu bytes",
				  req->kernel_path, BITCODE_LIMIT);
	}
	if (rc == CB_OK)
		rc = load_bitcode(&out, clang, ir, err);
	free(out.data);
	return rc;
}

void cb_lint_ir_free(cb_lint_ir *ir)
{
	if (ir->mod)
		LLVMDisposeModule(ir->mod);
	if (ir->ctx)
		LLVMContextDispose(ir->ctx);
	free(ir->log);
	memset(ir, 0, sizeof *ir);
}
