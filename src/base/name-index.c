// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "kdelta/name-index.h"
#include "kdelta/util.h"

/* Eight bytes a step: names are looked up several times per comparison. */
static uint64_t name_hash(const char *s)
{
	size_t len = strlen(s);
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ h >> 29;
}

void name_index_init(struct name_index *ix)
{
	ix->mask = 1023;
	ix->count = 0;
	ix->slots = xcalloc(ix->mask + 1, sizeof(*ix->slots));
}

static struct name_index_slot *name_index_slot(const struct name_index *ix,
					       char *const *names,
					       const char *name, uint64_t hash)
{
	size_t i = hash & ix->mask;

	while (ix->slots[i].index &&
	       (ix->slots[i].hash != hash ||
		strcmp(names[ix->slots[i].index - 1], name)))
		i = (i + 1) & ix->mask;
	return &ix->slots[i];
}

static void name_index_grow(struct name_index *ix)
{
	struct name_index_slot *old = ix->slots;
	size_t old_size = ix->mask + 1;

	ix->mask = ix->mask * 2 + 1;
	ix->slots = xcalloc(ix->mask + 1, sizeof(*ix->slots));
	for (size_t i = 0; i < old_size; i++) {
		size_t j = old[i].hash & ix->mask;

		if (!old[i].index)
			continue;
		while (ix->slots[j].index)
			j = (j + 1) & ix->mask;
		ix->slots[j] = old[i];
	}
	free(old);
}

size_t name_index_find(const struct name_index *ix, char *const *names,
		       const char *name, uint64_t *hash)
{
	*hash = name_hash(name);
	return name_index_slot(ix, names, name, *hash)->index - 1;
}

void name_index_add(struct name_index *ix, char *const *names, size_t index,
		    uint64_t hash)
{
	struct name_index_slot *slot;

	if (2 * (ix->count + 1) > ix->mask + 1)
		name_index_grow(ix);
	slot = name_index_slot(ix, names, names[index], hash);
	slot->index = index + 1;
	slot->hash = hash;
	ix->count++;
}

void name_index_release(struct name_index *ix)
{
	free(ix->slots);
	ix->slots = NULL;
}
