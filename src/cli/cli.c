/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/cli.h"
#include "core/advice.h"
#include "views/compare.h"
#include "measure/device.h"
#include "doc/doc.h"
#include "core/infer.h"
#include "cli/outfile.h"
#include "core/plan.h"
#include "views/plot.h"
#include "views/report.h"
#include "measure/runner.h"
#include "cli/signals.h"
#include "core/util.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum command { CMD_RUN, CMD_PLAN, CMD_ANALYZE, CMD_PREDICT, CMD_COMPARE, CMD_PLOT, NCMD };
static const char *const command_names[NCMD] = { "run", "plan", "analyze", "predict", "compare", "plot" };

#define C_RUN (1u << CMD_RUN)
#define C_PLAN (1u << CMD_PLAN)
#define C_ANALYZE (1u << CMD_ANALYZE)
#define C_PREDICT (1u << CMD_PREDICT)
#define C_COMPARE (1u << CMD_COMPARE)
#define C_PLOT (1u << CMD_PLOT)
#define C_ALL 0xffu

enum {
	OPT_KERNEL_DIR = 256, OPT_REGIME, OPT_SEED, OPT_QUICK, OPT_STRICT, OPT_MIN_ROUNDS,
	OPT_MAX_ROUNDS, OPT_MAX_KERNEL_MS, OPT_TIMEOUT, OPT_SUBGROUP, OPT_LOCAL_MEM,
	OPT_BUILD_OPTIONS, OPT_PLAN, OPT_MODEL, OPT_ELEM_BYTES, OPT_LANES, OPT_CI_TARGET
};

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "list", no_argument, NULL, 'l' },
	{ "device", required_argument, NULL, 'd' },
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'f' },
	{ "format", required_argument, NULL, 'F' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "kernel-dir", required_argument, NULL, OPT_KERNEL_DIR },
	{ "regime", required_argument, NULL, OPT_REGIME },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "min-rounds", required_argument, NULL, OPT_MIN_ROUNDS },
	{ "max-rounds", required_argument, NULL, OPT_MAX_ROUNDS },
	{ "ci-target", required_argument, NULL, OPT_CI_TARGET },
	{ "max-kernel-ms", required_argument, NULL, OPT_MAX_KERNEL_MS },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "subgroup", required_argument, NULL, OPT_SUBGROUP },
	{ "local-mem", required_argument, NULL, OPT_LOCAL_MEM },
	{ "build-options", required_argument, NULL, OPT_BUILD_OPTIONS },
	{ "plan", required_argument, NULL, OPT_PLAN },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "elem-bytes", required_argument, NULL, OPT_ELEM_BYTES },
	{ "lanes", required_argument, NULL, OPT_LANES },
	{ NULL, 0, NULL, 0 }
};

/* Which commands accept each option (by getopt value). */
static unsigned option_commands(int c)
{
	switch (c) {
	case 'h': case 'V': case 'q': case 'v': case 'f': case 'o': return C_ALL;
	case 'F': return C_RUN | C_PLAN | C_ANALYZE | C_PREDICT | C_COMPARE;
	case 'l': case 'd': case OPT_KERNEL_DIR: case OPT_REGIME: case OPT_MIN_ROUNDS:
	case OPT_MAX_ROUNDS: case OPT_MAX_KERNEL_MS: case OPT_TIMEOUT: case OPT_LOCAL_MEM:
	case OPT_BUILD_OPTIONS: case OPT_PLAN: case OPT_CI_TARGET:
		return C_RUN;
	case OPT_SEED: case OPT_QUICK: case OPT_SUBGROUP: return C_RUN | C_PLAN;
	case OPT_STRICT: return C_RUN | C_ANALYZE;
	case OPT_MODEL: case OPT_ELEM_BYTES: case OPT_LANES: return C_PREDICT;
	default: return 0;
	}
}

typedef struct {
	enum command cmd;
	bool list, force, quiet, verbose, quick, strict, latency, measure_subgroup;
	bool format_set, rounds_set, ci_set;
	cb_format format;
	const char *device, *output, *kernel_dir, *build_options, *plan, *model, *lanes;
	unsigned long seed, min_rounds, max_rounds, timeout, subgroup, local_mem, elem_bytes;
	double max_kernel_ms, ci_target;
	char **args;
	int nargs;
	char *command_line;
} options;

