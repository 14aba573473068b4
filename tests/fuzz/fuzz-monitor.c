// SPDX-License-Identifier: GPL-2.0
/*
 * Every monitor's extract(): the raw file's text as kdelta stats reads it.
 * The input is the monitor's name, a newline, then the raw text:
 *
 *   proc-vmstat
 *   time: 1796001600.000000
 *   nr_free_pages 123
 *   ...
 *
 * so that a monitor added to the registry is fuzzed without a change here:
 * give it a seed testdata/fuzz/monitor/corpus/seed-<name>, which the
 * replay test insists on (every registered monitor has one).  An input
 * naming no monitor goes to the monitor its first byte picks.
 *
 * Properties: extract() returns 0 or -1, with a message when -1; every
 * metric it adds is "<name>.<something>" and a finite number.  Raw text
 * with a NUL byte is skipped: run_dir_extract() refuses it before
 * extract() sees it.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "kdelta/monitor.h"
#include "kdelta/util.h"

/* Which monitors inputs named, for fuzz_replay_done(). */
static bool named[64];

static const struct monitor *pick(const char *data, size_t size,
				  size_t *skip)
{
	const char *nl = memchr(data, '\n', size);
	size_t n = 0;

	while (monitor_registry[n])
		n++;
	for (size_t i = 0; nl && i < n; i++) {
		const char *name = monitor_registry[i]->section.name;

		if (strlen(name) == (size_t)(nl - data) &&
		    !memcmp(name, data, (size_t)(nl - data))) {
			*skip = (size_t)(nl - data) + 1;
			if (i < ARRAY_SIZE(named))
				named[i] = true;
			return monitor_registry[i];
		}
	}
	*skip = size ? 1 : 0;
	return monitor_registry[size ? (unsigned char)data[0] % n : 0];
}

int fuzz_replay_done(void)
{
	int missing = 0;

	for (size_t i = 0; monitor_registry[i]; i++)
		if (i >= ARRAY_SIZE(named) || !named[i]) {
			fprintf(stderr, "replay: monitor '%s' has no seed: add testdata/fuzz/monitor/corpus/seed-%s: its name on the first line, then a raw file (tests/fuzz/make-seeds.py)\n",
				monitor_registry[i]->section.name,
				monitor_registry[i]->section.name);
			missing++;
		}
	return missing ? -1 : 0;
}

static void check_stats(const struct monitor *m, json_t *stats)
{
	size_t plen = strlen(m->section.name);
	const char *key;
	json_t *value;

	json_object_foreach(stats, key, value) {
		FUZZ_CHECK(!strncmp(key, m->section.name, plen) &&
			   key[plen] == '.' && key[plen + 1],
			   "%s: metric '%s' outside its name space",
			   m->section.name, key);
		FUZZ_CHECK(json_is_number(value) &&
			   isfinite(json_number_value(value)),
			   "%s: metric '%s' is not a finite number",
			   m->section.name, key);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t skip;
	const struct monitor *m = pick((const char *)data, size, &skip);
	size_t len = size - skip;
	/* As extract() is called: NULL when empty, never with a NUL. */
	char *raw = len ? fuzz_memdup(data + skip, len) : NULL;
	json_t *stats;
	struct kd_err err = { .msg = "" };
	int rc;

	if (memchr(data + skip, '\0', len)) {
		free(raw);
		return 0;
	}
	stats = json_object();
	rc = monitor_extract(m, raw, len, stats, &err);

	FUZZ_CHECK(rc == 0 || rc == -1, "%s: extract() returned %d",
		   m->section.name, rc);
	if (rc < 0)
		FUZZ_CHECK(err.msg[0], "%s: extract() failed without a message",
			   m->section.name);
	else
		check_stats(m, stats);
	json_decref(stats);
	free(raw);
	return 0;
}
