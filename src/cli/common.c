/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/common.h"
#include "cli/outfile.h"
#include "core/analyze.h"
#include "core/select.h"
#include "core/util.h"
#include "doc/doc.h"
#include "measure/clerr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static bool progress_shown;

static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
	char buf[sizeof((cb_error *)0)->text + 64]; /* a whole error sentence */
	vsnprintf(buf, sizeof buf, fmt, ap);
	char *e = cb_escape_controls(buf);
	fprintf(stderr, "%s%s\n", prefix, e);
	free(e);
}

void cb_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("clbanks: ", fmt, ap);
	va_end(ap);
}

void cb_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("clbanks: warning: ", fmt, ap);
	va_end(ap);
}

void cb_progress_done(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = false;
	}
}

/* Detail lines keep their line breaks; everything else that could steer a terminal is
 * escaped. */
static void print_detail(const char *detail)
{
	for (const char *p = detail; *p;) {
		size_t w = strcspn(p, "\n");
		char *line = cb_xmalloc(w + 1);
		memcpy(line, p, w);
		line[w] = '\0';
		for (char *c = line; *c; c++)
			if (*c == '\t')
				*c = ' ';
		char *e = cb_escape_controls(line);
		fprintf(stderr, "%s\n", e);
		free(e);
		free(line);
		p += w + (p[w] == '\n');
	}
}

void cb_print_error(const cb_error *err)
{
	cb_progress_done();
	bool opencl = err->call && strncmp(err->call, "cl", 2) == 0 && err->call[2] >= 'A' &&
		      err->call[2] <= 'Z';
	if (opencl) {
		cb_err("%s: %s: %s (%d)", err->text, err->call, cb_cl_strerror(err->code),
		       err->code);
		const char *hint = cb_cl_hint(err->code);
		if (hint)
			fprintf(stderr, "clbanks: hint: %s\n", hint);
	} else {
		cb_err("%s", err->text);
	}
	if (err->detail[0])
		print_detail(err->detail);
}

/* On a terminal, one line rewritten in place (at most 5 times a second), with the time since
 * the first progress note; a note that starts with a share of the whole ("42% ...") is drawn
 * as a bar. Elsewhere (a pipe, a log, a CI job) nothing, unless VERBOSE: then a whole line
 * every few seconds, so that a log shows how far a long run got. */
static void progress(const char *text, bool verbose)
{
	static double start, last;
	bool tty = isatty(STDERR_FILENO);
	if (!tty && !verbose)
		return;
	double now = cb_now();
	/* The first note at once: it says what the run starts with ("compiling kernels", which
	 * takes most of a first run on a CPU driver), and it was lost to the rate limit. */
	if (start == 0) {
		start = now;
		last = now - 3.0;
	}
	if (now - last < (tty ? 0.2 : 3.0))
		return;
	last = now;
	char *e = cb_escape_controls(text), bar[24] = "";
	unsigned pct = 0;
	int used = 0;
	if (tty && sscanf(e, "%u%%%n", &pct, &used) == 1 && used > 0 && pct <= 100 &&
	    e[used] == ' ') {
		unsigned fill = pct / 5;
		bar[0] = '[';
		for (unsigned i = 0; i < 20; i++)
			bar[1 + i] = i < fill ? '#' : '.';
		bar[21] = ']';
		bar[22] = ' ';
		bar[23] = '\0';
	}
	if (tty) {
		fprintf(stderr, "\r\033[Kclbanks: [%.0f s] %s%s", now - start, bar, e);
		progress_shown = true;
	} else {
		fprintf(stderr, "clbanks: [%.0f s] %s\n", now - start, e);
	}
	free(e);
	fflush(stderr);
}

static void notify(void *ctx, cb_note_kind kind, const char *text)
{
	const cb_cli_options *o = ctx;
	if (o->quiet)
		return;
	if (kind == CB_NOTE_PROGRESS) {
		progress(text, o->verbose);
		return;
	}
	if (kind == CB_NOTE_DETAIL && !o->verbose)
		return;
	cb_progress_done();
	if (kind == CB_NOTE_WARNING)
		cb_warn("%s", text);
	else
		cb_err("%s", text);
}

cb_notifier cb_cli_notifier(const cb_cli_options *o)
{
	cb_notifier n = { notify, (void *)o };
	return n;
}

static cb_rc emit(const char *path, bool force, bool keep, cb_render_fn render, const void *ctx,
		  cb_error *err)
{
	cb_membuf b;
	if (!cb_membuf_open(&b))
		return cb_error_set(err, CB_ERR_NOMEM, "out of memory");
	render(b.fp, ctx);
	cb_rc rc = cb_membuf_finish(&b, err);
	if (rc == CB_OK)
		rc = cb_check_interrupt(err);
	if (rc == CB_OK)
		rc = keep ? cb_output_commit_kept(path, force, b.data, b.len, err)
			  : cb_output_commit(path, force, b.data, b.len, err);
	cb_membuf_free(&b);
	return rc;
}

cb_rc cb_emit(const char *path, bool force, cb_render_fn render, const void *ctx, cb_error *err)
{
	return emit(path, force, false, render, ctx, err);
}

cb_rc cb_emit_kept(const char *path, bool force, cb_render_fn render, const void *ctx,
		   cb_error *err)
{
	return emit(path, force, true, render, ctx, err);
}

