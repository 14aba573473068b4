// SPDX-License-Identifier: GPL-2.0
/*
 * Typed values of job parameters, parsed in one place (kdelta-job(5),
 * "Types").  Every parser takes the whole string: no leading or trailing
 * blanks, no trailing garbage.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kdelta/schema.h"
#include "kdelta/strbuf.h"
#include "kdelta/util.h"

/* Length of the run of decimal digits at s. */
static size_t digits(const char *s)
{
	size_t n = 0;

	while (isdigit((unsigned char)s[n]))
		n++;
	return n;
}

static int size_unit_shift(const char *unit, unsigned *shift)
{
	static const char units[] = "kmgt";
	const char *u;

	if (!*unit || !strcmp(unit, "B")) {
		*shift = 0;
		return 0;
	}
	u = strchr(units, tolower((unsigned char)unit[0]));
	if (!u)
		return -1;
	/* 4k, 4K, 4KB, 4KiB: all 4096 bytes. */
	if (unit[1] && strcmp(unit + 1, "B") && strcmp(unit + 1, "iB"))
		return -1;
	*shift = 10 * (unsigned)(u - units + 1);
	return 0;
}

int parse_size(const char *s, uint64_t *out, struct kd_err *err)
{
	size_t n = digits(s);
	uint64_t value = 0;
	unsigned shift;

	if (s[0] == '-' && isdigit((unsigned char)s[1]))
		return kd_error(err, "size '%s' is negative", s);
	if (!n || size_unit_shift(s + n, &shift))
		return kd_error(err, "expected a size like 512, 4k, 64M or 1G, got '%s'", s);
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (value > (UINT64_MAX - d) / 10)
			goto too_large;
		value = value * 10 + d;
	}
	if (shift && value > (UINT64_MAX >> shift))
		goto too_large;
	*out = value << shift;
	return 0;
too_large:
	return kd_error(err, "size '%s' is too large (at most 2^64 - 1 bytes)", s);
}

int parse_duration(const char *s, double *out, struct kd_err *err)
{
	static const struct { const char *suffix; double seconds; } units[] = {
		{ "", 1 }, { "s", 1 }, { "ms", 0.001 }, { "m", 60 }, { "h", 3600 },
	};
	size_t n = digits(s);
	double value;

	if (s[0] == '-' && isdigit((unsigned char)s[1]))
		return kd_error(err, "duration '%s' is negative", s);
	if (n && s[n] == '.' && isdigit((unsigned char)s[n + 1]))
		n += 1 + digits(s + n + 1);
	for (size_t i = 0; n && i < ARRAY_SIZE(units); i++) {
		if (strcmp(s + n, units[i].suffix))
			continue;
		value = strtod(s, NULL) * units[i].seconds;
		if (!isfinite(value) || value > 1e12)
			return kd_error(err, "duration '%s' is too long", s);
		*out = value;
		return 0;
	}
	return kd_error(err, "expected a duration like 10, 300s, 5m, 1h or 0.5s, got '%s'", s);
}

int parse_bool(const char *s, bool *out, struct kd_err *err)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return kd_error(err, "expected true or false, got '%s'", s);
}

int parse_int(const char *s, int64_t *out, struct kd_err *err)
{
	const char *p = s + (s[0] == '-');
	long long value;

	if (!digits(p) || p[digits(p)])
		return kd_error(err, "expected an integer, got '%s'", s);
	errno = 0;
	value = strtoll(s, NULL, 10);
	if (errno == ERANGE)
		return kd_error(err, "integer '%s' is out of range", s);
	*out = value;
	return 0;
}

int parse_percent(const char *s, double *out, struct kd_err *err)
{
	const char *p = s + (s[0] == '-');
	size_t n = digits(p);

	if (n && p[n] == '.' && isdigit((unsigned char)p[n + 1]))
		n += 1 + digits(p + n + 1);
	if (!n || (p[n] && strcmp(p + n, "%")) || n > 32)
		return kd_error(err, "expected a percentage like 1, 2.5 or 10%%, got '%s'",
				s);
	*out = strtod(s, NULL);
	return 0;
}

/* A misspelt choice this long or longer gets a "did you mean". */
#define CHOICE_HINT_MIN_LENGTH 5

static int check_choice(const struct param_spec *spec, const char *value,
			struct kd_err *err)
{
	struct strbuf sb = STRBUF_INIT, hint = STRBUF_INIT;
	struct nearest near = NEAREST_INIT(value);

