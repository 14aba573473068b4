// SPDX-License-Identifier: GPL-2.0
/*
 * YAML text to jnode trees, one per document, with libyaml's event parser.
 *
 * Anchors and aliases are refused outright: LKP job files do not use them,
 * and refusing them is the simplest complete defence against alias bombs
 * ("billion laughs"), which then fail at their first anchor.
 */
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "job-internal.h"
#include "kdelta/util.h"

struct frame {
	struct jnode *node;
	char *key;		/* a map's key waiting for its value */
	int key_line, key_col;
};

/* A '{{ ... }}' of a job file: the bytes from "{{" to after "}}". */
struct expr_span {
	size_t start, end;
};

struct builder {
	const char *name;	/* the file, for messages */
	const char *text;	/* as the file has it */
	bool lkp;		/* job_parse_lkp_documents(): "<<", '{{ }}' */
	/*
	 * job_parse_record(): a job.yaml a run wrote (lkp-tests' have tens of
	 * thousands of keys): no job-file limits on size and keys, no
	 * duplicate check, '{{' is text.
	 */
	bool record;
	int file;		/* jnode.file of every node */
	const struct expr_span *exprs;	/* in text order */
	size_t nexprs;
	struct frame stack[JOB_MAX_DEPTH + 1];
	size_t depth;
	struct jnode *root;
	struct jnode **docs;
	size_t ndocs, alloc;
};

/* Line and column (1-based, in bytes) of offset in text. */
static void position(const char *text, size_t offset, int *line, int *col)
{
	const char *bol = text;

	*line = 1;
	for (size_t i = 0; i < offset; i++) {
		if (text[i] == '\n') {
			(*line)++;
			bol = text + i + 1;
		}
	}
	*col = (int)(text + offset - bol) + 1;
}

/* Job files are UTF-8 text: say so before libyaml says something vaguer. */
static int check_text(const char *text, size_t len, const char *name,
		      struct kd_err *err)
{
	const unsigned char *p = (const unsigned char *)text;
	int line, col;

	for (size_t i = 0; i < len;) {
		size_t n = utf8_sequence_length(p + i, len - i);

		/* memchr(): strchr() finds a NUL byte in any string. */
		if ((p[i] < 0x20 && !memchr("\t\n\r", p[i], 3)) || p[i] == 0x7f) {
			position(text, i, &line, &col);
			return kd_error(err, "%s:%d:%d: binary data (byte 0x%02x), not a YAML job file",
					name, line, col, p[i]);
		}
		if (!n) {
			position(text, i, &line, &col);
			return kd_error(err, "%s:%d:%d: invalid UTF-8 (byte 0x%02x); job files must be UTF-8 text",
					name, line, col, p[i]);
		}
		i += n;
	}
	return 0;
}

/*
 * lkp-tests job files may compute values with embedded Ruby, "{{ ... }}",
 * which YAML reads as a flow mapping opening another one.  Such a value is
 * found among libyaml's tokens, not in the text: "{{" inside a scalar -- a
 * script in a block, a quoted string -- is text.  Its end is the first
 * "}}" after it, as lkp-tests takes it.  A syntax error ends the scan; the
 * parse reports it.  Returns the offset of the first "{{" at or after from,
 * or len.
 */
static size_t next_expression(const char *text, size_t len, size_t from)
{
	yaml_parser_t parser;
	yaml_token_t token;
	size_t open = len, found = len;
	bool after_open = false;

	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	while (found == len && yaml_parser_scan(&parser, &token)) {
		bool end = token.type == YAML_STREAM_END_TOKEN;

		if (token.type == YAML_FLOW_MAPPING_START_TOKEN) {
			if (after_open && token.start_mark.index == open + 1 &&
			    open >= from)
				found = open;
			open = token.start_mark.index;
			after_open = true;
		} else {
			after_open = false;
		}
		yaml_token_delete(&token);
		if (end)
			break;
	}
	yaml_parser_delete(&parser);
	return found;
}

