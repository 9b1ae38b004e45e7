/* SPDX-License-Identifier: MIT */
/* Kernel sources: the embedded kernels equal the files in cl/, and '#include "FILE"' lines
 * are expanded from the same place, between #line markers, with clear errors. No OpenCL. */
#include "config.h"
#include "measure/kernels.h"
#include "core/util.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const lane_kernels[] = { "chase.cl", "store.cl", "atomic.cl" };

static void write_text(const char *dir, const char *name, const char *text)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(99);
	}
}

static void test_embedded(const char *srcdir)
{
	char cl_dir[4096];
	snprintf(cl_dir, sizeof cl_dir, "%s/cl", srcdir);
	for (size_t i = 0; i < sizeof lane_kernels / sizeof lane_kernels[0]; i++) {
		const char *k = lane_kernels[i];
		char *emb = NULL, *file = NULL;
		cb_error err;
		cb_rc a = cb_kernel_source(k, NULL, &emb, &err);
		cb_rc b = cb_kernel_source(k, cl_dir, &file, &err);
		tap_ok(a == CB_OK && b == CB_OK && strcmp(emb, file) == 0,
		       "%s: the embedded kernel equals cl/%s, both expanded", k, k);
		tap_ok(a == CB_OK && strstr(emb, "#line 1 \"lane_table.h\"\n") &&
		       strstr(emb, "#define CB_REPORT(") && !strstr(emb, "\n#include \"lane_table.h\""),
		       "%s: cl/lane_table.h is expanded in place", k);
		free(emb);
		free(file);
	}
	char *t = NULL;
	cb_error err;
	tap_ok(cb_kernel_source("transpose.cl", NULL, &t, &err) == CB_OK && !strstr(t, "#line"),
	       "transpose.cl includes nothing and is unchanged");
	free(t);
}

static void test_dir(void)
{
	char dir[] = "/tmp/clbanks-unit-kernels.XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(99);
	}
	write_text(dir, "k.cl", "// one\n  #  include \"h.h\"\n#include \"../up.h\"\nend\n");
	write_text(dir, "h.h", "header\n");
	char *s = NULL;
	cb_error err;
	cb_rc rc = cb_kernel_source("k.cl", dir, &s, &err);
	tap_ok(rc == CB_OK && strcmp(s, "// one\n#line 1 \"h.h\"\nheader\n\n#line 3 \"k.cl\"\n"
			  "#include \"../up.h\"\nend\n") == 0,
	       "an include is replaced between #line markers; a path with a folder is left alone");
	free(s);
	write_text(dir, "m.cl", "x\n#include \"missing.h\"\n");
	rc = cb_kernel_source("m.cl", dir, &s, &err);
	tap_ok(rc == CB_ERR_INPUT && s == NULL && strstr(err.text, "m.cl, line 2: ") &&
	       strstr(err.text, "missing.h"),
	       "a missing included file is an input error naming the file and line (%s)", err.text);
	rc = cb_kernel_source("nothere.cl", NULL, &s, &err);
	tap_ok(rc != CB_OK && s == NULL, "an embedded kernel that is not there is an error");
	char path[4096];
	const char *names[] = { "k.cl", "h.h", "m.cl" };
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	const char *srcdir = getenv("top_srcdir");
	test_embedded(srcdir ? srcdir : ".");
	test_dir();
	return tap_done();
}
