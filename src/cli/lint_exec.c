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

cb_rc cb_lint_exec(int argc, char **argv, cb_error *err)
{
#ifndef CB_HAVE_LLVM
	(void)argc;
	(void)argv;
	return cb_error_set(err, CB_ERR_USAGE, "clbanks was built without LLVM; install llvm-dev "
			    "and clang and reconfigure with --with-llvm");
#else
	char dir[PATH_MAX], candidates[3][PATH_MAX + 32];
	int n = 0;
	const char *env = getenv("CLBANKS_LINT");
	if (env && *env)
		snprintf(candidates[n++], sizeof candidates[0], "%s", env);
	self_dir(argv[0], dir, sizeof dir);
	if (dir[0])
		snprintf(candidates[n++], sizeof candidates[0], "%s/%s", dir, HELPER);
	snprintf(candidates[n++], sizeof candidates[0], "%s/%s", CB_PKGLIBEXECDIR, HELPER);
	char **args = malloc(((size_t)argc + 1) * sizeof *args);
	if (!args)
		return cb_error_set(err, CB_ERR_NOMEM, "out of memory");
	memcpy(args, argv, (size_t)argc * sizeof *args);
	args[argc] = NULL;
	fflush(NULL);
	for (int i = 0; i < n; i++) {
		args[0] = candidates[i];
		execv(candidates[i], args);
		if (env && *env && i == 0)
			break; /* CLBANKS_LINT names the one to run */
	}
	int e = errno;
	free(args);
	if (env && *env)
		return cb_error_set(err, CB_ERR_RUNTIME, "cannot run CLBANKS_LINT=%s: %s", env,
				    strerror(e));
	return cb_error_set(err, CB_ERR_RUNTIME, "cannot run the lint helper %s (looked in %s%s%s): "
			    "%s", HELPER, dir[0] ? dir : "", dir[0] ? " and " : "", CB_PKGLIBEXECDIR,
			    strerror(e));
#endif
}
