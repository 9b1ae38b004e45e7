/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/cmd_run.h"
#include "cli/commands.h"
#include "views/report.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* clbanks [run]: one device (cmd_run.c), or every device with --device all (cmd_all.c); an
 * operand or --list is the one-device command's to judge. */
static cb_rc run(const cb_cli_options *o, cb_error *err)
{
	if (o->nargs == 0 && !o->list && cb_device_spec_all(o))
		return cb_cmd_run_all(o, err);
	return cb_cmd_run(o, err);
}

#define DOCS (CB_FORMAT_BIT(TEXT) | CB_FORMAT_BIT(JSON) | CB_FORMAT_BIT(CSV))

/* clang-format off */
const cb_command_info cb_commands[CB_NCMD] = {
	[CB_CMD_RUN] = { "run", run, CB_CMD_NO_OPERANDS, DOCS, CB_OPT_FORMAT_TEXT,
		"clbanks [run] [OPTION]...          measure the selected device, analyze, report\n"
		"       clbanks --device all -o DIR [OPTION]...\n"
		"                                   every device: a document each in DIR, compared" },
	[CB_CMD_PLAN] = { "plan", cb_cmd_plan, CB_CMD_NO_OPERANDS, DOCS, CB_OPT_FORMAT_JSON,
		"clbanks plan [OPTION]...           write the experiment plan (no device needed)" },
	[CB_CMD_ANALYZE] = { "analyze", cb_cmd_analyze, 0, DOCS, CB_OPT_FORMAT_TEXT,
		"clbanks analyze FILE [OPTION]...   infer the bank model of a result document" },
	[CB_CMD_PREDICT] = { "predict", cb_cmd_predict, 0, DOCS, CB_OPT_FORMAT_TEXT,
		"clbanks predict --model FILE --elem-bytes E (--stride S | --lanes A,B,...)\n"
		"                                   passes of one sub-group access under FILE's model" },
	[CB_CMD_COMPARE] = { "compare", cb_cmd_compare, 0, DOCS, CB_OPT_FORMAT_TEXT,
		"clbanks compare FILE... [OPTION]...  devices side by side" },
	[CB_CMD_PLOT] = { "plot", cb_cmd_plot, 0, 0, -1,
		"clbanks plot FILE... -o OUT.svg    stride curves (needs gnuplot; .svg, .png or .pdf)" },
	[CB_CMD_LINT] = { "lint", NULL, CB_CMD_IN_HELPER,
		CB_FORMAT_BIT(TEXT) | CB_FORMAT_BIT(JSON) | CB_FORMAT_BIT(SARIF) | CB_FORMAT_BIT(PLAN) |
			CB_FORMAT_BIT(DIFF),
		CB_OPT_FORMAT_TEXT,
		"clbanks lint KERNEL.cl --model FILE --local X[,Y[,Z]] [OPTION]...\n"
		"                                   predicted conflicts of each __local access\n"
		"       clbanks lint KERNEL.cl --local X[,Y[,Z]] --measure [--device SPEC] [--model FILE]\n"
		"                                   ... and each access timed on the device" },
	[CB_CMD_EXPORT] = { "export", cb_cmd_export, 0,
		CB_FORMAT_BIT(JSON) | CB_FORMAT_BIT(GPGPUSIM) | CB_FORMAT_BIT(GEM5), CB_OPT_FORMAT_JSON,
		"clbanks export FILE [--format FMT]\n"
		"                                   the bank model for simulators and compilers" },
};
/* clang-format on */

#define FORMAT_INFO(id, name, fmt, why) { name, why },
static const struct {
	const char *name;
	const char *why;
} formats[CB_NFORMATS] = { CB_FORMAT_TABLE(FORMAT_INFO) };
#undef FORMAT_INFO

static int bits(unsigned set)
{
	int n = 0;
	for (; set; set &= set - 1)
		n++;
	return n;
}

static int lowest(unsigned set)
{
	int k = 0;
	while (set && !(set & (1u << k)))
		k++;
	return k;
}

