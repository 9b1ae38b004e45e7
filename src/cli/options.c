/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/options.h"
#include "core/plan.h"
#include "core/util.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define RUN (1u << CB_CMD_RUN)
#define PLAN (1u << CB_CMD_PLAN)
#define ANALYZE (1u << CB_CMD_ANALYZE)
#define PREDICT (1u << CB_CMD_PREDICT)
#define COMPARE (1u << CB_CMD_COMPARE)
#define PLOT (1u << CB_CMD_PLOT)
#define EXPORT (1u << CB_CMD_EXPORT)
#define LINT (1u << CB_CMD_LINT)
#define ALL ((1u << CB_NCMD) - 1)
/* The run options that lint --measure takes for its measurement. */
#define MEASURE (RUN | LINT)

typedef enum {
	K_FLAG,     /* bool */
	K_STRING,   /* const char *, never empty */
	K_UINT,     /* unsigned long in [min, max]; `word` may stand instead (sets a bool) */
	K_DOUBLE,   /* double in [min, max], times `scale` */
	K_CHOICE,   /* int: index into `choices` ("a|b|c") */
	K_FORMAT,   /* K_CHOICE of the format table; applies to the commands that write one */
	K_UINT_SET, /* unsigned long, one of `choices` */
	K_LIST      /* cb_strings: each use appends one value, never empty */
} kind;

typedef struct {
	const char *name;
	char short_name;
	unsigned commands;
	kind k;
	double min, max, scale;
	const char *choices;
	size_t offset;
	const char *word; /* K_UINT: a word accepted instead of a number (run only) */
	size_t word_offset;
	const char *metavar;
	const char *help; /* lines after the first are indented under it */
	const char *why;  /* said after a range error */
} option;

#define OFF(f) offsetof(cb_cli_options, f)
/* The kinds whose rows give only names, the member and the help. */
#define OPT_FLAG(n, s, cmds, f, help)                                                \
	{                                                                            \
		n, s, cmds, K_FLAG, 0, 0, 0, NULL, OFF(f), NULL, 0, NULL, help, NULL \
	}
#define OPT_STRING(n, s, cmds, f, metavar, help)                                          \
	{                                                                                 \
		n, s, cmds, K_STRING, 0, 0, 0, NULL, OFF(f), NULL, 0, metavar, help, NULL \
	}
#define OPT_LIST(n, s, cmds, f, metavar, help)                                          \
	{                                                                               \
		n, s, cmds, K_LIST, 0, 0, 0, NULL, OFF(f), NULL, 0, metavar, help, NULL \
	}
#define FORMAT_CHOICE(id, name, fmt, why) "|" name
#define FORMAT_CHOICES (CB_FORMAT_TABLE(FORMAT_CHOICE) + 1)