/* The most '{{ }}' in one file: each costs a scan of it. */
#define JOB_MAX_EXPRESSIONS 64

/*
 * Finds the '{{ ... }}' values of a job file and blanks each in text (a
 * copy): "x" where "{{" was, spaces over the rest but the line breaks, so
 * that YAML reads a plain scalar there and every other byte keeps its line
 * and column.  job_parse_documents() refuses them instead.
 */
static int find_expressions(struct builder *b, char *text, size_t len,
			    struct expr_span **spans, struct kd_err *err)
{
	size_t n = 0, at = 0;
	int line, col;

	*spans = NULL;
	while ((at = next_expression(text, len, at)) < len) {
		const char *close = memmem(text + at + 2, len - at - 2, "}}", 2);

		position(text, at, &line, &col);
		if (!b->lkp)
			return kd_error(err, "%s:%d:%d: '{{ ... }}' expressions are for job files only",
					b->name, line, col);
		if (!close)
			return kd_error(err, "%s:%d:%d: '{{' without its '}}'",
					b->name, line, col);
		if (n == JOB_MAX_EXPRESSIONS)
			return kd_error(err, "%s:%d:%d: more than %d '{{ ... }}' expressions in one file",
					b->name, line, col, JOB_MAX_EXPRESSIONS);
		*spans = xreallocarray(*spans, n + 1, sizeof(**spans));
		(*spans)[n++] = (struct expr_span){ at, close + 2 - text };
		for (char *p = text + at; p < close + 2; p++)
			if (*p != '\n')
				*p = p == text + at ? 'x' : ' ';
	}
	b->exprs = *spans;
	b->nexprs = n;
	return 0;
}

/* The expression whose "{{" is at offset, or NULL. */
static const struct expr_span *expression_at(const struct builder *b,
					     size_t offset)
{
	for (size_t i = 0; i < b->nexprs; i++)
		if (b->exprs[i].start == offset)
			return &b->exprs[i];
	return NULL;
}

static int syntax_error(const yaml_parser_t *parser, const char *text,
			const char *name, struct kd_err *err)
{
	int line = (int)parser->problem_mark.line + 1;
	int col = (int)parser->problem_mark.column + 1;
	const char *bol = text;

	if (parser->error == YAML_READER_ERROR)
		return kd_error(err, "%s: %s", name, parser->problem);
	for (int l = 1; l < line && (bol = strchr(bol, '\n')); l++)
		bol++;
	if (parser->error == YAML_SCANNER_ERROR && bol) {
		size_t indent = strspn(bol, " \t");
		const char *tab = memchr(bol, '\t', indent);

		if (tab)
			return kd_error(err, "%s:%d:%d: tab character in indentation; indent with spaces",
					name, line, (int)(tab - bol) + 1);
	}
	if (parser->context)
		return kd_error(err, "%s:%d:%d: YAML syntax error: %s (%s at line %d, column %d)",
				name, line, col, parser->problem, parser->context,
				(int)parser->context_mark.line + 1,
				(int)parser->context_mark.column + 1);
	return kd_error(err, "%s:%d:%d: YAML syntax error: %s", name, line, col,
			parser->problem);
}

static int mark_error(struct builder *b, const yaml_mark_t *mark,
		      struct kd_err *err, const char *what)
{
	return kd_error(err, "%s:%d:%d: %s", b->name, (int)mark->line + 1,
			(int)mark->column + 1, what);
}

/* Attaches a new node to the open map or list, or makes it the root. */
static int attach(struct builder *b, struct jnode *node, struct kd_err *err)
{
	struct frame *top;

	if (!b->depth) {
		b->root = node;
		return 0;
	}
	top = &b->stack[b->depth - 1];
	if (top->node->kind == JNODE_LIST) {
		jnode_append(top->node, NULL, 0, 0, node);
		return 0;
	}
	if (!top->key) {
		int line = node->line, col = node->col;

		jnode_free(node);
		return kd_error(err, "%s:%d:%d: a key must be a plain name, not a list or a mapping",
				b->name, line, col);
	}
	jnode_append_mark(top->node, top->key,
			  &(struct jnode_mark){ top->key_line, top->key_col,
						b->file },
			  node);
	free(top->key);
	top->key = NULL;
	return 0;
}

