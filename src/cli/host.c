/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/host.h"
#include "core/hostid.h"
#include "core/readfile.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

cb_rc cb_host_mode(const cb_cli_options *o, int *mode, cb_error *err)
{
	static const char *const names[] = { "id", "name", "none" };
	const char *v = getenv("CLBANKS_HOST");
	*mode = 0;
	if (o->host >= 0) {
		*mode = o->host;
		return CB_OK;
	}
	if (!v || !*v)
		return CB_OK;
	for (int k = 0; k < 3; k++)
		if (strcmp(v, names[k]) == 0) {
			*mode = k;
			return CB_OK;
		}
	return cb_error_set(err, CB_ERR_USAGE, "CLBANKS_HOST='%s' is not id, name or none", v);
}

/* The machine id (systemd's, else D-Bus's), its first line; NULL when there is none. */
static char *machine_id(void)
{
	static const char *const paths[] = { "/etc/machine-id", "/var/lib/dbus/machine-id" };
	for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
		char *text = NULL;
		size_t len = 0;
		cb_error err;
		if (cb_read_file(paths[i], 4096, CB_READ_REGULAR_ONLY | CB_READ_TEXT, &text, &len,
				 &err) != CB_OK)
			continue;
		text[strcspn(text, "\r\n")] = '\0';
		if (*text)
			return text;
		free(text);
	}
	return NULL;
}

void cb_host_record(int mode, cb_run_meta *run)
{
	if (mode == 2)
		return;
	char host[256] = "";
	if (gethostname(host, sizeof host) != 0)
		host[0] = '\0';
	host[sizeof host - 1] = '\0';
	char *mid = machine_id(), id[CB_HOST_ID_LEN + 1];
	cb_host_id(mid, host, id);
	free(mid);
	free(run->host_id);
	run->host_id = cb_xstrdup(id);
	if (mode == 1 && host[0]) {
		free(run->host_name);
		run->host_name = cb_xstrdup(host);
	}
}
