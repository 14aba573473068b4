// SPDX-License-Identifier: GPL-2.0
/*
 * The value tree of a job (struct jnode): construction, lookup, typed
 * getters, and emitting a job back as YAML.
 */
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "job-internal.h"
#include "kdelta/job.h"
#include "kdelta/util.h"

static struct jnode *jnode_new(enum jnode_kind kind)
{
	struct jnode *node = xcalloc(1, sizeof(*node));

	node->kind = kind;
	return node;
}

struct jnode *jnode_new_scalar(const char *value)
{
	struct jnode *node = jnode_new(JNODE_SCALAR);

	node->scalar = xstrdup(value);
	return node;
}

struct jnode *jnode_new_map(void)
{
	return jnode_new(JNODE_MAP);
}

struct jnode *jnode_new_list(void)
{
	return jnode_new(JNODE_LIST);
}

void jnode_free(struct jnode *node)
{
	if (!node)
		return;
	for (size_t i = 0; i < node->n; i++) {
		if (node->keys)
			free(node->keys[i]);
		jnode_free(node->values[i]);
	}
	free(node->keys);
	free(node->key_marks);
	free(node->values);
	free(node->scalar);
	free(node);
}

/* Appends without looking for the key: for the loader and for lists. */
void jnode_append(struct jnode *node, const char *key, int line, int col,
		  struct jnode *value)
{
	/* Doubling: an lkp-tests record has tens of thousands of keys. */
	if (node->n + 1 > node->alloc) {
		node->alloc = node->n < 4 ? 8 : 2 * node->n;
		node->values = xreallocarray(node->values, node->alloc,
					     sizeof(*node->values));
		if (node->kind == JNODE_MAP) {
			node->keys = xreallocarray(node->keys, node->alloc,
						   sizeof(*node->keys));
			node->key_marks = xreallocarray(node->key_marks,
							node->alloc,
							sizeof(*node->key_marks));
		}
	}
	if (node->kind == JNODE_MAP) {
		node->keys[node->n] = xstrdup(key);
		node->key_marks[node->n] = (struct jnode_mark){ line, col, 0 };
	}
	node->values[node->n++] = value;
}

void jnode_append_mark(struct jnode *node, const char *key,
		       const struct jnode_mark *mark, struct jnode *value)
{
	jnode_append(node, key, mark->line, mark->col, value);
	if (node->kind == JNODE_MAP)
		node->key_marks[node->n - 1].file = mark->file;
}

struct jnode *jnode_clone(const struct jnode *node)
{
	struct jnode *copy = jnode_new(node->kind);

	static const struct jnode_mark none;

	copy->line = node->line;
	copy->col = node->col;
	copy->file = node->file;
	copy->expr = node->expr;
	if (node->scalar)
		copy->scalar = xstrdup(node->scalar);
	for (size_t i = 0; i < node->n; i++)
		jnode_append_mark(copy, node->keys ? node->keys[i] : NULL,
				  node->key_marks ? &node->key_marks[i] : &none,
				  jnode_clone(node->values[i]));
	return copy;
}

/* What malloc() adds to each block, about. */
#define MALLOC_OVERHEAD 16

size_t jnode_footprint(const struct jnode *node)
{
	size_t bytes = sizeof(*node) + MALLOC_OVERHEAD;

	if (node->scalar)
		bytes += strlen(node->scalar) + 1 + MALLOC_OVERHEAD;
	for (size_t i = 0; i < node->n; i++) {
		bytes += sizeof(*node->values) + jnode_footprint(node->values[i]);
		if (node->keys)
			bytes += sizeof(*node->keys) + sizeof(*node->key_marks) +
				 strlen(node->keys[i]) + 1 + MALLOC_OVERHEAD;
	}
	return bytes;
}

ssize_t jnode_index(const struct jnode *map, const char *key)
{
	if (!map || map->kind != JNODE_MAP)
		return -1;
	for (size_t i = 0; i < map->n; i++)
		if (!strcmp(map->keys[i], key))
			return (ssize_t)i;
	return -1;
}

void jnode_set(struct jnode *map, const char *key, struct jnode *value)
{
	ssize_t i = jnode_index(map, key);

	if (i < 0) {
		jnode_append(map, key, 0, 0, value);
		return;
	}
	jnode_free(map->values[i]);
	map->values[i] = value;
}

const struct jnode *jnode_get(const struct jnode *map, const char *key)
{
	ssize_t i = jnode_index(map, key);

	return i < 0 ? NULL : map->values[i];
}