static int add_key(struct builder *b, const yaml_event_t *event,
		   struct kd_err *err)
{
	struct frame *top = &b->stack[b->depth - 1];
	const char *key = (const char *)event->data.scalar.value;
	ssize_t first;

	if (b->record) {
		top->key = xstrdup(key);
		top->key_line = (int)event->start_mark.line + 1;
		top->key_col = (int)event->start_mark.column + 1;
		return 0;
	}
	if (top->node->n == JOB_MAX_KEYS)
		return kd_error(err, "%s:%d:%d: more than %d keys in one mapping; no job file needs that many",
				b->name, (int)event->start_mark.line + 1,
				(int)event->start_mark.column + 1, JOB_MAX_KEYS);
	if (expression_at(b, event->start_mark.index))
		return kd_error(err, "%s:%d:%d: a '{{ ... }}' expression cannot be a key",
				b->name, (int)event->start_mark.line + 1,
				(int)event->start_mark.column + 1);
	/* lkp-tests' includes: "<<: a.yaml" and "<<: b.yaml" in one mapping. */
	first = b->lkp && !strcmp(key, "<<") ? -1 : jnode_index(top->node, key);
	if (first >= 0)
		return kd_error(err, "%s:%d:%d: duplicate key '%s' (first at line %d)",
				b->name, (int)event->start_mark.line + 1,
				(int)event->start_mark.column + 1, key,
				top->node->key_marks[first].line);
	top->key = xstrdup(key);
	top->key_line = (int)event->start_mark.line + 1;
	top->key_col = (int)event->start_mark.column + 1;
	return 0;
}

static int open_node(struct builder *b, const yaml_event_t *event,
		     struct jnode *node, struct kd_err *err)
{
	node->line = (int)event->start_mark.line + 1;
	node->col = (int)event->start_mark.column + 1;
	node->file = b->file;
	if (attach(b, node, err))
		return -1;
	if (node->kind == JNODE_SCALAR)
		return 0;
	if (b->depth == JOB_MAX_DEPTH)
		return mark_error(b, &event->start_mark, err,
				  "nested too deeply for a job file");
	b->stack[b->depth++] = (struct frame){ .node = node };
	return 0;
}

/* A scalar value: as it is, or the expression that was there. */
static int open_scalar(struct builder *b, const yaml_event_t *event,
		       struct kd_err *err)
{
	const struct expr_span *e = expression_at(b, event->start_mark.index);
	struct jnode *node;

	if (!e)
		return open_node(b, event, jnode_new_scalar(
				 (const char *)event->data.scalar.value), err);
	if (event->end_mark.index > e->end)
		return kd_error(err, "%s:%d:%d: text after a '{{ ... }}' expression; the whole value must be the expression",
				b->name, (int)event->start_mark.line + 1,
				(int)event->start_mark.column + 1);
	node = jnode_new_scalar("");
	free(node->scalar);
	node->scalar = xstrndup(b->text + e->start + 2, e->end - e->start - 4);
	node->expr = true;
	return open_node(b, event, node, err);
}

static int end_document(struct builder *b)
{
	ALLOC_GROW(b->docs, b->ndocs + 1, b->alloc);
	b->docs[b->ndocs++] = b->root;
	b->root = NULL;
	return 0;
}

static int handle_event(struct builder *b, const yaml_event_t *event,
			struct kd_err *err)
{
	const yaml_char_t *anchor = NULL;