	for (size_t i = 0; spec->choices && spec->choices[i]; i++)
		if (!strcmp(spec->choices[i], value))
			return 0;
	for (size_t i = 0; spec->choices && spec->choices[i]; i++) {
		strbuf_addf(&sb, "%s%s", i ? ", " : "", spec->choices[i]);
		nearest_offer(&near, spec->choices[i]);
	}
	/*
	 * Not for short names, which are often other things' ("zfs" and
	 * "f2fs" are no misspelt "xfs"): a test's name ("creat_clo").
	 */
	if (near.best && strlen(value) >= CHOICE_HINT_MIN_LENGTH)
		strbuf_addf(&hint, "; did you mean '%s'?", near.best);
	if (spec->choice_not_built_in)
		kd_error(err, "'%s' is not built into kdelta, which has %s%s",
			 value, sb.buf, hint.buf);
	else if (spec->choices_are)
		kd_error(err, "'%s' is not one of the %s: %s%s", value,
			 spec->choices_are, sb.buf, hint.buf);
	else
		kd_error(err, "expected one of %s, got '%s'%s", sb.buf, value,
			 hint.buf);
	strbuf_release(&sb);
	strbuf_release(&hint);
	return -1;
}

/*
 * A number of a bounded type as a long double, which holds every int64_t,
 * uint64_t and double exactly; -1 when s does not parse.
 */
static int bounded_value(enum param_type type, const char *s, long double *out)
{
	union { uint64_t size; double real; int64_t i; } v;

	switch (type) {
	case PARAM_INT:
		if (parse_int(s, &v.i, NULL))
			return -1;
		*out = v.i;
		return 0;
	case PARAM_SIZE:
		if (parse_size(s, &v.size, NULL))
			return -1;
		*out = v.size;
		return 0;
	case PARAM_DURATION:
		if (parse_duration(s, &v.real, NULL))
			return -1;
		*out = v.real;
		return 0;
	case PARAM_PERCENT:
		if (parse_percent(s, &v.real, NULL))
			return -1;
		*out = v.real;
		return 0;
	default:
		return -1;
	}
}

/* The declared bounds; a bound that does not parse is not checked. */
static int check_bounds(const struct param_spec *spec, const char *value,
			struct kd_err *err)
{
	long double x, bound;

	if ((!spec->min && !spec->max) || bounded_value(spec->type, value, &x))
		return 0;
	if (spec->min && !bounded_value(spec->type, spec->min, &bound) &&
	    x < bound)
		return kd_error(err, "expected at least %s, got '%s'",
				spec->min, value);
	if (spec->max && !bounded_value(spec->type, spec->max, &bound) &&
	    x > bound)
		return kd_error(err, "expected at most %s, got '%s'",
				spec->max, value);
	return 0;
}

static int check_type(const struct param_spec *spec, const char *value,
		      struct kd_err *err)
{
	union { uint64_t size; double real; bool yes; int64_t i; } v;

	switch (spec->type) {
	case PARAM_STRING:
		return 0;
	case PARAM_INT:
		return parse_int(value, &v.i, err);
	case PARAM_SIZE:
		return parse_size(value, &v.size, err);
	case PARAM_DURATION:
		return parse_duration(value, &v.real, err);
	case PARAM_PERCENT:
		return parse_percent(value, &v.real, err);
	case PARAM_BOOL:
		return parse_bool(value, &v.yes, err);
	case PARAM_CHOICE:
		return check_choice(spec, value, err);
	case PARAM_LIST:
		return kd_error(err, "expected a list, got '%s'", value);
	case PARAM_MAP:
		return kd_error(err, "expected a mapping, got '%s'", value);
	}
	return kd_error(err, "unknown parameter type %d", (int)spec->type);
}

int param_check(const struct param_spec *spec, const char *value,
		struct kd_err *err)
{
	if (check_type(spec, value, err) || check_bounds(spec, value, err))
		return -1;
	return spec->check ? spec->check(value, err) : 0;
}

int param_number(const struct param_spec *spec, const char *value,
		 double *out, struct kd_err *err)
{
	long double x;

	if (param_check(spec, value, err) < 0)
		return -1;
	if (bounded_value(spec->type, value, &x) < 0)
		return kd_error(err, "'%s' is not a number of a %s", value,
				param_type_name(spec->type));
	*out = (double)x;
	return 0;
}

const char *param_type_name(enum param_type type)
{
	static const char *const names[] = {
		[PARAM_STRING] = "string",
		[PARAM_INT] = "integer",
		[PARAM_SIZE] = "size",
		[PARAM_DURATION] = "duration",
		[PARAM_BOOL] = "boolean",
		[PARAM_CHOICE] = "choice",
		[PARAM_LIST] = "list",
		[PARAM_MAP] = "mapping",
		[PARAM_PERCENT] = "percentage",
	};

	if ((size_t)type < ARRAY_SIZE(names) && names[type])
		return names[type];
	return "unknown";
}

const struct param_spec *param_find(const struct param_spec *params,
				    const char *name)
{
	for (size_t i = 0; params && params[i].name; i++)
		if (!strcmp(params[i].name, name))
			return &params[i];
	return NULL;
}