/* clang-format off */
static const option table[] = {
	OPT_STRING("device", 'd', MEASURE, device, "SPEC",
	  "device: index or P:D from --list; gpu, cpu or accelerator (the\n"
	  "first of that type); a device name or vendor substring; else a\n"
	  "platform name substring (pocl, rusticl): its default device\n"
	  "(default: $CLBANKS_DEVICE, else the first GPU, accelerator, CPU);\n"
	  "'all': every device in turn, one document each in -o DIR,\n"
	  "then their compare table; lint --measure: the device to time on"),
	OPT_FLAG("list", 'l', RUN, list, "list devices (the default marked) and exit"),
	OPT_FLAG("list-models", 0, RUN, list_models,
	  "list the reference models, the names --model takes, and exit"),
	OPT_STRING("output", 'o', ALL, output, "FILE",
	  "write the result to FILE ('-': standard output); run: the document\n"
	  "(--device all: an existing directory)"),
	OPT_FLAG("force", 'f', ALL, force, "replace FILE if it exists"),
	{ "format", 'F', 0, K_FORMAT, 0, 0, 0, FORMAT_CHOICES, OFF(format), NULL, 0, "FMT",
	  "the output's format (default text; plan, export: json;\n"
	  "lint's plan: its lane tables as a plan for --plan):", NULL },
	{ "regime", 0, RUN, K_CHOICE, 0, 0, 0, "throughput|latency", OFF(regime), NULL, 0, "R",
	  "throughput (every compute unit busy; default) or latency", NULL },
	{ "timer", 0, MEASURE, K_CHOICE, 0, 0, 0, "auto|event|host", OFF(timer), NULL, 0, "T",
	  "what times launches: auto (the device's event timer when it agrees\n"
	  "with the host clock, else the host clock; default), event or host\n"
	  "(also $CLBANKS_TIMER)", NULL },
	{ "host", 0, RUN, K_CHOICE, 0, 0, 0, "id|name|none", OFF(host), NULL, 0, "H",
	  "the host the document records: id (a short id that does not give\n"
	  "away its name; default), name (its hostname) or none (also\n"
	  "$CLBANKS_HOST)", NULL },
	{ "check", 0, RUN, K_CHOICE, 0, 0, 0, "auto|transpose|none", OFF(check), NULL, 0, "WHAT",
	  "the transpose check after the analysis: auto (where it proves\n"
	  "something: loads banked, local memory of its own; default),\n"
	  "transpose (always) or none", NULL },
	OPT_STRING("ops", 0, RUN | PLAN, ops_text, "LIST",
	  "operations to measure: load, store, atomic, comma-separated\n(default: all three)"),
	{ "stride", 0, PREDICT, K_UINT, 0, 65536, 0, NULL, OFF(stride), NULL, 0, "S",
	  "predict: lane i accesses element i * S (instead of --lanes)", NULL },
	{ "active", 0, PREDICT, K_UINT, 1, 1024, 0, NULL, OFF(active), NULL, 0, "N",
	  "predict: only lanes 0..N-1 take part (--lanes may stop at N)", NULL },
	OPT_STRING("op", 0, PREDICT, op_text, "OP",
	  "predict: load, store or atomic (default load)"),
	OPT_FLAG("quick", 0, RUN | PLAN, quick,
	  "retired for a run (it runs the default, the fastest honest\n"
	  "answer, and says so); --plan full, plan: the quick plan"),
	OPT_STRING("plan", 0, RUN, plan, "FILE|full",
	  "run the experiments of FILE (those of --ops), every one timed;\n"
	  "'full': the whole default plan, every table timed (default: the\n"
	  "adaptive design)"),
	{ "seed", 0, MEASURE | PLAN, K_UINT, 0, 4294967295.0, 0, NULL, OFF(seed), NULL, 0, "N",
	  "seed of the plan and of the launch order (default 1)", NULL },
	{ "subgroup", 0, MEASURE | PLAN, K_UINT, 4, 256, 0, NULL, OFF(subgroup), "measure",
	  OFF(measure_subgroup), "N", "sub-group size (default: from the driver, or measured);\n"
	  "run --subgroup measure ignores what the driver says", NULL },
	{ "min-rounds", 0, MEASURE, K_UINT, 6, 1000, 0, NULL, OFF(min_rounds), NULL, 0, "N",
	  "rounds before the run may stop (default 6): it stops once the\n"
	  "answer has settled",
	  "need at least 6 rounds for a 95% confidence interval" },
	{ "max-rounds", 0, MEASURE, K_UINT, 6, 1000, 0, NULL, OFF(max_rounds), NULL, 0, "N",
	  "most rounds (default 30; 12 with --quick --plan)",
	  "need at least 6 rounds for a 95% confidence interval" },
	{ "ci-target", 0, MEASURE, K_DOUBLE, 0.1, 50, 0.01, NULL, OFF(ci_target), NULL, 0, "PCT",
	  "the 95% CI the printed ratios need (default 2; 5 with --quick\n"
	  "--plan); given, every ratio's CI must meet it before the run stops", NULL },
	{ "max-kernel-ms", 0, MEASURE, K_DOUBLE, 0.1, 1000, 1, NULL, OFF(max_kernel_ms), NULL, 0, "MS",
	  "longest launch (default 50)", "longer launches risk a display watchdog reset" },
	{ "timeout", 0, MEASURE, K_UINT, 1, 86400, 0, NULL, OFF(timeout), NULL, 0, "SEC",
	  "host watchdog of a launch or driver call (default 20)", NULL },
	{ "local-mem", 0, MEASURE, K_UINT, 4096, 1073741824.0, 0, NULL, OFF(local_mem), NULL, 0, "BYTES",
	  "local memory per work-group (default min(device, 32768))", NULL },
	OPT_STRING("kernel-dir", 0, MEASURE, kernel_dir, "DIR",
	  "load kernels from DIR instead of the embedded copies\n(a copy of the installed ones; also $CLBANKS_KERNEL_DIR)"),
	OPT_STRING("build-options", 0, RUN | LINT, build_options, "S",
	  "extra clBuildProgram options (run: also $CLBANKS_BUILD_OPTIONS;\nlint: passed to clang, "
	  "clBuildProgram's options only)"),
	OPT_FLAG("summary", 0, ANALYZE, summary,
	  "analyze --format csv: one row of the inferred models (the\ncolumns of compare) instead "
	  "of one per measurement"),
	OPT_FLAG("strict", 0, RUN | ANALYZE, strict,
	  "exit 5 unless the loads are banked and the run was clean"),
	OPT_STRING("baseline", 0, COMPARE, baseline, "OLD",
	  "compare: FILE against OLD as a regression gate (exit 5\n"
	  "when the model or the cost of a pass changed)"),
	OPT_STRING("model", 0, PREDICT | LINT, model, "FILE",
	  "predict, lint: the analyzed document whose model to use, or a\n"
	  "model's name from --list-models (lint: several, one column\n"
	  "each, and the fix best across them)"),
	{ "elem-bytes", 0, PREDICT, K_UINT_SET, 0, 0, 0, "1|2|4|8|16", OFF(elem_bytes), NULL, 0, "E",
	  "predict: element size, 1, 2, 4, 8 or 16", NULL },
	OPT_STRING("lanes", 0, PREDICT, lanes, "A,B,...", "predict: byte offset of each lane"),
	OPT_STRING("local", 0, LINT, local_size, "X[,Y[,Z]]",
	  "lint: the work-group size the kernel is launched with"),
	OPT_STRING("kernel", 'k', LINT, kernel_name, "NAME",
	  "lint: the kernel to check (default: every kernel of the\nfile, one after the other)"),
	OPT_STRING("group", 0, LINT, group_id, "X[,Y[,Z]]",
	  "lint: the id of the simulated work-group (default 0,0,0)"),
	OPT_LIST("include", 'I', LINT, includes, "DIR",
	  "lint: a directory searched by #include, as -I of\nclBuildProgram"),
	OPT_STRING("cl-std", 0, LINT, cl_std, "CLx.y",
	  "lint: the OpenCL C version: CL1.2 (default), CL2.0 or\nCL3.0"),
	OPT_STRING("lang", 0, LINT, lang, "opencl|cuda|hip",
	  "lint: the kernel's language (default: by extension, .cu and\n.cuh CUDA, .hip HIP, "
	  "others OpenCL C)"),
	OPT_STRING("cuda-path", 0, LINT, cuda_path, "DIR",
	  "lint: a CUDA installation whose headers a CUDA kernel\nincludes (default: clbanks' "
	  "own device headers)"),
	OPT_STRING("rocm-path", 0, LINT, rocm_path, "DIR",
	  "lint: a ROCm installation whose headers a HIP kernel\nincludes (default: clbanks' "
	  "own device headers)"),
	{ "shared-bytes", 0, LINT, K_UINT, 1, 1073741824.0, 0, NULL, OFF(shared_bytes), NULL, 0,
	  "BYTES", "lint: CUDA, HIP: the dynamic shared memory of the launch,\nthe size of "
	  "every extern __shared__ array", NULL },
	OPT_STRING("global", 0, LINT, global_size, "X[,Y[,Z]]",
	  "lint: the global size, for get_num_groups and\nget_global_size (default: not known)"),
	OPT_LIST("define", 'D', LINT, defines, "NAME[=V]",
	  "lint: a preprocessor definition, as -D of clBuildProgram"),
	OPT_LIST("arg", 0, LINT, kernel_args, "NAME=VALUE",
	  "lint: a scalar argument's value, a __local pointer\n"
	  "argument's size in bytes, or a by-value struct's field\n(NAME.FIELD=V, NAME.FIELD[K]=V)"),
	OPT_FLAG("fail-on-conflict", 0, LINT, fail_on_conflict,
	  "lint: exit 5 when a predicted or assumed access takes more\npasses than its conflict-free "
	  "minimum, or an access is unknown\n(accept one: a 'clbanks: ignore' comment on its line)"),
	OPT_FLAG("measure", 0, LINT, measure,
	  "lint: time each access's lane tables on --device and report\n"
	  "the measured slowdown beside the prediction (--model optional)"),
	OPT_STRING("measured", 0, LINT, measured, "FILE",
	  "lint: the measured slowdowns from FILE, a run of the plan that\n"
	  "lint --format plan wrote (clbanks --plan PLAN -o FILE)"),
	OPT_FLAG("allow-unknown", 0, LINT, allow_unknown,
	  "lint: with --fail-on-conflict, unknown accesses pass"),
	OPT_FLAG("allow-assumed", 0, LINT, allow_assumed,
	  "lint: with --fail-on-conflict, conflicts of assumed accesses\n(under branches lint "
	  "cannot decide) pass"),
	OPT_FLAG("quiet", 'q', ALL, quiet, "no progress or warnings on stderr"),
	OPT_FLAG("verbose", 'v', ALL, verbose, "more detail on stderr"),
	OPT_FLAG("help", 'h', ALL, help, "show this help and exit"),
	OPT_FLAG("version", 'V', ALL, version, "show the version and exit"),
};
/* clang-format on */
#define NOPTS (sizeof table / sizeof table[0])
_Static_assert(NOPTS <= 64, "cb_cli_options.given has room for 64 options");

