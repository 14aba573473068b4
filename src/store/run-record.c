// SPDX-License-Identifier: GPL-2.0
/*
 * A run's record, job.yaml: the keys the runner adds, and reading one --
 * kdelta's or lkp-tests' -- for its parameters, its machine, its --setup
 * and what disturbed its run (kdelta/run-record.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kdelta/lkp-axes.h"
#include "kdelta/metric-rules.h"
#include "kdelta/name-index.h"
#include "kdelta/key-result.h"
#include "kdelta/run-record.h"
#include "kdelta/util.h"

static const char *const recorded_keys[] = {
	RUN_RECORD_COMMIT, RUN_RECORD_HOST, RUN_RECORD_MACHINE,
	RUN_RECORD_KDELTA,
};

bool run_record_key(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(recorded_keys); i++)
		if (!strcmp(key, recorded_keys[i]))
			return true;
	return false;
}

void run_record_set(struct jnode *record, const char *commit,
		    const char *host, struct jnode *machine,
		    struct jnode *kdelta)
{
	jnode_set(record, RUN_RECORD_COMMIT, jnode_new_scalar(commit));
	jnode_set(record, RUN_RECORD_HOST, jnode_new_scalar(host));
	jnode_set(record, RUN_RECORD_MACHINE, machine);
	jnode_set(record, RUN_RECORD_KDELTA, kdelta);
}

int run_record_load(const char *path, struct jnode **root, struct kd_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = read_file(path, &sb, err);

	*root = NULL;
	if (!ret)
		ret = job_parse_record(sb.buf, sb.len, path, root, err);
	strbuf_release(&sb);
	if (!ret && *root && (*root)->kind != JNODE_MAP) {
		jnode_free(*root);
		*root = NULL;
		ret = kd_error(err, "%s: not a job: expected a mapping of parameters",
			       path);
	}
	return ret;
}

bool run_record_is_kdelta(const struct jnode *root)
{
	return root && jnode_get(root, RUN_RECORD_KDELTA);
}

/* A scalar's text, or NULL. */
static const char *scalar(const struct jnode *node)
{
	return node && node->kind == JNODE_SCALAR ? node->scalar : NULL;
}

/* The non-empty scalar of key in map, or NULL. */
static const char *text_at(const struct jnode *map, const char *key)
{
	const char *s = map && map->kind == JNODE_MAP
				? scalar(jnode_get(map, key)) : NULL;

	return s && *s ? s : NULL;
}

const char *run_record_setup(const struct jnode *root)
{
	return text_at(jnode_get(root, RUN_RECORD_KDELTA), RUN_RECORD_SETUP);
}

static const struct jnode *vm_record(const struct jnode *root)
{
	return jnode_get(jnode_get(root, RUN_RECORD_KDELTA), RUN_RECORD_VM);
}

const char *run_record_vm_timing(const struct jnode *root)
{
	const struct jnode *vm = vm_record(root);
	const char *clock = text_at(vm, "clock"), *accel = text_at(vm, "accel");

	if (clock && !strcmp(clock, "instructions"))
		return RUN_RECORD_TIMING_INSTRUCTIONS;
	if (accel && !strcmp(accel, "tcg"))
		return RUN_RECORD_TIMING_EMULATED;
	return NULL;
}

const char *run_record_vm_boot(const struct jnode *root)
{
	return text_at(vm_record(root), "boot_id");
}

const char *run_record_vm_kernel(const struct jnode *root)
{
	return text_at(vm_record(root), "kernel");
}

char *run_record_machine(const struct jnode *root)
{
	const struct jnode *m = jnode_get(root, RUN_RECORD_MACHINE);
	const char *model = text_at(m, "cpu_model");
	const char *cpus = text_at(m, "nr_cpu");
	const char *memory = text_at(m, "memory_human");
	struct strbuf sb = STRBUF_INIT;

	if (!model && !cpus)
		return NULL;
	if (cpus)
		strbuf_addf(&sb, "%s threads ", cpus);
	strbuf_addstr(&sb, model ? model : "unknown CPU");
	if (memory)
		strbuf_addf(&sb, " with %s memory", memory);
	make_printable(sb.buf);
	return strbuf_detach(&sb);
}

/* ---- what disturbed a run ---------------------------------------- */

static bool number_at(const struct jnode *map, const char *key, double *out)
{
	const char *text = text_at(map, key);
	char *end;

	if (!text)
		return false;
	*out = strtod(text, &end);
	return end != text && !*end && isfinite(*out);
}

