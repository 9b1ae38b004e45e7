/* SPDX-License-Identifier: MIT */
/* clang as a child process (core/child.c: posix_spawn, never a shell), its stderr kept as the
 * build log, and the bitcode it writes to stdout loaded with the LLVM-C API. */
#define _DEFAULT_SOURCE /* realpath */
#include "config.h"
#include "lint/lint_ir.h"
#include "core/child.h"
#include "core/util.h"
#include "lint/lint_lang.h"
#include "lint/lint_opts.h"

#include <llvm-c/BitReader.h>

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BITCODE_LIMIT ((size_t)1 << 29)
#define LOG_LIMIT ((size_t)1 << 20)

const char *cb_lint_clang(const char *requested)
{
	return requested && *requested ? requested : CB_CLANG;
}

/* Runs clang (core/child.c); a start failure says how to name another. */
static cb_rc run_clang(const char *clang, char *const argv[], cb_child_result *r, cb_error *err)
{
	cb_child_spec s = { .argv = argv, .out_limit = BITCODE_LIMIT, .err_limit = LOG_LIMIT };
	cb_rc rc = cb_child_run(&s, r, err);
	if (rc == CB_ERR_RUNTIME && err && err->call && strcmp(err->call, "posix_spawn") == 0) {
		int e = err->code;
		cb_error_call(err, CB_ERR_RUNTIME, "posix_spawn", e,
			      "cannot run clang '%s': %s; install the clang of LLVM %d (Debian: "
			      "clang-%d) or name one with CLBANKS_CLANG",
			      clang, strerror(e), CB_LLVM_MAJOR, CB_LLVM_MAJOR);
	}
	return rc;
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
	/* '-' is standard input for every document; clang cannot read clbanks' (below). */
	if (!strcmp(req->kernel_path, "-"))
		return cb_error_set(err, CB_ERR_INPUT,
				    "-: lint reads a kernel from a file of its own, not standard "
				    "input; save the kernel to a file (KERNEL.cl) and lint that");
	if (stat(req->kernel_path, &st) != 0)
		return cb_error_call(err, CB_ERR_INPUT, "stat", errno, "cannot open %s: %s",
				     req->kernel_path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return cb_error_set(err, CB_ERR_INPUT, "%s is not a regular file",
				    req->kernel_path);
	/* /dev/stdin, /dev/fd/N, /proc/self/fd/N: a descriptor of clbanks, which clang (another
	 * process, with its own descriptors) would not read: it compiled an empty file. */
	if (!strncmp(req->kernel_path, "/dev/", 5) || !strncmp(req->kernel_path, "/proc/", 6))
		return cb_error_set(err, CB_ERR_INPUT,
				    "%s: lint reads a kernel from a file of its "
				    "own; save the kernel to a file (KERNEL.cl) and lint that",
				    req->kernel_path);
	return CB_OK;
}

/* Includes: clang -H lists every file the kernel includes (". path", one dot a level). lint
 * reads only files in the kernel's directory, the -I directories and clang's own headers, and
 * only regular files: a kernel under review must not copy lines of other files (keys, .netrc)
 * into a CI log through clang's diagnostics, nor include /dev/stdin or /proc files as empty. */

/* Is the canonical PATH inside the canonical directory DIR? */
static bool inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return dir[0] && strncmp(path, dir, n) == 0 &&
	       (path[n] == '/' || (n == 1 && dir[0] == '/'));
}

/* clang's resource directory (its built-in headers), canonical; owned by the caller, or NULL. */
static char *resource_dir(const char *clang)
{
	char *argv[] = { (char *)clang, (char *)"-print-resource-dir", NULL };
	cb_child_spec s = { .argv = argv, .out_limit = 1 << 16, .err_limit = 1 << 16 };
	cb_child_result r;
	cb_error ignored;
	char *dir = NULL;
	if (cb_child_run(&s, &r, &ignored) == CB_OK && r.exit_status == 0) {
		char *out = cb_buf_take(&r.out, NULL);
		out[strcspn(out, "\n")] = '\0';
		dir = realpath(out, NULL);
		free(out);
	}
	cb_child_result_free(&r);
	return dir;
}

/* Where includes may come from: the kernel's directory and each -I of USER, canonical. */
static size_t allowed_dirs(const cb_lint_request *req, const cb_lint_args *user, char **dirs)
{
	size_t n = 0;
	char *k = realpath(req->kernel_path, NULL);
	if (k) {
		*strrchr(k, '/') = '\0';
		dirs[n++] = k[0] ? k : (free(k), cb_xstrdup("/"));
	}
	for (size_t i = 0; i < user->n; i++)
		if (!strncmp(user->v[i], "-I", 2) && (dirs[n] = realpath(user->v[i] + 2, NULL)))
			n++;
	return n;
}