/* Does option OP apply to command CMD? --format to those that write a format. */
static bool applies(const option *op, int cmd)
{
	if (op->k == K_FORMAT)
		return cb_commands[cmd].formats != 0;
	return (op->commands & (1u << cmd)) != 0;
}

/* "expected a, b or c" from "a|b|c". */
static void choice_list(const char *choices, char *buf, size_t n)
{
	size_t len = 0, count = 1;
	for (const char *p = choices; *p; p++)
		count += *p == '|';
	size_t k = 0;
	for (const char *p = choices; *p && len + 4 < n; k++) {
		size_t w = strcspn(p, "|");
		len += (size_t)snprintf(buf + len, n - len, "%s%.*s",
					k == 0           ? ""
					: k + 1 == count ? " or "
							 : ", ",
					(int)w, p);
		p += w + (p[w] == '|');
	}
}

static int choice_index(const char *choices, const char *value)
{
	int k = 0;
	size_t vl = strlen(value);
	for (const char *p = choices; *p; k++) {
		size_t w = strcspn(p, "|");
		if (w == vl && strncmp(p, value, w) == 0)
			return k;
		p += w + (p[w] == '|');
	}
	return -1;
}

static cb_rc bad_value(cb_error *err, const option *op, const char *value, const char *what)
{
	if (op->why)
		return cb_usage_error(err, NULL, "invalid value '%s' for --%s: %s (%s)", value,
				      op->name, what, op->why);
	return cb_usage_error(err, NULL, "invalid value '%s' for --%s: %s", value, op->name, what);
}