static bool same_why(int f, int g)
{
	const char *a = formats[f].why, *b = formats[g].why;
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* The formats of the bits SET, MID between two and LAST before the last: "a, b or c". */
static void join(unsigned set, const char *mid, const char *last, char *buf, size_t n)
{
	int left = bits(set);
	size_t len = 0;
	buf[0] = '\0';
	for (int f = 0; f < CB_NFORMATS && len < n; f++) {
		if (!(set & (1u << f)))
			continue;
		left--;
		len += (size_t)snprintf(buf + len, n - len, "%s%s", formats[f].name,
					left > 1    ? mid
					: left == 1 ? last
						    : "");
	}
}

void cb_format_names(unsigned set, char *buf, size_t n)
{
	join(set, ", ", " or ", buf, n);
}

void cb_format_choices(unsigned set, char *buf, size_t n)
{
	join(set, "|", "|", buf, n);
}

/* The commands that write FORMAT. */
static unsigned writers(int format)
{
	unsigned w = 0;
	for (int c = 0; c < CB_NCMD; c++)
		if (cb_commands[c].formats & (1u << format))
			w |= 1u << c;
	return w;
}

int cb_command_find(const char *word)
{
	for (int k = 0; word && k < CB_NCMD; k++)
		if (strcmp(word, cb_commands[k].name) == 0)
			return k;
	return -1;
}

cb_rc cb_format_check(enum cb_command cmd, int format, cb_error *err)
{
	const cb_command_info *c = &cb_commands[cmd];
	if (format < 0 || (c->formats & (1u << format)))
		return CB_OK;
	char own[96];
	cb_format_names(c->formats, own, sizeof own);
	unsigned w = writers(format);
	if (bits(w) != 1)
		return cb_usage_error(err, NULL, "%s writes %s, not %s", c->name, own,
				      formats[format].name);
	/* One command's format, said with those that are that command's for the same reason:
	 * "--format gpgpusim and gem5 are export's". */
	unsigned same = 0;
	for (int f = 0; f < CB_NFORMATS; f++)
		if (writers(f) == w && same_why(f, format))
			same |= 1u << f;
	char names[96], why[64] = "";
	join(same, ", ", " and ", names, sizeof names);
	if (formats[format].why)
		snprintf(why, sizeof why, " (%s)", formats[format].why);
	return cb_usage_error(err, NULL, "--format %s %s %s's%s; %s writes %s", names,
			      bits(same) > 1 ? "are" : "is", cb_commands[lowest(w)].name, why,
			      c->name, own);
}

/* The file names' endings that name a format, and the kind of file each format is (JSON:
 * json, sarif and plan; a .sarif name takes SARIF only; .diff and .patch: lint's patch). */
/* clang-format off */
static const struct {
	const char *ending;
	int format;
} endings[] = {
	{ ".json", CB_OPT_FORMAT_JSON }, { ".csv", CB_OPT_FORMAT_CSV },
	{ ".txt", CB_OPT_FORMAT_TEXT }, { ".sarif", CB_OPT_FORMAT_SARIF },
	{ ".diff", CB_OPT_FORMAT_DIFF }, { ".patch", CB_OPT_FORMAT_DIFF },
};
/* clang-format on */

static int ending_format(const char *path)
{
	size_t n = path ? strlen(path) : 0;
	for (size_t i = 0; i < sizeof endings / sizeof *endings; i++) {
		size_t k = strlen(endings[i].ending);
		if (n > k && strcasecmp(path + n - k, endings[i].ending) == 0)
			return endings[i].format;
	}
	return -1;
}

static int kind_of(int format)
{
	switch (format) {
	case CB_OPT_FORMAT_SARIF:
	case CB_OPT_FORMAT_PLAN:
		return CB_OPT_FORMAT_JSON;
	case CB_OPT_FORMAT_GPGPUSIM:
	case CB_OPT_FORMAT_GEM5:
		return CB_OPT_FORMAT_TEXT;
	default:
		return format;
	}
}

void cb_format_from_output(cb_cli_options *o, bool warn)
{
	const cb_command_info *c = &cb_commands[o->cmd];
	int ext = ending_format(o->output);
	if (ext < 0 || !c->formats || (o->cmd == CB_CMD_RUN && cb_device_spec_all(o)))
		return;
	/* The run's -o is its document; --format is then its report's on standard output. */
	bool document = o->cmd == CB_CMD_RUN && !o->list && !o->list_models;
	unsigned writes = document ? CB_FORMAT_BIT(JSON) | CB_FORMAT_BIT(CSV) : c->formats;
	if ((o->cmd == CB_CMD_COMPARE && o->baseline) || o->list_models)
		writes = CB_FORMAT_BIT(TEXT); /* the gate's report; the table of models */
	int dflt = document ? CB_OPT_FORMAT_JSON : c->dflt;
	bool asked = !document && o->format >= 0;
	int written = asked ? o->format : (writes & (1u << ext)) ? ext : dflt;
	if (!document)
		o->format = written;
	bool fits = ext == CB_OPT_FORMAT_SARIF ? written == ext : kind_of(written) == ext;
	if (!warn || fits)
		return;
	const char *end = strrchr(o->output, '.') + 1;
	if (asked) {
		cb_warn("'%s' is written in %s (--format %s), not in %s as its name says",
			o->output, formats[written].name, formats[written].name, end);
		return;
	}
	if (document) {
		cb_warn("'%s' is written in json: a run's document is json or csv, not %s",
			o->output, end);
		return;
	}
	char own[96];
	cb_format_names(writes, own, sizeof own);
	cb_warn("'%s' is written in %s: %s writes %s, not %s", o->output, formats[written].name,
		o->list_models ? "--list-models"
		: o->baseline  ? "compare --baseline"
			       : c->name,
		own, end);
}
