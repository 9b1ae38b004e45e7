/* SPDX-License-Identifier: MIT */
/* clbanks export DOC --format json|gpgpusim|gem5: the document's bank model in the form the
 * tools that consume one read (core/export.h). */
#include "config.h"
#include "cli/commands.h"
#include "cli/outfile.h"
#include "core/export.h"
#include "doc/doc_export.h"
#include "views/export.h"

#include <stdlib.h>

typedef struct {
	int format; /* --format's index: json, gpgpusim or gem5 */
	const char *source;
	const cb_export_model *m;
} export_ctx;

static void render_export(FILE *out, const void *p)
{
	const export_ctx *c = p;
	if (c->format == CB_OPT_FORMAT_JSON) {
		cb_put_owned(out, cb_export_json(c->m, c->source));
		return;
	}
	cb_export_print(out, c->m, c->source,
			c->format == CB_OPT_FORMAT_GEM5 ? CB_EXPORT_GEM5 : CB_EXPORT_GPGPUSIM);
}

cb_rc cb_cmd_export(const cb_cli_options *o, cb_error *err)
{
	char formats[64];
	cb_format_choices(cb_commands[CB_CMD_EXPORT].formats, formats, sizeof formats);
	if (o->nargs != 1)
		return cb_error_set(err, CB_ERR_USAGE,
				    o->nargs ? "export takes one document; unexpected argument '%s'"
					     : "export needs a document: clbanks "
					       "export DOC --format %s",
				    o->nargs ? o->args[1] : formats);
	int format = o->format < 0 ? CB_OPT_FORMAT_JSON : o->format; /* the table checked it */
	cb_rc rc = cb_output_check(o->output, o->force, err);
	cb_result r;
	if (rc == CB_OK)
		rc = cb_load_model_doc(o->args[0], &r, err);
	if (rc != CB_OK)
		return rc;
	cb_export_model m;
	cb_record_analysis(&r); /* the verdict analyze prints, not one recorded before */
	cb_export_build(&r, &m);
	if (format != CB_OPT_FORMAT_JSON)
		rc = cb_export_check(&m, o->args[0], err);
	export_ctx c = { format, o->args[0], &m };
	if (rc == CB_OK)
		rc = cb_emit(o->output, o->force, render_export, &c, err);
	cb_result_free(&r);
	return rc;
}