/* The first include of LOG that lint may not read, said in ERR; CB_OK when there is none. */
static cb_rc check_includes(const cb_lint_request *req, const cb_lint_args *user, const char *clang,
			    const char *log, cb_error *err)
{
	char **dirs = cb_xcalloc(user->n + 2, sizeof *dirs), *res = NULL;
	size_t nd = allowed_dirs(req, user, dirs);
	bool res_tried = false;
	cb_rc rc = CB_OK;
	for (const char *l = log; *l && rc == CB_OK; l += strcspn(l, "\n") + 1) {
		size_t dots = strspn(l, ".");
		if (!l[strcspn(l, "\n")])
			break; /* clang ends its lines */
		if (!dots || l[dots] != ' ')
			continue;
		size_t len = strcspn(l + dots + 1, "\n");
		char *name = cb_xmalloc(len + 1);
		memcpy(name, l + dots + 1, len);
		name[len] = '\0';
		char *real = realpath(name, NULL);
		struct stat st;
		bool ok = false;
		for (size_t i = 0; real && i < nd && !ok; i++)
			ok = inside(real, dirs[i]);
		if (real && !ok && !res_tried) {
			res = resource_dir(clang);
			res_tried = true;
		}
		ok |= real && res && inside(real, res);
		if (!ok)
			rc = cb_error_set(
				err, CB_ERR_INPUT,
				"%s includes '%s', outside its own directory "
				"and the -I directories; lint reads no other files (add -I DIR)",
				req->kernel_path, name);
		else if (stat(real, &st) != 0 || !S_ISREG(st.st_mode))
			rc = cb_error_set(err, CB_ERR_INPUT,
					  "%s includes '%s', which is not a regular file",
					  req->kernel_path, name);
		free(real);
		free(name);
	}
	for (size_t i = 0; i < nd; i++)
		free(dirs[i]);
	free(dirs);
	free(res);
	return rc;
}

/* LOG without -H's lines (the includes, and the list of headers without include guards). */
static void strip_includes(char *log)
{
	char *w = log;
	bool guards = false;
	for (char *l = log; *l;) {
		size_t len = strcspn(l, "\n"), dots = strspn(l, ".");
		bool end = l[len] == '\n';
		if (!strncmp(l, "Multiple include guards may be useful for:", 42))
			guards = true;
		else if (guards && len && l[0] != ' ' && !memchr(l, ':', len))
			;
		else if (!(dots && l[dots] == ' ')) {
			guards = false;
			memmove(w, l, len + end);
			w += len + end;
		}
		l += len + end;
	}
	*w = '\0';
}

/* -O1 with LLVM's passes disabled: the IR as clang's front end writes it (every statement
 * keeps its loads, stores and line, as at -O0), but with the bodies of C99 inline functions
 * (available_externally), which -O0 leaves out, so that their accesses are seen. */
