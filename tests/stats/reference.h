/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_TESTS_STATS_REFERENCE_H
#define KDELTA_TESTS_STATS_REFERENCE_H

#include <stdlib.h>

#include "kdelta/util.h"

/*
 * "1.5,2,3" of a reference file (testdata/stats/<file>) -> a new array of
 * *n numbers; a bad number ends the test, naming the file.
 */
static inline double *reference_list(const char *file, const char *text,
				     size_t *n)
{
	double *v = NULL;
	size_t alloc = 0;
	char *end;

	*n = 0;
	for (;;) {
		ALLOC_GROW(v, *n + 1, alloc);
		v[(*n)++] = strtod(text, &end);
		if (end == text)
			xdie("%s: bad number at '%s'", file, text);
		if (*end != ',')
			return v;
		text = end + 1;
	}
}

#endif
