/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/kernels.h"
#include "core/readfile.h"
#include "core/util.h"
#include "cl_sources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cb_rc cb_kernel_source(const char *name, const char *dir, char **src, cb_error *err)
{
	*src = NULL;
	if (dir) {
		size_t n = strlen(dir) + strlen(name) + 2, len;
		char *path = cb_xmalloc(n);
		snprintf(path, n, "%s/%s", dir, name);
		cb_rc rc = cb_read_file(path, CB_KERNEL_MAX_BYTES, CB_READ_REGULAR_ONLY | CB_READ_TEXT,
					src, &len, err);
		if (rc == CB_ERR_INPUT || rc == CB_ERR_IO) {
			cb_error_prefix(err, "cannot use kernel file ");
			err->rc = rc = CB_ERR_INPUT;
		}
		free(path);
		return rc;
	}
	for (size_t i = 0; i < sizeof cb_embedded_kernels / sizeof cb_embedded_kernels[0]; i++)
		if (strcmp(cb_embedded_kernels[i].name, name) == 0) {
			*src = cb_xstrdup(cb_embedded_kernels[i].source);
			return CB_OK;
		}
	return cb_error_set(err, CB_ERR_RUNTIME, "no embedded kernel named '%s'", name);
}