static char **clang_argv(const cb_lint_request *req, const char *clang, const cb_lint_args *user)
{
	const char *const *fixed = cb_lint_lang_fixed(req->lang); /* lint_lang.c */
	size_t nfixed = 0, k = 0;
	while (fixed[nfixed])
		nfixed++;
	char **argv = cb_xcalloc(nfixed + user->n + 4, sizeof *argv);
	argv[k++] = cb_xstrdup(clang);
	for (size_t i = 0; i < nfixed; i++)
		argv[k++] = cb_xstrdup(fixed[i]);
	for (size_t i = 0; i < user->n; i++)
		argv[k++] = cb_xstrdup(user->v[i]);
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

static cb_rc load_bitcode(const cb_buf *bc, const char *clang, cb_lint_ir *ir, cb_error *err)
{
	diag_state d = { { 0 } };
	ir->ctx = LLVMContextCreate();
	/* Without a handler, LLVM reports a bad module and exits the process. */
	LLVMContextSetDiagnosticHandler(ir->ctx, on_diagnostic, &d);
	LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(bc->data ? bc->data : "",
									   bc->len, "kernel");
	LLVMBool bad = LLVMParseBitcodeInContext2(ir->ctx, mb, &ir->mod);
	LLVMDisposeMemoryBuffer(mb);
	LLVMContextSetDiagnosticHandler(ir->ctx, NULL, NULL);
	if (bad) {
		ir->mod = NULL;
		return cb_error_set(
			err, CB_ERR_RUNTIME,
			"cannot read the bitcode of %s (%s); lint needs the clang of LLVM "
			"%d, the version clbanks was built with (set CLBANKS_CLANG)",
			clang, d.text[0] ? d.text : "no reason given", CB_LLVM_MAJOR);
	}
	return CB_OK;
}

/* The last module compiled: its key (clang's arguments and the kernel file's identity and
 * time), kept until the next compile of another key. */
static struct {
	char *key;
	LLVMContextRef ctx;
	LLVMModuleRef mod;
	char *log;
} cache;

/* The key of a compile: ARGV and the file's device, inode, size and modification time. */
static char *compile_key(char *const argv[], const char *path)
{
	struct stat st;
	size_t n = 128;
	for (size_t i = 0; argv[i]; i++)
		n += strlen(argv[i]) + 1;
	char *k = cb_xmalloc(n), *p = k;
	if (stat(path, &st) != 0)
		memset(&st, 0, sizeof st);
	p += sprintf(p, "%llu:%llu:%lld:%lld.%09ld", (unsigned long long)st.st_dev,
		     (unsigned long long)st.st_ino, (long long)st.st_size,
		     (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
	for (size_t i = 0; argv[i]; i++)
		p += sprintf(p, "\x1f%s", argv[i]);
	return k;
}

static void cache_drop(void)
{
	if (cache.mod)
		LLVMDisposeModule(cache.mod);
	if (cache.ctx)
		LLVMContextDispose(cache.ctx);
	free(cache.key);
	free(cache.log);
	memset(&cache, 0, sizeof cache);
}

/* IR shares the cached module when KEY is the cache's. */
static bool from_cache(const char *key, cb_lint_ir *ir)
{
	if (!cache.key || strcmp(cache.key, key) != 0)
		return false;
	free(ir->log);
	ir->log = cb_xstrdup(cache.log);
	ir->ctx = cache.ctx;
	ir->mod = cache.mod;
	ir->cached = true;
	return true;
}

/* IR's module becomes the cache's, under KEY (owned by the cache from now on). */
static void to_cache(char *key, cb_lint_ir *ir)
{
	cache_drop();
	cache.key = key;
	cache.ctx = ir->ctx;
	cache.mod = ir->mod;
	cache.log = cb_xstrdup(ir->log);
	ir->cached = true;
}

cb_rc cb_lint_compile(const cb_lint_request *req, cb_lint_ir *ir, cb_error *err)
{
	memset(ir, 0, sizeof *ir);
	ir->log = cb_xstrdup("");
	cb_rc rc = check_request(req, err);
	if (rc != CB_OK)
		return rc;
	cb_lint_args user;
	rc = cb_lint_build_args(req, &user, err);
	if (rc != CB_OK) {
		cb_lint_args_free(&user);
		return rc;
	}
	const char *clang = cb_lint_clang(req->clang);
	char **argv = clang_argv(req, clang, &user);
	char *key = compile_key(argv, req->kernel_path);
	if (from_cache(key, ir)) {
		cb_lint_args_free(&user);
		for (size_t i = 0; argv[i]; i++)
			free(argv[i]);
		free(argv);
		free(key);
		return CB_OK;
	}
	cb_child_result res;
	rc = run_clang(clang, argv, &res, err);
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
	free(ir->log);
	ir->log = cb_buf_take(&res.err, NULL);
	if (rc == CB_OK && (rc = check_includes(req, &user, clang, ir->log, err)) != CB_OK)
		ir->log[0] = '\0'; /* it may quote the file */
	strip_includes(ir->log);
	cb_lint_args_free(&user);
	/* A child that could not exec says 127 and nothing else (when posix_spawn itself cannot
	 * tell, as under valgrind). */
	if (rc == CB_OK && res.exit_status == 127 && !ir->log[0])
		rc = cb_error_call(err, CB_ERR_RUNTIME, "posix_spawn", 127,
				   "cannot run clang '%s'; install the clang of LLVM %d (Debian: "
				   "clang-%d) or name one with CLBANKS_CLANG",
				   clang, CB_LLVM_MAJOR, CB_LLVM_MAJOR);
	if (rc == CB_OK && res.out_over) {
		rc = cb_error_set(err, CB_ERR_INPUT, "%s: the module is larger than %zu bytes",
				  req->kernel_path, BITCODE_LIMIT);
	} else if (rc == CB_OK && res.exit_status != 0) {
		char first[320];
		first_error(ir->log, first, sizeof first);
		if (res.exit_status > 0)
			rc = cb_error_set(err, CB_ERR_INPUT,
					  "%s does not compile (clang exit status %d): %s",
					  req->kernel_path, res.exit_status, first);
		else
			rc = cb_error_set(err, CB_ERR_RUNTIME, "clang '%s' was killed by signal %d",
					  clang, res.term_signal);
	}
	if (rc == CB_OK)
		rc = load_bitcode(&res.out, clang, ir, err);
	if (rc == CB_OK)
		to_cache(key, ir);
	else
		free(key);
	cb_child_result_free(&res);
	return rc;
}

void cb_lint_ir_free(cb_lint_ir *ir)
{
	if (ir->mod && !ir->cached)
		LLVMDisposeModule(ir->mod);
	if (ir->ctx && !ir->cached)
		LLVMContextDispose(ir->ctx);
	free(ir->log);
	memset(ir, 0, sizeof *ir);
}