static cb_rc set_number(const option *op, const char *value, char *base, cb_error *err)
{
	char what[128];
	if (op->k == K_UINT) {
		unsigned long v;
		snprintf(what, sizeof what, "expected an integer from %.0f to %.0f%s%s%s", op->min,
			 op->max, op->word ? ", or '" : "", op->word ? op->word : "",
			 op->word ? "'" : "");
		if (!cb_parse_ulong(value, (unsigned long)op->min, (unsigned long)op->max, &v))
			return bad_value(err, op, value, what);
		*(unsigned long *)(base + op->offset) = v;
		return CB_OK;
	}
	if (op->k == K_UINT_SET) {
		unsigned long v;
		choice_list(op->choices, what, sizeof what);
		if (!cb_parse_ulong(value, 0, 1UL << 20, &v) ||
		    choice_index(op->choices, value) < 0) {
			char msg[160];
			snprintf(msg, sizeof msg, "expected %s", what);
			return bad_value(err, op, value, msg);
		}
		*(unsigned long *)(base + op->offset) = v;
		return CB_OK;
	}
	double v;
	snprintf(what, sizeof what, "expected a number from %g to %g", op->min, op->max);
	if (!cb_parse_double(value, op->min, op->max, &v))
		return bad_value(err, op, value, what);
	*(double *)(base + op->offset) = v * op->scale;
	return CB_OK;
}