static void add_reason(struct strbuf *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_reason(struct strbuf *why, const char *fmt, ...)
{
	va_list ap;

	if (why->len)
		strbuf_addstr(why, "; ");
	va_start(ap, fmt);
	strbuf_vaddf(why, fmt, ap);
	va_end(ap);
}

/* The rule of records from before others_cpu_seconds: load and pressure. */
static void old_disturbance(const struct jnode *root, const struct jnode *k,
			    struct strbuf *why)
{
	static const char *const resources[] = { "cpu", "io", "memory" };
	const struct jnode *pressure = k ? jnode_get(k, RUN_RECORD_PRESSURE)
					 : NULL;
	double cpus, start = 0, end = 0, n;
	bool has_start = number_at(k, RUN_RECORD_LOAD_START, &start);
	bool has_end = number_at(k, RUN_RECORD_LOAD_END, &end);

	if (!number_at(jnode_get(root, RUN_RECORD_MACHINE), "nr_cpu", &cpus) ||
	    cpus < 1)
		cpus = (double)sysconf(_SC_NPROCESSORS_ONLN);
	if ((has_start || has_end) && fmax(start, end) > cpus)
		add_reason(why, "load average %.2f above its %g CPUs",
			   fmax(start, end), cpus);
	for (size_t i = 0; i < ARRAY_SIZE(resources); i++)
		if (pressure && pressure->kind == JNODE_MAP &&
		    number_at(jnode_get(pressure, resources[i]),
			      RUN_RECORD_STALL_PERCENT, &n) &&
		    n >= RUN_DISTURBED_STALL_PERCENT)
			add_reason(why, "%s pressure: tasks stalled %.0f%% of its time",
				   resources[i], n);
}

char *run_record_disturbance(const struct jnode *root)
{
	const struct jnode *k = jnode_get(root, RUN_RECORD_KDELTA);
	struct strbuf why = STRBUF_INIT;
	double seconds, percent, n;

	if (number_at(k, RUN_RECORD_OTHERS_SECONDS, &seconds) &&
	    number_at(k, RUN_RECORD_OTHERS_PERCENT, &percent)) {
		if (seconds >= RUN_DISTURBED_OTHERS_SECONDS &&
		    percent >= RUN_DISTURBED_OTHERS_PERCENT)
			add_reason(&why, "other processes used %.0f%% of a CPU beside it",
				   percent);
	} else {
		old_disturbance(root, k, &why);
	}
	if (number_at(k, RUN_RECORD_CONCURRENT, &n) && n > 0)
		add_reason(&why, "%g other kdelta run%s beside it", n,
			   n == 1 ? "" : "s");
	if (!why.len) {
		strbuf_release(&why);
		return NULL;
	}
	return strbuf_detach(&why);
}

/* ---- the job's parameters ------------------------------------------ */

/*
 * Keys of a record that are not parameters of the comparison: what the
 * runner recorded, what was measured and how often, and which results
 * the job calls key (how to read them, not what ran).
 */
static bool is_parameter(const char *key)
{
	return !run_record_key(key) && strcmp(key, "monitors") &&
	       strcmp(key, "runs") && strcmp(key, KEY_RESULT_KEY);
}

/*
 * One scalar of the job: section is NULL for a top-level one; in_monitor:
 * in a monitor's section, at any depth.
 */
struct flat_param {
	const char *section, *key, *value;
	bool in_monitor;
};

struct flat_params {
	struct flat_param *items;
	size_t n, alloc;
};

static void flat_add(struct flat_params *f, const char *section,
		     const char *key, const char *value, bool in_monitor)
{
	ALLOC_GROW(f->items, f->n + 1, f->alloc);
	f->items[f->n].section = section;
	f->items[f->n].key = key;
	f->items[f->n].value = value;
	f->items[f->n].in_monitor = in_monitor;
	f->n++;
}

/*
 * The deepest section of an lkp-tests job whose scalars count: its
 * programs' options may be anywhere ("if role client: {netperf: {test:
 * SCTP_STREAM}}"); kdelta's jobs have one level of sections.
 */
#define FLAT_MAX_DEPTH 8

/*
 * The scalars of a mapping, and those of the mappings it holds, depth
 * levels down; a scalar's section is the key of the mapping it is in.
 */
static void flatten(const struct jnode *map, const char *section,
		    bool in_monitor, unsigned depth, struct flat_params *f)
{
	for (size_t i = 0; i < map->n; i++) {
		const char *key = map->keys[i];
		const struct jnode *value = map->values[i];

		if (!section && !is_parameter(key))
			continue;
		if (value->kind == JNODE_SCALAR)
			flat_add(f, section, key, value->scalar, in_monitor);
		else if (value->kind == JNODE_MAP && depth)
			flatten(value, key,
				in_monitor || metric_source_is_monitor(NULL, key),
				depth - 1, f);
	}
}

/*
 * For each scalar, how many scalars of the job share its key: tens of
 * thousands of keys in an lkp-tests job.yaml must not take a quadratic
 * search.  shared[i] is the count of item i's key.
 */
static size_t *key_counts(const struct flat_params *f)
{
	char **keys = xcalloc(f->n + 1, sizeof(*keys));
	size_t *first = xcalloc(f->n + 1, sizeof(*first));
	size_t *count = xcalloc(f->n + 1, sizeof(*count));
	size_t *shared = xcalloc(f->n + 1, sizeof(*shared));
	struct name_index ix;
	uint64_t hash;

	for (size_t i = 0; i < f->n; i++)
		keys[i] = (char *)f->items[i].key;
	name_index_init(&ix);
	for (size_t i = 0; i < f->n; i++) {
		first[i] = name_index_find(&ix, keys, keys[i], &hash);
		if (first[i] == (size_t)-1) {
			name_index_add(&ix, keys, i, hash);
			first[i] = i;
		}
		count[first[i]]++;
	}
	for (size_t i = 0; i < f->n; i++)
		shared[i] = count[first[i]];
	name_index_release(&ix);
	free(keys);
	free(first);
	free(count);
	return shared;
}

static int compare_params(const void *a, const void *b)
{
	const struct param *x = a, *y = b;

	return strcmp(x->key, y->key);
}

static void params_from_flat(const struct flat_params *f,
			     struct job_params *out)
{
	size_t *shared = key_counts(f);

	out->items = xcalloc(f->n + 1, sizeof(*out->items));
	for (size_t i = 0; i < f->n; i++) {
		const struct flat_param *p = &f->items[i];

		out->items[i].key = p->section && shared[i] > 1
			? xasprintf("%s.%s", p->section, p->key)
			: xstrdup(p->key);
		out->items[i].value = xstrdup(p->value);
	}
	free(shared);
	out->n = f->n;
	qsort(out->items, out->n, sizeof(*out->items), compare_params);
}

/*
 * The <path_params> of an lkp-tests job: from the result path it records,
 * else from where its results are (rel, below the result root).
 */
static char *job_path_params(const struct jnode *root, const char *rel,
			     const char *testcase)
{
	static const char *const keys[] = { "_rt", "result_root" };
	char *params = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(keys) && !params; i++) {
		const char *path = text_at(root, keys[i]);

		if (path)
			params = lkp_path_params(path, testcase);
	}
	return params || !rel ? params : lkp_path_params(rel, testcase);
}