static void usage(FILE *out)
{
	fputs("Usage: clbanks [run] [OPTION]...          measure the selected device, analyze, report\n"
	      "       clbanks --list                     list OpenCL platforms and devices\n"
	      "       clbanks plan [OPTION]...           write the experiment plan (no device needed)\n"
	      "       clbanks analyze FILE [OPTION]...   infer the bank model of a result document\n"
	      "       clbanks predict --model FILE --elem-bytes E --lanes A,B,...\n"
	      "                                          passes of one lane table under FILE's model\n"
	      "       clbanks compare FILE... [OPTION]...  devices side by side\n"
	      "       clbanks plot FILE... -o OUT.svg    stride curves (needs gnuplot)\n"
	      "\n"
	      "Discovers by measurement how an OpenCL device's __local memory is banked: banks,\n"
	      "bank width, lanes served per pass, broadcast, and the cost of a conflict.\n"
	      "\n"
	      "Options:\n"
	      "  -d, --device SPEC      device: index or P:D from --list, or a name substring\n"
	      "                         (default: $CLBANKS_DEVICE, else 0)\n"
	      "  -l, --list             list devices and exit\n"
	      "  -o, --output FILE      write the result (run: the JSON document) to FILE\n"
	      "  -f, --force            replace FILE if it exists\n"
	      "  -F, --format FMT       text, json or csv (default text; plan: json)\n"
	      "      --regime R         throughput (every compute unit busy; default) or latency\n"
	      "      --quick            fewer experiments and shorter launches\n"
	      "      --plan FILE        run the experiments of FILE instead of the default plan\n"
	      "      --seed N           seed of the plan and of the launch order (default 1)\n"
	      "      --subgroup N       sub-group size (default: from the driver, or measured);\n"
	      "                         run --subgroup measure ignores what the driver says\n"
	      "      --min-rounds N     rounds before stopping on convergence (default 6)\n"
	      "      --max-rounds N     most rounds (default 30; 6 with --quick)\n"
	      "      --ci-target PCT    stop when every 95% CI is within +/-PCT% (default 2; 5 with\n"
	      "                         --quick)\n"
	      "      --max-kernel-ms MS longest launch (default 50, at most 1000)\n"
	      "      --timeout SEC      host watchdog for one launch (default 20)\n"
	      "      --local-mem BYTES  local memory per work-group (default min(device, 32768))\n"
	      "      --kernel-dir DIR   load kernels from DIR instead of the embedded copies\n"
	      "                         (also $CLBANKS_KERNEL_DIR)\n"
	      "      --build-options S  extra clBuildProgram options (also $CLBANKS_BUILD_OPTIONS)\n"
	      "      --strict           exit 5 unless the result is banked and the run was clean\n"
	      "      --model FILE       predict: the analyzed document whose model to use\n"
	      "      --elem-bytes E     predict: element size, 1, 2, 4, 8 or 16\n"
	      "      --lanes A,B,...    predict: byte offset of each lane\n"
	      "  -q, --quiet            no progress or warnings on stderr\n"
	      "  -v, --verbose          more detail on stderr\n"
	      "  -h, --help             show this help and exit\n"
	      "  -V, --version          show the version and exit\n"
	      "\n"
	      "Exit status: 0 ok, 2 usage or bad input, 3 no platform or device, 4 OpenCL or\n"
	      "run-time failure, 5 --strict and not clean, 130/143 interrupted.\n"
	      "See clbanks(1) for the result format and the method.\n", out);
}

