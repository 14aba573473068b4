// SPDX-License-Identifier: GPL-2.0
/*
 * What every monitor's code shares (monitor.h): the raw sample file's
 * format, the paths of /proc files (KDELTA_PROC_ROOT), lists of sources.
 * Below the registry and the session, which use the monitors.
 */
#include <stdlib.h>
#include <string.h>

#include "kdelta/monitor.h"
#include "kdelta/util.h"

char *monitor_proc_path(const char *path)
{
	const char *root = getenv("KDELTA_PROC_ROOT");

	return xasprintf("%s%s", root ? root : "", path);
}

/*
 * The epoch of a "time: " line, [p, end): decimal digits, optionally a
 * fraction, as kdelta and LKP write it -- no sign, exponent, hex, "nan" or
 * "inf", which strtod() would take.
 */
static bool parse_epoch(const char *p, const char *end, double *out)
{
	char buf[64];
	size_t len = (size_t)(end - p), dots = 0;

	if (!len || len >= sizeof(buf))
		return false;
	for (size_t i = 0; i < len; i++) {
		bool digit = p[i] >= '0' && p[i] <= '9';
		/* one '.', between digits */
		bool dot = p[i] == '.' && i && i + 1 < len && !dots++;

		if (!digit && !dot)
			return false;
	}
	memcpy(buf, p, len);
	buf[len] = '\0';
	*out = strtod(buf, NULL);
	return true;
}

int raw_next_sample(const char *raw, size_t len, size_t *pos,
		    struct raw_sample *sample, struct kd_err *err)
{
	static const char tag[] = "time: ";
	const char *p, *end, *eol, *next;

	if (*pos >= len)	/* also raw == NULL, len == 0 */
		return 0;
	p = raw + *pos;
	end = raw + len;
	if ((size_t)(end - p) < sizeof(tag) - 1 ||
	    memcmp(p, tag, sizeof(tag) - 1))
		return kd_error(err, "not a raw sample file: expected 'time: <epoch>' at byte %zu",
				*pos);
	eol = memchr(p, '\n', (size_t)(end - p));
	if (!eol)
		eol = end;
	if (!parse_epoch(p + sizeof(tag) - 1, eol, &sample->time))
		return kd_error(err, "bad 'time:' line at byte %zu: expected an epoch like 1764466000.123456",
				*pos);
	sample->text = eol < end ? eol + 1 : end;
	/* The sample ends where a line starts with the next "time: ". */
	for (next = sample->text; next < end;) {
		const char *nl;

		if ((size_t)(end - next) >= sizeof(tag) - 1 &&
		    !memcmp(next, tag, sizeof(tag) - 1))
			break;
		nl = memchr(next, '\n', (size_t)(end - next));
		next = nl ? nl + 1 : end;
	}
	sample->len = (size_t)(next - sample->text);
	*pos = (size_t)(next - raw);
	return 1;
}

void monitor_sources_add(struct monitor_sources *sources, const char *path,
			 const char *label)
{
	struct monitor_source *s;

	ALLOC_GROW(sources->items, sources->n + 1, sources->alloc);
	s = &sources->items[sources->n++];
	s->path = xstrdup(path);
	s->label = label ? xstrdup(label) : NULL;
}

void monitor_sources_release(struct monitor_sources *sources)
{
	for (size_t i = 0; i < sources->n; i++) {
		free(sources->items[i].path);
		free(sources->items[i].label);
	}
	free(sources->items);
	memset(sources, 0, sizeof(*sources));
}