static cb_rc set_value(const option *op, const char *value, cb_cli_options *o, cb_error *err)
{
	char *base = (char *)o;
	switch (op->k) {
	case K_FLAG:
		*(bool *)(base + op->offset) = true;
		return CB_OK;
	case K_STRING:
		if (!*value)
			return cb_usage_error(err, NULL, "empty value for --%s", op->name);
		/* A second document is never dropped in silence: lint takes several (a column
		 * each), the others one. */
		if (strcmp(op->name, "model") == 0 && *(const char **)(base + op->offset) &&
		    o->cmd != CB_CMD_LINT)
			return cb_usage_error(
				err, NULL,
				"--model given twice ('%s', '%s'): %s takes one model document",
				*(const char **)(base + op->offset), value, o->cmd_name);
		if (strcmp(op->name, "model") == 0) {
			o->models.v = cb_xrealloc(o->models.v,
						  (o->models.n + 1) * sizeof *o->models.v);
			o->models.v[o->models.n++] = value;
			if (o->models.n > 1)
				return CB_OK; /* o->model stays the first */
		}
		*(const char **)(base + op->offset) = value;
		return CB_OK;
	case K_LIST: {
		if (!*value)
			return cb_usage_error(err, NULL, "empty value for --%s", op->name);
		cb_strings *l = (cb_strings *)(base + op->offset);
		l->v = cb_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
		l->v[l->n++] = value;
		return CB_OK;
	}
	case K_CHOICE:
	case K_FORMAT: {
		int k = choice_index(op->choices, value);
		if (k < 0) {
			char list[128], msg[160];
			choice_list(op->choices, list, sizeof list);
			snprintf(msg, sizeof msg, "expected %s", list);
			return bad_value(err, op, value, msg);
		}
		*(int *)(base + op->offset) = k;
		return CB_OK;
	}
	default:
		if (op->word && o->cmd == CB_CMD_RUN && strcmp(value, op->word) == 0) {
			*(bool *)(base + op->word_offset) = true;
			return CB_OK;
		}
		return set_number(op, value, base, err);
	}
}

static char *join_command_line(int argc, char **argv)
{
	size_t n = 1;
	for (int i = 0; i < argc; i++)
		n += strlen(argv[i]) * 2 + 3;
	char *s = cb_xmalloc(n), *p = s;
	for (int i = 0; i < argc; i++) {
		bool q = strpbrk(argv[i], " \t'\"") != NULL || !*argv[i];
		if (i)
			*p++ = ' ';
		if (q)
			*p++ = '\'';
		for (const char *c = argv[i]; *c; c++) {
			if (*c == '\'')
				*p++ = '\\';
			*p++ = *c;
		}
		if (q)
			*p++ = '\'';
	}
	*p = '\0';
	return s;
}

static void defaults(cb_cli_options *o)
{
	memset(o, 0, sizeof *o);
	o->cmd = CB_CMD_RUN;
	o->format = -1;
	o->timer = -1;
	o->host = -1;
	o->seed = 1;
	o->min_rounds = 6;
	o->max_rounds = 30;
	o->timeout = 20;
	o->max_kernel_ms = 50;
	o->ci_target = 0.02;
	o->ops = CB_OPS_ALL;
}

static void getopt_tables(struct option *longs, char *shorts)
{
	char *s = shorts;
	*s++ = ':';
	for (size_t i = 0; i < NOPTS; i++) {
		bool arg = table[i].k != K_FLAG;
		longs[i] = (struct option){ table[i].name, arg ? required_argument : no_argument,
					    NULL, 256 + (int)i };
		if (table[i].short_name) {
			*s++ = table[i].short_name;
			if (arg)
				*s++ = ':';
		}
	}
	longs[NOPTS] = (struct option){ NULL, 0, NULL, 0 };
	*s = '\0';
}