static int bad_value(const char *opt, const char *value, const char *what)
{
	cb_err("invalid value '%s' for %s: %s", value, opt, what);
	fputs("Try 'clbanks --help' for more information.\n", stderr);
	return CB_EXIT_USAGE;
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

/* Parses the command line. Returns -1 to continue, or an exit status. */
static int parse(int argc, char **argv, options *o)
{
	memset(o, 0, sizeof *o);
	o->cmd = CMD_RUN;
	o->seed = 1;
	o->min_rounds = 6;
	o->max_rounds = 30;
	o->timeout = 20;
	o->max_kernel_ms = 50;
	o->ci_target = 0.02;
	o->command_line = join_command_line(argc, argv);
	int first = 1;
	if (argc > 1 && argv[1][0] != '-') {
		int k;
		for (k = 0; k < NCMD; k++)
			if (strcmp(argv[1], command_names[k]) == 0)
				break;
		if (k == NCMD) {
			cb_err("unknown command '%s' (commands: run, plan, analyze, predict, compare, plot)",
			       argv[1]);
			fputs("Try 'clbanks --help' for more information.\n", stderr);
			return CB_EXIT_USAGE;
		}
		o->cmd = (enum command)k;
		first = 2;
	}
	/* getopt_long on argv shifted past the command. */
	char **av = argv + first - 1;
	int ac = argc - first + 1;
	opterr = 0;
	optind = 1;
	int c, idx;
	while (idx = -1, (c = getopt_long(ac, av, ":hVld:o:fF:qv", long_opts, &idx)) != -1) {
		if (c == '?') {
			if (optopt && optopt < 256)
				cb_err("unknown option '-%c'", optopt);
			else
				cb_err("unknown option '%s'", av[optind - 1]);
			fputs("Try 'clbanks --help' for more information.\n", stderr);
			return CB_EXIT_USAGE;
		}
		if (c == ':') {
			cb_err("option '%s' needs a value", av[optind - 1]);
			fputs("Try 'clbanks --help' for more information.\n", stderr);
			return CB_EXIT_USAGE;
		}
		if (!(option_commands(c) & (1u << o->cmd))) {
			if (idx >= 0)
				cb_err("option '--%s' does not apply to 'clbanks %s'", long_opts[idx].name,
				       command_names[o->cmd]);
			else
				cb_err("option '-%c' does not apply to 'clbanks %s'", c, command_names[o->cmd]);
			return CB_EXIT_USAGE;
		}
		switch (c) {
		case 'h':
			usage(stdout);
			return CB_EXIT_OK;
		case 'V':
			printf("clbanks %s\n", PACKAGE_VERSION);
			return CB_EXIT_OK;
		case 'l': o->list = true; break;
		case 'd': o->device = optarg; break;
		case 'o': o->output = optarg; break;
		case 'f': o->force = true; break;
		case 'q': o->quiet = true; break;
		case 'v': o->verbose = true; break;
		case 'F':
			if (!cb_format_parse(optarg, &o->format))
				return bad_value("--format", optarg, "expected text, json or csv");
			o->format_set = true;
			break;
		case OPT_KERNEL_DIR: o->kernel_dir = optarg; break;
		case OPT_BUILD_OPTIONS: o->build_options = optarg; break;
		case OPT_PLAN: o->plan = optarg; break;
		case OPT_MODEL: o->model = optarg; break;
		case OPT_LANES: o->lanes = optarg; break;
		case OPT_QUICK: o->quick = true; break;
		case OPT_STRICT: o->strict = true; break;
		case OPT_REGIME:
			if (strcmp(optarg, "latency") == 0)
				o->latency = true;
			else if (strcmp(optarg, "throughput") == 0)
				o->latency = false;
			else
				return bad_value("--regime", optarg, "expected throughput or latency");
			break;
		case OPT_SEED:
			if (!cb_parse_ulong(optarg, 0, 0xffffffffUL, &o->seed))
				return bad_value("--seed", optarg, "expected an integer from 0 to 4294967295");
			break;
		case OPT_MIN_ROUNDS:
			if (!cb_parse_ulong(optarg, 1, 1000, &o->min_rounds))
				return bad_value("--min-rounds", optarg, "expected an integer from 6 to 1000");
			if (o->min_rounds < 6)
				return bad_value("--min-rounds", optarg,
						 "need at least 6 rounds for a 95% confidence interval");
			break;
		case OPT_MAX_ROUNDS:
			o->rounds_set = true;
			if (!cb_parse_ulong(optarg, 1, 1000, &o->max_rounds))
				return bad_value("--max-rounds", optarg, "expected an integer from 6 to 1000");
			if (o->max_rounds < 6)
				return bad_value("--max-rounds", optarg,
						 "need at least 6 rounds for a 95% confidence interval");
			break;
		case OPT_CI_TARGET: {
			double v;
			if (!cb_parse_double(optarg, 0.1, 50, &v))
				return bad_value("--ci-target", optarg, "expected a percentage from 0.1 to 50");
			o->ci_target = v / 100;
			o->ci_set = true;
			break;
		}
		case OPT_MAX_KERNEL_MS:
			if (!cb_parse_double(optarg, 0.1, 1e9, &o->max_kernel_ms))
				return bad_value("--max-kernel-ms", optarg, "expected milliseconds from 0.1 to 1000");
			if (o->max_kernel_ms > 1000)
				return bad_value("--max-kernel-ms", optarg,
						 "launches longer than 1000 ms risk a display watchdog reset");
			break;
		case OPT_TIMEOUT:
			if (!cb_parse_ulong(optarg, 1, 86400, &o->timeout))
				return bad_value("--timeout", optarg, "expected seconds from 1 to 86400");
			break;
		case OPT_SUBGROUP:
			if (o->cmd == CMD_RUN && strcmp(optarg, "measure") == 0)
				o->measure_subgroup = true;
			else if (!cb_parse_ulong(optarg, 4, 1024, &o->subgroup))
				return bad_value("--subgroup", optarg, o->cmd == CMD_RUN ?
						 "expected a lane count from 4 to 1024, or 'measure'" :
						 "expected a lane count from 4 to 1024");
			break;
		case OPT_LOCAL_MEM:
			if (!cb_parse_ulong(optarg, 4096, 1UL << 30, &o->local_mem))
				return bad_value("--local-mem", optarg, "expected bytes from 4096 to 1073741824");
			break;
		case OPT_ELEM_BYTES:
			if (!cb_parse_ulong(optarg, 1, 16, &o->elem_bytes) || cb_elem_index((unsigned)o->elem_bytes) < 0)
				return bad_value("--elem-bytes", optarg, "expected 1, 2, 4, 8 or 16");
			break;
		}
	}
	if (o->min_rounds > o->max_rounds) {
		cb_err("--min-rounds %lu is larger than --max-rounds %lu", o->min_rounds, o->max_rounds);
		return CB_EXIT_USAGE;
	}
	o->args = av + optind;
	o->nargs = ac - optind;
	return -1;
}

/* Infers the model of DOC and stores the inference and the padding advice in it. */
static bool analyze_doc(json_t *doc, cb_inference *inf, unsigned *subgroup)
{
	cb_dataset ds;
	cb_doc_dataset(doc, &ds);
	*subgroup = ds.subgroup;
	bool ok = cb_infer(&ds, inf);
	cb_dataset_free(&ds);
	json_object_set_new(doc, "inference", cb_inference_to_json(inf, *subgroup));
	cb_pad_advice adv[9];
	unsigned n = cb_padding_advice(inf, doc, *subgroup, adv);
	if (n)
		json_object_set_new(doc, "advice", json_pack("{s:o}", "padding",
							      cb_padding_advice_json(adv, n)));
	else
		json_object_del(doc, "advice");
	return ok;
}

static bool write_report(FILE *f, cb_format fmt, json_t *doc, const cb_inference *inf, unsigned S)
{
	if (fmt == CB_FMT_JSON) {
		char *s = cb_doc_dumps(doc);
		fputs(s, f);
		fputc('\n', f);
		free(s);
	} else if (fmt == CB_FMT_CSV) {
		cb_report_csv(f, doc, inf, S);
	} else {
		cb_report_text(f, doc, inf, S);
	}
	return !ferror(f);
}

static cb_format format_for_path(const char *path, cb_format dflt)
{
	size_t n = path ? strlen(path) : 0;
	if (n > 4 && strcmp(path + n - 4, ".csv") == 0)
		return CB_FMT_CSV;
	if (n > 4 && strcmp(path + n - 4, ".txt") == 0)
		return CB_FMT_TEXT;
	if (n > 5 && strcmp(path + n - 5, ".json") == 0)
		return CB_FMT_JSON;
	return dflt;
}

static int strict_status(const options *o, json_t *doc, const cb_inference *inf)
{
	if (!o->strict)
		return CB_EXIT_OK;
	json_t *w = json_object_get(json_object_get(doc, "quality"), "warnings");
	if (inf->status != CB_BANKED || json_array_size(w) > 0) {
		cb_err("--strict: %s", inf->status != CB_BANKED ? "the result is not 'banked'" :
		       "the run has quality warnings");
		return CB_EXIT_QUALITY;
	}
	return CB_EXIT_OK;
}

static int cmd_list(const options *o)
{
	cb_device_list list;
	int rc = cb_devices_enumerate(&list);
	if (rc != CB_EXIT_OK)
		return rc;
	if (o->format_set && o->format == CB_FMT_JSON) {
		json_t *a = cb_devices_to_json(&list);
		char *s = json_dumps(a, JSON_INDENT(2));
		puts(s);
		free(s);
		json_decref(a);
	} else if (o->format_set && o->format == CB_FMT_CSV) {
		fputs("index,id,type,name,vendor,platform\r\n", stdout);
		for (size_t i = 0; i < list.count; i++) {
			const cb_device_ref *r = &list.items[i];
			char buf[32];
			snprintf(buf, sizeof buf, "%u", r->flat);
			cb_csv_field(stdout, buf, false);
			snprintf(buf, sizeof buf, "%u:%u", r->pindex, r->dindex);
			cb_csv_field(stdout, buf, false);
			cb_csv_field(stdout, cb_device_type_name(r->type), false);
			cb_csv_field(stdout, r->name, false);
			cb_csv_field(stdout, r->vendor, false);
			cb_csv_field(stdout, r->platform_name, true);
		}
	} else {
		cb_devices_print(&list, stdout);
	}
	cb_devices_free(&list);
	return CB_EXIT_OK;
}

static int cmd_run(const options *o)
{
	if (o->nargs > 0) {
		cb_err("unexpected argument '%s'", o->args[0]);
		return CB_EXIT_USAGE;
	}
	if (o->list)
		return cmd_list(o);
	json_t *plan = NULL;
	if (o->plan && !(plan = cb_doc_load(o->plan, false)))
		return CB_EXIT_USAGE;
	cb_outfile out = { 0 };
	bool to_file = o->output && strcmp(o->output, "-") != 0;
	if (to_file && !cb_outfile_open(&out, o->output, o->force)) {
		json_decref(plan);
		return CB_EXIT_USAGE;
	}
	if (to_file)
		cb_signals_set_tempfile(out.tmp);

	cb_device_list list;
	int rc = cb_devices_enumerate(&list);
	size_t idx = 0;
	if (rc == CB_EXIT_OK) {
		const char *spec = o->device ? o->device : getenv("CLBANKS_DEVICE");
		rc = cb_device_select(&list, spec && *spec ? spec : "0", &idx);
	}
	cb_device_info info;
	json_t *doc = NULL;
	if (rc == CB_EXIT_OK && (rc = cb_device_info_gather(&list.items[idx], &info)) == CB_EXIT_OK) {
		if (!o->quiet)
			fprintf(stderr, "clbanks: measuring %s (%s), %s regime\n", info.name,
				info.platform_name, o->latency ? "latency" : "throughput");
		const char *kd = o->kernel_dir ? o->kernel_dir : getenv("CLBANKS_KERNEL_DIR");
		const char *bo = o->build_options ? o->build_options : getenv("CLBANKS_BUILD_OPTIONS");
		cb_run_opts ro = {
			.kernel_dir = kd && *kd ? kd : NULL, .build_options = bo && *bo ? bo : NULL,
			.latency = o->latency, .quick = o->quick,
			.min_rounds = (unsigned)o->min_rounds, .max_rounds = (unsigned)o->max_rounds,
			.ci_target = o->ci_target, .max_kernel_ms = o->max_kernel_ms,
			.timeout_s = (unsigned)o->timeout, .subgroup_override = (unsigned)o->subgroup,
			.measure_subgroup = o->measure_subgroup,
			.local_mem = o->local_mem, .seed = o->seed, .quiet = o->quiet,
			.verbose = o->verbose, .plan = plan, .command_line = o->command_line,
		};
		/* --quick: six rounds (the fewest for a 95% interval) and a 5% target, unless set. */
		if (o->quick && !o->rounds_set)
			ro.max_rounds = 6;
		if (o->quick && !o->ci_set)
			ro.ci_target = 0.05;
		rc = cb_run(&list.items[idx], &info, &ro, &doc);
		cb_device_info_free(&info);
	}
	cb_devices_free(&list);
	json_decref(plan);
	if (rc != CB_EXIT_OK) {
		if (to_file)
			cb_outfile_abort(&out);
		cb_signals_set_tempfile(NULL);
		return rc;
	}
	cb_inference inf;
	unsigned S;
	double t0 = cb_now();
	analyze_doc(doc, &inf, &S);
	json_object_set_new(json_object_get(json_object_get(doc, "run"), "seconds"), "analysis",
			    json_real(cb_now() - t0));
	if (to_file) {
		/* The document itself: CSV when the name says so, else JSON. */
		write_report(out.fp, format_for_path(o->output, CB_FMT_JSON) == CB_FMT_CSV ?
			     CB_FMT_CSV : CB_FMT_JSON, doc, &inf, S);
		bool ok = cb_outfile_commit(&out);
		cb_signals_set_tempfile(NULL);
		if (!ok) {
			json_decref(doc);
			return CB_EXIT_RUNTIME;
		}
	}
	/* "-o -" is the document on standard output (JSON unless --format says otherwise);
	 * otherwise the report goes there, unless -q. */
	bool doc_to_stdout = o->output && strcmp(o->output, "-") == 0;
	if (doc_to_stdout)
		write_report(stdout, o->format_set ? o->format : CB_FMT_JSON, doc, &inf, S);
	else if (!o->quiet || o->format_set)
		write_report(stdout, o->format_set ? o->format : CB_FMT_TEXT, doc, &inf, S);
	rc = strict_status(o, doc, &inf);
	json_decref(doc);
	return rc;
}

static int write_output(const options *o, cb_format fmt, json_t *doc, const cb_inference *inf, unsigned S)
{
	cb_outfile out;
	if (!cb_outfile_open(&out, o->output, o->force))
		return CB_EXIT_USAGE;
	if (!write_report(out.fp, fmt, doc, inf, S)) {
		cb_err("write error");
		cb_outfile_abort(&out);
		return CB_EXIT_RUNTIME;
	}
	return cb_outfile_commit(&out) ? CB_EXIT_OK : CB_EXIT_RUNTIME;
}

/* The text form of a plan: how many experiments of each kind per element size. */
static void plan_summary(FILE *f, json_t *doc, const cb_plan_opts *po)
{
	static const char *const kinds[] = { "stride", "two_address", "pair_reference", "lane_pair",
					     "pool", "random" };
	json_t *ms = json_object_get(doc, "measurements"), *m;
	fprintf(f, "Plan: %zu experiments for sub-groups of %u lanes, seed %lu, local memory up to "
		"%lu B%s\n\n", json_array_size(ms), po->subgroup, (unsigned long)po->seed,
		po->local_mem_budget, po->quick ? ", quick" : "");
	fprintf(f, "%-16s", "kind");
	for (int e = 0; e < CB_NELEM; e++)
		fprintf(f, "%6u B", cb_elem_sizes[e]);
	fputc('\n', f);
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
		fprintf(f, "%-16s", kinds[k]);
		for (int e = 0; e < CB_NELEM; e++) {
			size_t i, n = 0;
			json_array_foreach(ms, i, m)
				n += strcmp(json_string_value(json_object_get(m, "kind")), kinds[k]) == 0 &&
				     json_integer_value(json_object_get(m, "elem_bytes")) == cb_elem_sizes[e];
			fprintf(f, "%8zu", n);
		}
		fputc('\n', f);
	}
	fputs("\nRandom tables are kept out of the fit and validate the inferred model.\n", f);
}

