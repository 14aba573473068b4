/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_NAME_INDEX_H
#define KDELTA_NAME_INDEX_H

#include <stddef.h>
#include <stdint.h>

/*
 * A string -> index hash table over an array of names that the caller
 * keeps (open addressing, linear probing, at most half full): for unions
 * of metric names, duplicate keys or stacks, tens of thousands of names,
 * where a linear search per name would make the whole quadratic.  Each
 * slot keeps its name's hash, so growing rehashes no string and a probe
 * compares strings only when the hashes agree.  The table holds indexes
 * only; the array may move (realloc) between calls, which is why each
 * call takes it.
 */
struct name_index_slot {
	size_t index;		/* index + 1; 0: empty */
	uint64_t hash;
};

struct name_index {
	struct name_index_slot *slots;
	size_t mask;
	size_t count;
};

void name_index_init(struct name_index *ix);
/*
 * The index of name in names, or (size_t)-1 when absent; *hash is set
 * for name_index_add().
 */
size_t name_index_find(const struct name_index *ix, char *const *names,
		       const char *name, uint64_t *hash);
/*
 * Records that names[index] (just stored by the caller) is its name;
 * hash is what name_index_find() set for it.
 */
void name_index_add(struct name_index *ix, char *const *names, size_t index,
		    uint64_t hash);
void name_index_release(struct name_index *ix);

#endif
