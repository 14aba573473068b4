// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kdelta/err.h"

/*
 * Messages are one line: a label, a file name, a line of a file or a
 * command's output quoted in them cannot break it (make_printable()), and
 * a line break they end with is dropped.
 */
static void one_line(char *msg)
{
	size_t len = strlen(msg);

	while (len && (msg[len - 1] == '\n' || msg[len - 1] == '\r'))
		msg[--len] = '\0';
	make_printable(msg);
}

int kd_error(struct kd_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	one_line(err->msg);
	err->status = 0;
	return -1;
}

int kd_err_kind(struct kd_err *err, int status)
{
	if (err)
		err->status = status;
	return -1;
}

int kd_error_prefix(struct kd_err *err, const char *fmt, ...)
{
	char prefix[sizeof(err->msg)];
	char old[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	/* A message that no longer fits loses its end: checked, and fine. */
	if (snprintf(err->msg, sizeof(err->msg), "%s: %s", prefix, old) < 0)
		err->msg[0] = '\0';
	one_line(err->msg);
	return -1;
}

void make_printable(char *s)
{
	for (; *s; s++)
		*s = printable_char(*s);
}