static int cmd_plan(const options *o)
{
	if (o->nargs > 0) {
		cb_err("unexpected argument '%s'", o->args[0]);
		return CB_EXIT_USAGE;
	}
	cb_plan_opts po = { .subgroup = o->subgroup ? (unsigned)o->subgroup : 32, .seed = o->seed,
			    .local_mem_budget = CB_PLAN_DEFAULT_LOCAL_MEM, .quick = o->quick };
	json_t *doc = cb_plan_make(&po);
	if (!doc)
		return CB_EXIT_USAGE;
	cb_format fmt = o->format_set ? o->format : format_for_path(o->output, CB_FMT_JSON);
	int rc;
	if (fmt == CB_FMT_TEXT) {
		cb_outfile out;
		if (!cb_outfile_open(&out, o->output, o->force)) {
			json_decref(doc);
			return CB_EXIT_USAGE;
		}
		plan_summary(out.fp, doc, &po);
		rc = cb_outfile_commit(&out) ? CB_EXIT_OK : CB_EXIT_RUNTIME;
	} else {
		rc = write_output(o, fmt, doc, NULL, po.subgroup);
	}
	json_decref(doc);
	return rc;
}

static int cmd_analyze(const options *o)
{
	if (o->nargs != 1) {
		cb_err(o->nargs ? "analyze takes one result document" : "analyze needs a result document");
		fputs("Usage: clbanks analyze FILE [--format text|json|csv] [-o OUT]\n", stderr);
		return CB_EXIT_USAGE;
	}
	json_t *doc = cb_doc_load(o->args[0], true);
	if (!doc)
		return CB_EXIT_USAGE;
	cb_inference inf;
	unsigned S;
	analyze_doc(doc, &inf, &S);
	cb_format fmt = o->format_set ? o->format : format_for_path(o->output, CB_FMT_TEXT);
	int rc = write_output(o, fmt, doc, &inf, S);
	if (rc == CB_EXIT_OK)
		rc = strict_status(o, doc, &inf);
	json_decref(doc);
	return rc;
}