static int index_of_short(int c)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (table[i].short_name == c)
			return (int)i;
	return -1;
}

/* One getopt result C; returns CB_OK or a usage error. */
static cb_rc take(int c, char **av, cb_cli_options *o, cb_error *err)
{
	if (c == '?') {
		if (optopt && optopt < 256)
			return cb_usage_error(err, NULL, "unknown option '-%c'", optopt);
		return cb_usage_error(err, NULL, "unknown option '%s'", av[optind - 1]);
	}
	if (c == ':')
		return cb_usage_error(err, NULL, "option '%s' needs a value", av[optind - 1]);
	int i = c >= 256 ? c - 256 : index_of_short(c);
	if (i < 0 || i >= (int)NOPTS)
		return cb_usage_error(err, NULL, "unknown option '-%c'", c);
	const option *op = &table[i];
	if (!applies(op, (int)o->cmd)) {
		if (c >= 256)
			return cb_usage_error(err, NULL,
					      "option '--%s' does not apply to 'clbanks %s'",
					      op->name, o->cmd_name);
		return cb_usage_error(err, NULL, "option '-%c' does not apply to 'clbanks %s'", c,
				      o->cmd_name);
	}
	o->given[i] = true;
	return set_value(op, optarg, o, err);
}

/* Options before a command word ('clbanks -q analyze FILE') are parsed as a run's: when the
 * first operand (as getopt finds it, not an option's value) is a command, that is said
 * instead of an option that does not apply to a run, or an unexpected argument. */
static cb_rc misplaced_command(const char *word, cb_error *err)
{
	return cb_usage_error(err, NULL,
			      "the command '%s' comes first: clbanks %s [OPTION]... (options "
			      "before it were read as a run's)",
			      word, word);
}

/* The first operand of ARGV, the options skipped; NULL when none. */
static const char *first_operand(int argc, char **argv, const struct option *longs,
				 const char *shorts)
{
	opterr = 0;
	optind = 0; /* a full restart after a scan that stopped at an error */
	while (getopt_long(argc, argv, shorts, longs, NULL) != -1)
		continue;
	return optind < argc ? argv[optind] : NULL;
}

cb_rc cb_options_parse(int argc, char **argv, const cb_command_word *w, cb_cli_options *o,
		       cb_error *err)
{
	defaults(o);
	o->command_line = join_command_line(argc, argv);
	o->cmd = w->cmd;
	o->cmd_name = w->name;
	o->command_given = w->given;
	int first = w->given ? 2 : 1;
	struct option longs[NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	getopt_tables(longs, shorts);
	/* getopt_long on argv shifted past the command. */
	char **av = argv + first - 1;
	int ac = argc - first + 1, c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(ac, av, shorts, longs, NULL)) != -1) {
		if (take(c, av, o, err) != CB_OK) {
			const char *word = w->given ? NULL : first_operand(ac, av, longs, shorts);
			return cb_command_find(word) >= 0 ? misplaced_command(word, err)
							  : CB_ERR_USAGE;
		}
		if (o->help || o->version)
			return CB_OK;
	}
	if (!w->given && optind < ac && cb_command_find(av[optind]) >= 0)
		return misplaced_command(av[optind], err);
	if (o->ops_text && !cb_ops_parse(o->ops_text, &o->ops))
		return cb_usage_error(
			err, NULL,
			"invalid value '%s' for --ops: expected a comma-separated list "
			"of load, store and atomic",
			o->ops_text);
	cb_op op = CB_OP_LOAD;
	if (o->op_text && !cb_op_parse(o->op_text, &op))
		return cb_usage_error(err, NULL,
				      "invalid value '%s' for --op: expected load, store or atomic",
				      o->op_text);
	o->op = (int)op;
	if (cb_format_check(o->cmd, o->format, err) != CB_OK)
		return CB_ERR_USAGE;
	if (o->min_rounds > o->max_rounds)
		return cb_usage_error(err, NULL, "--min-rounds %lu is larger than --max-rounds %lu",
				      o->min_rounds, o->max_rounds);
	o->args = av + optind;
	o->nargs = ac - optind;
	return CB_OK;
}