const char *jnode_str(const struct jnode *map, const char *key)
{
	const struct jnode *node = jnode_get(map, key);

	return node && node->kind == JNODE_SCALAR ? node->scalar : NULL;
}

/*
 * jnode_int(), jnode_size(), jnode_duration(), jnode_bool(): the scalar at
 * key read by its parse_*() of kdelta/schema.h, 0 (false) when it is
 * absent or does not read.
 */
#define JNODE_TYPED(name, type, parse)					\
	type jnode_##name(const struct jnode *map, const char *key)	\
	{								\
		const char *s = jnode_str(map, key);			\
		type value = 0;						\
									\
		if (s && parse(s, &value, NULL))			\
			value = 0;					\
		return value;						\
	}

JNODE_TYPED(int, int64_t, parse_int)
JNODE_TYPED(size, uint64_t, parse_size)
JNODE_TYPED(duration, double, parse_duration)
JNODE_TYPED(bool, bool, parse_bool)

static int emit_to_strbuf(void *data, unsigned char *buffer, size_t size)
{
	strbuf_add(data, buffer, size);
	return 1;
}

/*
 * A string of several lines (a script, say) is asked for as a literal
 * block, which a reader reads line by line; libyaml picks the style of any
 * other string, and double-quotes a block it cannot write as one (keys,
 * trailing blanks, control characters).
 */
static void emit_scalar(yaml_emitter_t *emitter, const char *s)
{
	yaml_event_t event;

	yaml_scalar_event_initialize(&event, NULL, NULL,
				     (yaml_char_t *)s, (int)strlen(s), 1, 1,
				     strchr(s, '\n') ? YAML_LITERAL_SCALAR_STYLE
						     : YAML_ANY_SCALAR_STYLE);
	yaml_emitter_emit(emitter, &event);
}

static void emit_node(yaml_emitter_t *emitter, const struct jnode *node)
{
	yaml_event_t event;

	switch (node->kind) {
	case JNODE_SCALAR:
		emit_scalar(emitter, node->scalar);
		return;
	case JNODE_MAP:
		yaml_mapping_start_event_initialize(&event, NULL, NULL, 1,
			node->n ? YAML_BLOCK_MAPPING_STYLE : YAML_FLOW_MAPPING_STYLE);
		yaml_emitter_emit(emitter, &event);
		for (size_t i = 0; i < node->n; i++) {
			emit_scalar(emitter, node->keys[i]);
			emit_node(emitter, node->values[i]);
		}
		yaml_mapping_end_event_initialize(&event);
		break;
	case JNODE_LIST:
		yaml_sequence_start_event_initialize(&event, NULL, NULL, 1,
			node->n ? YAML_BLOCK_SEQUENCE_STYLE : YAML_FLOW_SEQUENCE_STYLE);
		yaml_emitter_emit(emitter, &event);
		for (size_t i = 0; i < node->n; i++)
			emit_node(emitter, node->values[i]);
		yaml_sequence_end_event_initialize(&event);
		break;
	}
	yaml_emitter_emit(emitter, &event);
}

/*
 * libyaml's emitter does the quoting; it only fails on invalid events or
 * invalid UTF-8, and a validated job has neither.
 */
void job_to_yaml(const struct jnode *root, struct strbuf *out)
{
	yaml_emitter_t emitter;
	yaml_event_t event;

	yaml_emitter_initialize(&emitter);
	yaml_emitter_set_output(&emitter, emit_to_strbuf, out);
	yaml_emitter_set_unicode(&emitter, 1);
	yaml_emitter_set_width(&emitter, -1);
	yaml_stream_start_event_initialize(&event, YAML_UTF8_ENCODING);
	yaml_emitter_emit(&emitter, &event);
	yaml_document_start_event_initialize(&event, NULL, NULL, NULL, 1);
	yaml_emitter_emit(&emitter, &event);
	emit_node(&emitter, root);
	yaml_document_end_event_initialize(&event, 1);
	yaml_emitter_emit(&emitter, &event);
	yaml_stream_end_event_initialize(&event);
	yaml_emitter_emit(&emitter, &event);
	yaml_emitter_flush(&emitter);
	yaml_emitter_delete(&emitter);
}

bool jnode_is_null(const struct jnode *node)
{
	return node->kind == JNODE_SCALAR &&
	       (!*node->scalar || !strcmp(node->scalar, "~") ||
		!strcmp(node->scalar, "null"));
}

/* Every module of the loader names files by it: here, below them all. */
const char *job_file_of(const struct job_loader *ld, int file)
{
	if (file > 0 && (size_t)file < ld->nfiles)
		return ld->files[file];
	return ld->name;
}
