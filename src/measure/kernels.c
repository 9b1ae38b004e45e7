/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/kernels.h"
#include "core/util.h"
#include "cl_sources.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		cb_err("cannot open kernel file '%s': %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 4096, len = 0;
	char *buf = cb_xmalloc(cap);
	size_t got;
	while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (cap - len < 2) {
			cap *= 2;
			buf = cb_xrealloc(buf, cap);
		}
	}
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		cb_err("cannot read kernel file '%s'", path);
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

char *cb_kernel_source(const char *name, const char *dir)
{
	if (dir && *dir) {
		size_t n = strlen(dir) + strlen(name) + 2;
		char *path = cb_xmalloc(n);
		snprintf(path, n, "%s/%s", dir, name);
		char *src = read_file(path);
		free(path);
		return src;
	}
	for (size_t i = 0; i < sizeof cb_embedded_kernels / sizeof cb_embedded_kernels[0]; i++)
		if (strcmp(cb_embedded_kernels[i].name, name) == 0)
			return cb_xstrdup(cb_embedded_kernels[i].source);
	cb_err("no embedded kernel named '%s'", name);
	return NULL;
}