void cb_options_free(cb_cli_options *o)
{
	free(o->command_line);
	free(o->defines.v);
	free(o->kernel_args.v);
	free(o->includes.v);
	free(o->models.v);
	o->command_line = NULL;
	o->defines = o->kernel_args = o->includes = o->models = (cb_strings){ NULL, 0 };
}

bool cb_plan_file(const cb_cli_options *o)
{
	return o->plan && strcmp(o->plan, "full") != 0;
}

bool cb_option_given(const cb_cli_options *o, const char *name)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (strcmp(table[i].name, name) == 0)
			return o->given[i];
	return false;
}

/* --format's lines: what each command (CMD, or every one when -1) writes, from the command
 * table; commands that write the same formats share a line. */
static void help_formats(FILE *out, int cmd)
{
	unsigned done = 0;
	for (int k = 0; k < CB_NCMD; k++) {
		unsigned f = cb_commands[k].formats;
		if (!f || (done & (1u << k)) || (cmd >= 0 && k != cmd))
			continue;
		fprintf(out, "  %-20s ", "");
		for (int j = k, first = 1; j < CB_NCMD; j++)
			if (cb_commands[j].formats == f && (cmd < 0 || j == cmd)) {
				fprintf(out, "%s%s", first ? "" : ", ", cb_commands[j].name);
				first = 0;
				done |= 1u << j;
			}
		char names[96];
		cb_format_names(f, names, sizeof names);
		fprintf(out, ": %s\n", names);
	}
}

static void help_option(FILE *out, const option *op, int cmd)
{
	char names[64];
	if (op->short_name)
		snprintf(names, sizeof names, "-%c, --%s%s%s", op->short_name, op->name,
			 op->metavar ? " " : "", op->metavar ? op->metavar : "");
	else
		snprintf(names, sizeof names, "    --%s%s%s", op->name, op->metavar ? " " : "",
			 op->metavar ? op->metavar : "");
	fprintf(out, "  %-20s", names);
	if (strlen(names) > 20)
		fprintf(out, "\n  %-20s", "");
	for (const char *p = op->help; *p;) {
		size_t w = strcspn(p, "\n");
		fprintf(out, " %.*s\n", (int)w, p);
		p += w;
		if (*p == '\n' && *++p)
			fprintf(out, "  %-20s", "");
	}
	if (op->k == K_FORMAT)
		help_formats(out, cmd);
}

void cb_options_help(FILE *out, int cmd)
{
	fputs("Usage: ", out);
	for (int k = 0; k < CB_NCMD; k++) {
		if (cmd >= 0 && k != cmd)
			continue;
		fprintf(out, "%s%s\n", k && cmd < 0 ? "       " : "", cb_commands[k].usage);
		if (k == CB_CMD_RUN && cmd < 0)
			fputs("       clbanks --list                     list OpenCL platforms and devices\n",
			      out);
	}
	fputs("\nDiscovers by measurement how an OpenCL device's __local memory is banked: banks,\n"
	      "bank width, lanes served per pass, broadcast, and the cost of a conflict, for\n"
	      "loads, stores and atomics. Passes (predict, lint, the reports) are what Nsight\n"
	      "Compute counts as shared-memory wavefronts per instruction; AMD's LDS bank-conflict\n"
	      "cycles are the passes beyond the first.\n\n"
	      "Options:\n",
	      out);
	for (size_t i = 0; i < NOPTS; i++)
		if (cmd < 0 || applies(&table[i], cmd))
			help_option(out, &table[i], cmd);
	fputs("\nExit status: 0 ok, 2 usage or bad input, 3 no platform or device, 4 OpenCL or\n"
	      "run-time failure, 5 --strict and not clean, 128+N stopped by signal N (130 SIGINT,\n"
	      "143 SIGTERM, 129 SIGHUP, 131 SIGQUIT); no output file is ever left half written; a\n"
	      "measurement that cannot be written is kept in another file, named. --device all:\n"
	      "the status of the first device that failed, 0 when none did.\n"
	      "See clbanks(1) for the result format and the method.\n",
	      out);
}
