/* SPDX-License-Identifier: MIT */
/* 'clbanks lint' runs in a helper program, clbanks-lint, the only one that links LLVM: an OpenCL
 * driver built on another LLVM (PoCL, rusticl) crashes in a process that has loaded a second
 * one, so the measuring program never loads it. */
#include "config.h"
#include "cli/lint_exec.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HELPER "clbanks-lint"

#ifndef CB_HAVE_LLVM
static cb_rc no_llvm(cb_error *err)
{
	return cb_error_set(err, CB_ERR_USAGE,
			    "clbanks was built without LLVM; install llvm-dev "
			    "and clang and reconfigure with --with-llvm");
}
#else
/* The directory of the running program ("" when unknown): a build tree keeps the helper there. */
static void self_dir(const char *argv0, char *dir, size_t n)
{
	char path[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
	if (len > 0)
		path[len] = '\0';
	else if (argv0 && strchr(argv0, '/') && strlen(argv0) < sizeof path)
		strcpy(path, argv0);
	else
		path[0] = '\0';
	char *slash = strrchr(path, '/');
	if (slash)
		*slash = '\0';
	snprintf(dir, n, "%s", slash ? path : "");
}

/* Where the helper may be, in order: $CLBANKS_LINT (alone, when set), beside this program,
 * installed. */
static int candidates(const char *argv0, char (*c)[PATH_MAX + 32], char *dir, size_t n)
{
	int k = 0;
	const char *env = getenv("CLBANKS_LINT");
	if (env && *env) {
		snprintf(c[k++], sizeof c[0], "%s", env);
		dir[0] = '\0';
		return k;
	}
	self_dir(argv0, dir, n);
	if (dir[0])
		snprintf(c[k++], sizeof c[0], "%s/%s", dir, HELPER);
	snprintf(c[k++], sizeof c[0], "%s/%s", CB_PKGLIBEXECDIR, HELPER);
	return k;
}

static cb_rc not_found(const char *dir, int e, cb_error *err)
{
	const char *env = getenv("CLBANKS_LINT");
	if (env && *env)
		return cb_error_set(err, CB_ERR_RUNTIME, "cannot run CLBANKS_LINT=%s: %s", env,
				    strerror(e));
	return cb_error_set(err, CB_ERR_RUNTIME,
			    "cannot run the lint helper %s (looked in %s%s%s): %s", HELPER,
			    dir[0] ? dir : "", dir[0] ? " and " : "", CB_PKGLIBEXECDIR,
			    strerror(e));
}

#endif

cb_rc cb_lint_helper_path(const char *argv0, char *path, size_t n, cb_error *err)
{
#ifndef CB_HAVE_LLVM
	(void)argv0;
	(void)path;
	(void)n;
	return no_llvm(err);
#else
	char dir[PATH_MAX], c[3][PATH_MAX + 32];
	int k = candidates(argv0, c, dir, sizeof dir), e = ENOENT;
	for (int i = 0; i < k; i++) {
		if (access(c[i], X_OK) == 0) {
			snprintf(path, n, "%s", c[i]);
			return CB_OK;
		}
		e = errno;
	}
	return not_found(dir, e, err);
#endif
}

cb_rc cb_lint_exec_with(int argc, char **argv, const char *const *extra, size_t nextra,
			cb_error *err)
{
#ifndef CB_HAVE_LLVM
	(void)argc;
	(void)argv;
	(void)extra;
	(void)nextra;
	return no_llvm(err);
#else
	char dir[PATH_MAX], c[3][PATH_MAX + 32];
	int k = candidates(argv[0], c, dir, sizeof dir);
	char **args = malloc(((size_t)argc + nextra + 1) * sizeof *args);
	if (!args)
		return cb_error_set(err, CB_ERR_NOMEM, "out of memory");
	memcpy(args, argv, (size_t)argc * sizeof *args);
	if (nextra)
		memcpy(args + argc, extra, nextra * sizeof *args);
	args[(size_t)argc + nextra] = NULL;
	fflush(NULL);
	/* The helper takes a while to start (LLVM's libraries load first): a stop signal sent
	 * meanwhile waits, blocked across exec, until it has installed its handlers. */
	sigset_t saved;
	cb_stop_signals_block(&saved);
	int e = ENOENT;
	for (int i = 0; i < k; i++) {
		args[0] = c[i];
		execv(c[i], args);
		e = errno;
	}
	cb_stop_signals_restore(&saved);
	free(args);
	return not_found(dir, e, err);
#endif
}

cb_rc cb_lint_exec(int argc, char **argv, cb_error *err)
{
	return cb_lint_exec_with(argc, argv, NULL, 0, err);
}
