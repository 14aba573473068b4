// SPDX-License-Identifier: GPL-2.0
/*
 * The standalone driver of a fuzz target: runs LLVMFuzzerTestOneInput() on
 * each file given, and on each file below each directory given (in name
 * order), so that every build -- gcc's too, with or without sanitizers --
 * replays the seed corpus and the crash reproducers as a test.
 *
 *   replay-<target> FILE|DIR...
 *
 * A failing property aborts; a sanitizer reports and exits.  Exit status 0
 * when every input passed, 1 when a directory given is a corpus that lacks
 * what fuzz_replay_done() wants, 2 for a file that cannot be read or when
 * no input was found.
 */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "kdelta/util.h"

static int replay_file(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	FILE *f = fopen(path, "rb");
	char buf[65536];
	size_t n;
	char *copy;

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	n = sb.len;
	if (ferror(f)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		fclose(f);
		strbuf_release(&sb);
		return -1;
	}
	fclose(f);
	/* As libFuzzer does: the input in a buffer of exactly its size. */
	copy = fuzz_memdup(sb.buf, n);
	strbuf_release(&sb);
	/* Named first, so that a crash says which input it was. */
	fprintf(stderr, "replay: %s\n", path);
	LLVMFuzzerTestOneInput((const uint8_t *)copy, n);
	free(copy);
	return 0;
}

static int skip_entry(const struct dirent *de)
{
	return de->d_name[0] != '.';
}

/* Every file below path, in name order; returns the count, or -1. */
static long replay_path(const char *path)
{
	struct dirent **names;
	struct stat st;
	long count = 0;
	int n;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path) < 0 ? -1 : 1;
	n = scandir(path, &names, skip_entry, alphasort);
	if (n < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char *sub = xasprintf("%s/%s", path, names[i]->d_name);
		long got = count >= 0 ? replay_path(sub) : 0;

		count = got < 0 ? -1 : count + got;
		free(sub);
		free(names[i]);
	}
	free(names);
	return count;
}

int main(int argc, char **argv)
{
	long total = 0;
	bool corpus = false;
	struct stat st;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc && total >= 0; i++) {
		long got = replay_path(argv[i]);

		total = got < 0 ? -1 : total + got;
		corpus |= !stat(argv[i], &st) && S_ISDIR(st.st_mode);
	}
	if (total < 0)
		return 2;
	if (!total) {
		fprintf(stderr, "replay: no input found\n");
		return 2;
	}
	if (corpus && fuzz_replay_done && fuzz_replay_done() < 0)
		return 1;
	printf("replay: %ld inputs passed\n", total);
	return 0;
}
