/* SPDX-License-Identifier: MIT */
/*
 * clbanks lint --measure: the cost of each __local access of a kernel, timed on a device.
 *
 * Three steps in two programs, because the lint helper links LLVM and an OpenCL driver built
 * on another LLVM cannot share its process: (1) the run starts on the device and, once it
 * knows the sub-group size and the local memory it allocates, asks the helper for the
 * kernel's lane tables as a plan (clbanks-lint ... --format plan); (2) the ordinary run
 * measures that plan (calibration, differential timing, verification, rounds); (3) this
 * program becomes the helper again (exec) with --measured naming the run's document, an
 * unlinked temporary file, so the report and the exit status are lint's own and nothing is
 * left behind, whatever happens.
 */
#include "config.h"
#include "cli/cmd_lint_measure.h"
#include "cli/cmd_run.h"
#include "cli/common.h"
#include "cli/outfile.h"
#include "cli/lint_exec.h"
#include "core/child.h"
#include "doc/doc.h"
#include "measure/watchdog.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
	int argc;
	char **argv;
} helper_args;

/* The helper's messages as this error: its first line (without "clbanks: "), the rest as
 * detail. */
static cb_rc helper_failed(const cb_child_result *c, cb_error *err)
{
	const char *text = c->err.len ? c->err.data : "", *nl = strchr(text, '\n');
	if (strncmp(text, "clbanks: ", 9) == 0)
		text += 9;
	int len = nl ? (int)(nl - text) : (int)strlen(text);
	if (len <= 0)
		cb_error_set(err, cb_rc_of_exit_status(c->exit_status),
			     "the lint helper failed (exit status %d, signal %d)", c->exit_status,
			     c->term_signal);
	else
		cb_error_set(err, cb_rc_of_exit_status(c->exit_status), "%.*s", len, text);
	if (nl && nl[1])
		cb_error_detail(err, "%s", nl + 1);
	return err->rc;
}

/* The run's plan: the helper's lane tables for sub-groups of SUBGROUP lanes in LOCAL bytes. */
static cb_rc lint_plan(void *ctx, unsigned subgroup, unsigned long local, cb_result *plan,
		       cb_error *err)
{
	const helper_args *h = ctx;
	char path[PATH_MAX + 32], sg[16], mem[24];
	cb_result_init(plan);
	cb_rc rc = cb_lint_helper_path(h->argv[0], path, sizeof path, err);
	if (rc != CB_OK)
		return rc;
	snprintf(sg, sizeof sg, "%u", subgroup);
	snprintf(mem, sizeof mem, "%lu", local);
	const char *extra[] = { "--format", "plan", "--subgroup", sg,  "--local-mem",
				mem,        "-o",   "-",          "-q" };
	size_t ne = sizeof extra / sizeof *extra;
	char **argv = calloc((size_t)h->argc + ne + 1, sizeof *argv);
	if (!argv)
		return cb_error_set(err, CB_ERR_NOMEM, "out of memory");
	argv[0] = path;
	for (int i = 1; i < h->argc; i++)
		argv[i] = h->argv[i];
	memcpy(argv + h->argc, extra, ne * sizeof *argv);
	cb_child_spec spec = { argv, NULL, 0, (size_t)1 << 28, 64 * 1024, false };
	cb_child_result c;
	rc = cb_child_run(&spec, &c, err);
	free(argv);
	if (rc == CB_OK && (c.exit_status != 0 || c.out_over))
		rc = c.out_over ? cb_error_set(err, CB_ERR_RUNTIME,
					       "the lint helper wrote more than "
					       "256 MB of lane tables")
				: helper_failed(&c, err);
	if (rc == CB_OK)
		rc = cb_doc_parse(c.out.data, c.out.len, 0, plan, err);
	cb_child_result_free(&c);
	return rc;
}

