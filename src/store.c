// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <unistd.h>

#include "kdelta/store.h"
#include "kdelta/util.h"

char *result_root(const char *option)
{
	const char *env = getenv("KDELTA_RESULT_ROOT");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (option && *option)
		return xstrdup(option);
	if (env && *env)
		return xstrdup(env);
	if (geteuid() == 0)
		return xstrdup("/var/lib/kdelta/results");
	if (xdg && *xdg)
		return xasprintf("%s/kdelta/results", xdg);
	return xasprintf("%s/.local/share/kdelta/results",
			 home && *home ? home : ".");
}