cb_rc cb_usage_error(cb_error *err, const char *usage, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cb_error_vset(err, CB_ERR_USAGE, fmt, ap);
	va_end(ap);
	if (usage)
		cb_error_detail(err, "Usage: %s", usage);
	else
		cb_error_detail(err, "Try 'clbanks --help' for more information.");
	return CB_ERR_USAGE;
}

cb_format cb_format_for_path(const char *path, cb_format dflt)
{
	/* clang-format off */
	static const struct { const char *ext; cb_format fmt; } table[] = {
		{ ".csv", CB_FMT_CSV }, { ".txt", CB_FMT_TEXT }, { ".json", CB_FMT_JSON },
	};
	/* clang-format on */
	size_t n = path ? strlen(path) : 0;
	for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
		size_t k = strlen(table[i].ext);
		if (n > k && strcasecmp(path + n - k, table[i].ext) == 0)
			return table[i].fmt;
	}
	return dflt;
}

cb_format cb_format_of(const cb_cli_options *o, cb_format dflt)
{
#define RENDERED_AS(id, name, fmt, why) fmt,
	static const cb_format by_index[CB_NFORMATS] = { CB_FORMAT_TABLE(RENDERED_AS) };
#undef RENDERED_AS
	return o->format >= 0 ? by_index[o->format] : dflt;
}

cb_rc cb_load_plan(const char *path, cb_result *plan, cb_error *err)
{
	cb_rc rc = cb_doc_read(path, 0, plan, err);
	if (rc == CB_OK && plan->documented) {
		rc = cb_error_set(err, CB_ERR_INPUT,
				  "%s: a documented model has no measurements to plan a run with",
				  path);
		cb_result_free(plan);
	}
	return rc;
}

cb_rc cb_load_model_doc(const char *path, cb_result *r, cb_error *err)
{
	cb_rc rc = cb_doc_read(path, CB_DOC_REQUIRE_TIMES, r, err);
	if (rc == CB_OK)
		rc = cb_analyze(r, err);
	return rc;
}

cb_rc cb_load_analyzed(const char *path, cb_result *r, cb_error *err)
{
	cb_rc rc = cb_doc_read(path, CB_DOC_REQUIRE_TIMES, r, err);
	if (rc == CB_OK && r->documented) {
		char label[512];
		rc = cb_error_set(err, CB_ERR_INPUT,
				  "%s: nothing to analyze: %s is a documented model, "
				  "from the vendor's documentation, with no measurements (predict, "
				  "lint, export and compare take it)",
				  path, cb_model_label(r, label, sizeof label));
		cb_result_free(r);
	}
	if (rc == CB_OK)
		rc = cb_analyze(r, err);
	return rc;
}

cb_rc cb_strict_check(const cb_cli_options *o, const cb_result *r, cb_error *err)
{
	if (!o->strict)
		return CB_OK;
	if (r->inference[CB_OP_LOAD].status != CB_BANKED)
		return cb_error_set(err, CB_ERR_QUALITY, "--strict: the result is not 'banked'");
	if (r->quality.nwarnings > 0)
		return cb_error_set(err, CB_ERR_QUALITY, "--strict: the run has quality warnings");
	return CB_OK;
}

cb_rc cb_read_model_doc(const char *path, cb_result *r, cb_error *err)
{
	cb_rc rc = cb_doc_read(path, 0, r, err);
	bool timed = false;
	for (size_t i = 0; rc == CB_OK && i < r->nms && !timed; i++)
		timed = isfinite(r->ms[i].ns_per_access);
	if (rc == CB_OK && timed && (rc = cb_analyze(r, err)) == CB_OK)
		cb_record_analysis(r);
	if (rc != CB_OK)
		cb_result_free(r);
	return rc;
}

cb_rc cb_load_model(const char *path, cb_op op, unsigned elem_bytes, cb_model_choice *c,
		    unsigned *subgroup, char *label, size_t size, cb_error *err)
{
	cb_result r;
	cb_rc rc = cb_read_model_doc(path, &r, err);
	if (rc != CB_OK)
		return rc;
	*subgroup = r.device.subgroup_size;
	label[0] = '\0';
	if (r.documented)
		cb_model_label(&r, label, size);
	cb_select_model(&r, op, elem_bytes, c);
	const char *why = r.documented && c->source != CB_CHOICE_NONE && !c->lanes_per_pass
				  ? cb_doc_fact_note(&r, op, elem_bytes)
				  : NULL;
	if (why)
		snprintf(c->problem, sizeof c->problem, "%s", why);
	if (c->source == CB_CHOICE_NONE)
		rc = cb_error_set(err, CB_ERR_USAGE, "%s: %s", path, c->problem);
	cb_result_free(&r);
	return rc;
}

static void render_json(FILE *out, const void *ctx)
{
	cb_put_owned(out, cb_doc_write(ctx));
}

static void render_text(FILE *out, const void *ctx)
{
	cb_report_text(out, ctx);
}

static void render_csv(FILE *out, const void *ctx)
{
	cb_report_csv(out, ctx);
}

cb_render_fn cb_renderer(cb_format fmt)
{
	return fmt == CB_FMT_JSON ? render_json : fmt == CB_FMT_CSV ? render_csv : render_text;
}