	switch (event->type) {
	case YAML_ALIAS_EVENT:
		return mark_error(b, &event->start_mark, err,
				  "YAML aliases (*name) are not allowed in job files; write the values out");
	case YAML_SCALAR_EVENT:
		anchor = event->data.scalar.anchor;
		break;
	case YAML_SEQUENCE_START_EVENT:
		anchor = event->data.sequence_start.anchor;
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = event->data.mapping_start.anchor;
		break;
	default:
		break;
	}
	if (anchor)
		return mark_error(b, &event->start_mark, err,
				  "YAML anchors (&name) are not allowed in job files; write the values out");
	switch (event->type) {
	case YAML_SCALAR_EVENT:
		if (b->depth && b->stack[b->depth - 1].node->kind == JNODE_MAP &&
		    !b->stack[b->depth - 1].key)
			return add_key(b, event, err);
		return open_scalar(b, event, err);
	case YAML_SEQUENCE_START_EVENT:
		return open_node(b, event, jnode_new_list(), err);
	case YAML_MAPPING_START_EVENT:
		return open_node(b, event, jnode_new_map(), err);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		b->depth--;
		return 0;
	case YAML_DOCUMENT_END_EVENT:
		return end_document(b);
	default:
		return 0;
	}
}

static void builder_release(struct builder *b)
{
	for (size_t i = 0; i < b->depth; i++)
		free(b->stack[i].key);
	jnode_free(b->root);
	for (size_t i = 0; i < b->ndocs; i++)
		jnode_free(b->docs[i]);
	free(b->docs);
}

static int parse_events(struct builder *b, const char *text, size_t len,
			struct kd_err *err)
{
	yaml_parser_t parser;
	yaml_event_t event;
	int ret = 0;

	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	do {
		if (!yaml_parser_parse(&parser, &event)) {
			ret = syntax_error(&parser, text, b->name, err);
			break;
		}
		ret = handle_event(b, &event, err);
		if (event.type == YAML_STREAM_END_EVENT)
			break;
		yaml_event_delete(&event);
	} while (!ret);
	yaml_event_delete(&event);
	yaml_parser_delete(&parser);
	return ret;
}

static int parse(struct builder *b, const char *text, size_t len,
		 struct jnode ***docs, size_t *ndocs, struct kd_err *err)
{
	struct expr_span *spans = NULL;
	char *blanked;
	int ret;

	if (len > JOB_MAX_FILE_SIZE && !b->record)
		return kd_error(err, "%s: too large for a job file (%zu bytes)",
				b->name, len);
	if (check_text(text, len, b->name, err))
		return -1;
	blanked = xmalloc(len + 1);	/* the text has no NUL byte now */
	memcpy(blanked, text, len);
	blanked[len] = '\0';
	b->text = text;
	ret = b->record ? 0 : find_expressions(b, blanked, len, &spans, err);
	if (!ret)
		ret = parse_events(b, blanked, len, err);
	free(blanked);
	free(spans);
	if (ret) {
		builder_release(b);
		return -1;
	}
	*docs = b->docs;
	*ndocs = b->ndocs;
	return 0;
}

int job_parse_documents(const char *text, size_t len, const char *name,
			struct jnode ***docs, size_t *ndocs, struct kd_err *err)
{
	struct builder b = { .name = name };

	return parse(&b, text, len, docs, ndocs, err);
}

int job_parse_lkp_documents(const char *text, size_t len, const char *name,
			    int file, struct jnode ***docs, size_t *ndocs,
			    struct kd_err *err)
{
	struct builder b = { .name = name, .lkp = true, .file = file };

	return parse(&b, text, len, docs, ndocs, err);
}

int job_parse_record(const char *text, size_t len, const char *name,
		     struct jnode **root, struct kd_err *err)
{
	struct builder b = { .name = name, .record = true };
	struct jnode **docs;
	size_t ndocs;

	*root = NULL;
	if (parse(&b, text, len, &docs, &ndocs, err) < 0)
		return -1;
	if (ndocs)
		*root = docs[0];
	for (size_t i = 1; i < ndocs; i++)
		jnode_free(docs[i]);
	free(docs);
	return 0;
}