static int cmd_predict(const options *o)
{
	if (o->nargs > 0) {
		cb_err("unexpected argument '%s'", o->args[0]);
		return CB_EXIT_USAGE;
	}
	if (!o->model || !o->elem_bytes || !o->lanes) {
		cb_err("predict needs --model FILE, --elem-bytes E and --lanes A,B,...");
		return CB_EXIT_USAGE;
	}
	json_t *doc = cb_doc_load(o->model, false);
	if (!doc)
		return CB_EXIT_USAGE;
	unsigned S = (unsigned)json_integer_value(json_object_get(json_object_get(doc, "device"),
								   "subgroup_size"));
	cb_geometry g;
	unsigned lpp[CB_NELEM];
	char err[256];
	if (!cb_model_from_json(json_object_get(doc, "inference"), &g, lpp, err, sizeof err)) {
		cb_err("%s: %s", o->model, err);
		json_decref(doc);
		return CB_EXIT_USAGE;
	}
	json_decref(doc);
	int e = cb_elem_index((unsigned)o->elem_bytes);
	if (!lpp[e]) {
		cb_err("%s: the model has no lanes per pass for %lu-byte elements (not measured)",
		       o->model, o->elem_bytes);
		return CB_EXIT_USAGE;
	}
	uint32_t *lanes = cb_xmalloc(CB_MAX_LANES * sizeof *lanes);
	unsigned n = 0;
	const char *p = o->lanes;
	while (*p) {
		char buf[32];
		size_t len = strcspn(p, ",");
		unsigned long v;
		if (len == 0 || len >= sizeof buf || n >= CB_MAX_LANES) {
			free(lanes);
			return bad_value("--lanes", o->lanes, "expected comma-separated byte offsets");
		}
		memcpy(buf, p, len);
		buf[len] = '\0';
		if (!cb_parse_ulong(buf, 0, 0x7fffffffUL, &v)) {
			free(lanes);
			return bad_value("--lanes", buf, "a lane offset must be a non-negative integer");
		}
		lanes[n++] = (uint32_t)v;
		p += len;
		if (*p == ',' && !*++p) {
			free(lanes);
			return bad_value("--lanes", o->lanes, "trailing comma");
		}
	}
	if (n != S) {
		cb_err("--lanes has %u offsets; the model's sub-group has %u lanes", n, S);
		free(lanes);
		return CB_EXIT_USAGE;
	}
	unsigned passes = cb_passes(&g, lpp[e], (unsigned)o->elem_bytes, lanes, n);
	free(lanes);
	if (o->format_set && o->format == CB_FMT_JSON)
		printf("{\"elem_bytes\": %lu, \"passes\": %u, \"lanes_per_pass\": %u}\n", o->elem_bytes,
		       passes, lpp[e]);
	else if (o->format_set && o->format == CB_FMT_CSV)
		printf("elem_bytes,passes,lanes_per_pass\r\n%lu,%u,%u\r\n", o->elem_bytes, passes, lpp[e]);
	else
		printf("%u\n", passes);
	return CB_EXIT_OK;
}

int cb_main(int argc, char **argv)
{
	options o;
	int rc = parse(argc, argv, &o);
	if (rc >= 0) {
		free(o.command_line);
		return rc;
	}
	cb_signals_install();
	switch (o.cmd) {
	case CMD_RUN: rc = cmd_run(&o); break;
	case CMD_PLAN: rc = cmd_plan(&o); break;
	case CMD_ANALYZE: rc = cmd_analyze(&o); break;
	case CMD_PREDICT: rc = cmd_predict(&o); break;
	case CMD_COMPARE: rc = cb_compare_main(o.args, o.nargs, o.format_set ? o.format : CB_FMT_TEXT,
					       o.output, o.force); break;
	case CMD_PLOT: rc = cb_plot_main(o.args, o.nargs, o.output, o.force); break;
	default: rc = CB_EXIT_USAGE; break;
	}
	free(o.command_line);
	return rc;
}
