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

static const char *const lane_kernels[] = { "chase.cl", "store.cl", "atomic.cl", "cpu.cl" };

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
		tap_ok(a == CB_OK && strstr(emb, "#line 1 \"lane_table.clh\"\n") &&
			       strncmp(emb, "#line 1 \"", 9) == 0 &&
			       strstr(emb, "#define CB_REPORT(") &&
			       !strstr(emb, "\n#include \"lane_table.clh\""),
		       "%s: cl/lane_table.clh is expanded in place", k);
		free(emb);
		free(file);
	}
	char *t = NULL;
	cb_error err;
	tap_ok(cb_kernel_source("transpose.cl", NULL, &t, &err) == CB_OK && !strstr(t, "#line"),
	       "transpose.cl includes nothing and is unchanged");
	free(t);
}

/* Expands kernel NAME of DIR; *RC gets the status, the result is returned (or NULL). */
static char *expand(const char *dir, const char *name, cb_rc *rc, cb_error *err)
{
	char *s = NULL;
	*rc = cb_kernel_source(name, dir, &s, err);
	return s;
}

static void test_dir(void)
{
	char dir[] = "/tmp/clbanks-unit-kernels.XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(99);
	}
	cb_error err;
	cb_rc rc;
	write_text(dir, "h.h", "header\n");
	write_text(dir, "k.cl", "// one\n  #  include \"h.h\"  // why\nend\n");
	char *s = expand(dir, "k.cl", &rc, &err);
	tap_ok(rc == CB_OK && strcmp(s, "#line 1 \"k.cl\"\n// one\n#line 1 \"h.h\"\nheader\n\n"
					"#line 3 \"k.cl\"\nend\n") == 0,
	       "an include is replaced between #line markers, every line keeps its number");
	free(s);
	write_text(dir, "c.cl", "/* a comment\n#include \"nothere.h\"\n*/\n#include \"h.h\"");
	s = expand(dir, "c.cl", &rc, &err);
	tap_ok(rc == CB_OK && strstr(s, "\n#include \"nothere.h\"\n") && strstr(s, "header\n"),
	       "an include inside a block comment is left alone; one without a final newline works");
	free(s);
	write_text(dir, "m.cl", "x\n#include \"missing.h\"\n");
	s = expand(dir, "m.cl", &rc, &err);
	tap_ok(rc == CB_ERR_INPUT && !s && strstr(err.text, "m.cl, line 2: ") &&
		       strstr(err.text, "missing.h"),
	       "a missing included file is an input error naming the file and line (%s)", err.text);
	const char *bad[] = { "#include \"../up.h\"\n", "#include \"h.h\" /* open\n*/\n",
			      "#include \".hidden\"\n" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		write_text(dir, "b.cl", bad[i]);
		s = expand(dir, "b.cl", &rc, &err);
		tap_ok(rc == CB_ERR_INPUT && !s && strstr(err.text, "b.cl, line 1: ") &&
			       strstr(err.text, "cannot be expanded"),
		       "refused with a reason: %s", err.text);
	}
	/* 64 KiB of header, included 40 times: more than the 1 MiB a kernel may have. */
	char *big = cb_xmalloc(65537), *many = cb_xmalloc(40 * 16 + 1);
	memset(big, 'x', 65535);
	strcpy(big + 65535, "\n");
	many[0] = '\0';
	for (int i = 0; i < 40; i++)
		strcat(many, "#include \"g.h\"\n");
	write_text(dir, "g.h", big);
	write_text(dir, "many.cl", many);
	s = expand(dir, "many.cl", &rc, &err);
	tap_ok(rc == CB_ERR_INPUT && !s && strstr(err.text, "larger than 1048576 bytes"),
	       "the expanded kernel is capped like a kernel file (%s)", err.text);
	free(big);
	free(many);
	s = expand(NULL, "nothere.cl", &rc, &err);
	tap_ok(rc != CB_OK && !s, "an embedded kernel that is not there is an error");
	char path[4096];
	const char *names[] = { "k.cl", "h.h", "c.cl", "m.cl", "b.cl", "g.h", "many.cl" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
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