/* The measured document in an unlinked temporary file, open as *FD. */
static cb_rc keep_measured(const cb_result *r, int *fd, cb_error *err)
{
	const char *dir = getenv("TMPDIR");
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/clbanks-measured-XXXXXX", dir && *dir ? dir : "/tmp");
	char *text = cb_doc_write(r);
	if (!text)
		return cb_error_set(err, CB_ERR_NOMEM, "out of memory");
	*fd = mkstemp(path);
	if (*fd < 0) {
		free(text);
		return cb_error_call(err, CB_ERR_IO, "mkstemp", errno,
				     "cannot make a temporary file in %s: %s",
				     dir && *dir ? dir : "/tmp", strerror(errno));
	}
	unlink(path);
	size_t len = strlen(text), done = 0;
	while (done < len) {
		ssize_t w = write(*fd, text + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = errno;
			free(text);
			close(*fd);
			return cb_error_call(err, CB_ERR_IO, "write", e,
					     "cannot write the measured document: %s", strerror(e));
		}
		done += (size_t)w;
	}
	free(text);
	return CB_OK;
}

static cb_rc check(const cb_cli_options *o, cb_error *err)
{
	if (o->format == CB_OPT_FORMAT_PLAN)
		return cb_error_set(err, CB_ERR_USAGE,
				    "lint --measure measures the lane tables that "
				    "--format plan writes: one or the other");
	if (o->measured)
		return cb_error_set(err, CB_ERR_USAGE,
				    "lint --measure measures anew; --measured reads "
				    "an earlier measurement: one or the other");
	if (cb_device_spec_all(o))
		return cb_error_set(err, CB_ERR_USAGE,
				    "lint --measure times on one device, not 'all'");
	return cb_output_check(o->output, o->force, err);
}

cb_rc cb_cmd_lint_measure(const cb_cli_options *o, int argc, char **argv, cb_error *err)
{
	char path[PATH_MAX + 32];
	cb_rc rc = check(o, err);
	if (rc == CB_OK)
		rc = cb_lint_helper_path(argv[0], path, sizeof path, err);
	cb_notifier n = cb_cli_notifier(o);
	cb_run_opts ro;
	if (rc == CB_OK)
		rc = cb_run_options(o, NULL, &n, &ro, err);
	if (rc != CB_OK)
		return rc;
	/* Every table's ratio is printed: each needs its interval, 5% unless asked. */
	ro.all_narrow = true;
	if (!cb_option_given(o, "ci-target"))
		ro.ci_target = 0.05;
	if (!cb_option_given(o, "max-rounds"))
		ro.max_rounds = 20;
	/* --build-options are the kernel's (for clang), not the measuring kernels'. */
	const char *bo = getenv("CLBANKS_BUILD_OPTIONS");
	ro.build_options = bo && *bo ? bo : NULL;
	helper_args h = { argc, argv };
	ro.make_plan = lint_plan;
	ro.make_plan_ctx = &h;
	cb_device_list list;
	size_t idx = 0;
	if ((rc = cb_measure_devices(&list, &n, err)) != CB_OK)
		return rc;
	cb_result r;
	cb_result_init(&r);
	if ((rc = cb_pick_device(o, &list, &n, &idx, err)) == CB_OK) {
		cb_device_info info;
		cb_device_info_gather(&list.items[idx], &info, &n);
		cb_note(&n, CB_NOTE_INFO, "measuring the lane tables of %s on %s (%s)", o->args[0],
			info.name, info.platform_name);
		rc = cb_measure(&list.items[idx], &info, &ro, &r, err);
		cb_device_info_free(&info);
	}
	cb_devices_free(&list);
	int fd = -1;
	if (rc == CB_OK)
		rc = keep_measured(&r, &fd, err);
	cb_result_free(&r);
	if (rc != CB_OK)
		return rc;
	char fdpath[32];
	snprintf(fdpath, sizeof fdpath, "/dev/fd/%d", fd);
	const char *extra[] = { "--measured", fdpath };
	cb_progress_done();
	cb_watchdog_arm(0, NULL);
	rc = cb_lint_exec_with(argc, argv, extra, 2, err);
	close(fd);
	return rc;
}