/*
 * A job lkp-tests scheduled (kdelta's runner adds a "kdelta" key to its
 * own) holds every key of its schedule: keep the axes lkp-tests shows.
 */
static void keep_lkp_axes(const struct jnode *root, const char *rel,
			  struct flat_params *f)
{
	const char *testcase = text_at(root, "testcase");
	char *params = NULL;
	struct lkp_scalar *s;
	size_t kept = 0;

	if (testcase && !run_record_is_kdelta(root))
		params = job_path_params(root, rel, testcase);
	if (!params)
		return;
	s = xcalloc(f->n + 1, sizeof(*s));
	for (size_t i = 0; i < f->n; i++)
		s[i] = (struct lkp_scalar){ .key = f->items[i].key,
					    .value = f->items[i].value,
					    .top = !f->items[i].section,
					    .in_monitor = f->items[i].in_monitor };
	if (lkp_mark_axes(s, f->n, params)) {
		for (size_t i = 0; i < f->n; i++) {
			if (!s[i].keep)
				continue;
			f->items[kept] = f->items[i];
			f->items[kept].value = lkp_axis_value(s[i].key, s[i].value);
			kept++;
		}
		f->n = kept;
	}
	free(s);
	free(params);
}

void run_record_params(const struct jnode *root, const char *rel,
		       struct job_params *out)
{
	struct flat_params f = { NULL, 0, 0 };
	const char *host;

	memset(out, 0, sizeof(*out));
	if (!root)
		return;
	flatten(root, NULL, false,
		run_record_is_kdelta(root) ? 1 : FLAT_MAX_DEPTH, &f);
	keep_lkp_axes(root, rel, &f);
	params_from_flat(&f, out);
	free(f.items);
	if (text_at(root, "testcase"))
		out->testcase = xstrdup(text_at(root, "testcase"));
	host = text_at(root, RUN_RECORD_HOST);
	if (!host)
		host = text_at(root, "testbox");
	if (host)
		out->host = xstrdup(host);
}

const char *job_params_get(const struct job_params *params, const char *key)
{
	for (size_t i = 0; i < params->n; i++)
		if (!strcmp(params->items[i].key, key))
			return params->items[i].value;
	return NULL;
}

void job_params_release(struct job_params *params)
{
	for (size_t i = 0; i < params->n; i++) {
		free(params->items[i].key);
		free(params->items[i].value);
	}
	free(params->items);
	free(params->testcase);
	free(params->host);
	memset(params, 0, sizeof(*params));
}

/* ---- where a run was, what its job declared ---------------------- */

void run_record_place(const struct jnode *root, struct run_place *out)
{
	const struct jnode *k = jnode_get(root, RUN_RECORD_KDELTA);
	double number;

	out->batch = text_at(k, RUN_RECORD_BATCH);
	out->tag = text_at(k, RUN_RECORD_TAG);
	out->round = number_at(k, RUN_RECORD_ROUND, &number) && number >= 0
		     ? (long)number : -1;
	out->start = number_at(k, RUN_RECORD_START, &number) ? number : 0;
}

int run_record_key_results(const struct jnode *root, struct key_results *out,
			   struct kd_err *err)
{
	const struct jnode *map = jnode_get(root, KEY_RESULT_KEY);

	memset(out, 0, sizeof(*out));
	if (!map || (map->kind == JNODE_SCALAR && !*map->scalar))
		return 0;
	return key_results_parse(map, out, err);
}
