// SPDX-License-Identifier: GPL-2.0
/*
 * The lexer of the '{{ ... }}' expressions (job-expr.c): Ruby's tokens as
 * lkp-tests' job files write them, each with its offset for errors; what
 * Ruby has and the expressions do not is refused as it is read.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job-expr-lex.h"
#include "kdelta/util.h"

#define KEYWORDS_COUNT 17
static const char *const keywords[KEYWORDS_COUNT] = {
	"if", "elsif", "else", "end", "then", "case", "when", "nil", "true",
	"false", "and", "or", "not", "unless", "while", "until", "do",
};

bool lex_is_keyword(const char *word)
{
	for (size_t i = 0; i < KEYWORDS_COUNT; i++)
		if (!strcmp(word, keywords[i]))
			return true;
	return false;
}

/* "file:line:col" of offset in the expression's text. */
int lex_error(struct lexer *lx, size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

int lex_error(struct lexer *lx, size_t offset, const char *fmt, ...)
{
	int line = lx->expr->line, col = lx->expr->col + 2;
	char what[1024];
	va_list ap;

	for (size_t i = 0; i < offset && lx->text[i]; i++) {
		if (lx->text[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return kd_error(lx->err, "%s:%d:%d: '{{ }}': %s",
			job_file_of(lx->ld, lx->expr->file), line, col, what);
}

int lex_not_built_in(struct lexer *lx, size_t offset, const char *what)
{
	return lex_error(lx, offset, "%s is not built into kdelta's '{{ }}' expressions (EXPRESSIONS in kdelta-job(5))",
			 what);
}

/* Reads a quoted string after its opening quote. */
static int lex_string(struct lexer *lx, char quote)
{
	const char *t = lx->text;

	strbuf_reset(&lx->lit);
	for (;;) {
		char c = t[lx->pos];

		if (!c)
			return lex_error(lx, lx->start, "a string without its closing %c",
					 quote);
		lx->pos++;
		if (c == quote)
			return 0;
		if (quote == '"' && c == '#' && t[lx->pos] == '{')
			return lex_not_built_in(lx, lx->pos - 1,
					    "Ruby's string interpolation #{...}");
		if (c == '\\' && t[lx->pos]) {
			char e = t[lx->pos++];

			if (quote == '\'' && e != '\\' && e != '\'')
				strbuf_addch(&lx->lit, '\\');
			else if (quote == '"' && e == 'n')
				e = '\n';
			else if (quote == '"' && e == 't')
				e = '\t';
			strbuf_addch(&lx->lit, e);
			continue;
		}
		strbuf_addch(&lx->lit, c);
	}
}

static int lex_regex(struct lexer *lx)
{
	const char *t = lx->text;

	strbuf_reset(&lx->lit);
	for (;;) {
		char c = t[lx->pos];

		if (!c || c == '\n')
			return lex_error(lx, lx->start, "a regular expression without its closing /");
		lx->pos++;
		if (c == '/')
			break;
		if (c == '\\' && t[lx->pos]) {
			char e = t[lx->pos++];

			if (isalnum((unsigned char)e))
				return lex_not_built_in(lx, lx->pos - 2,
						    "a regular expression's escape \\<letter>");
			strbuf_addch(&lx->lit, '\\');
			c = e;
		}
		strbuf_addch(&lx->lit, c);
	}
	if (isalpha((unsigned char)t[lx->pos]))
		return lex_not_built_in(lx, lx->pos, "a regular expression's options");
	return 0;
}

static int lex_number(struct lexer *lx)
{
	const char *t = lx->text;
	int64_t n = 0;

	while (isdigit((unsigned char)t[lx->pos]) || t[lx->pos] == '_') {
		if (t[lx->pos] != '_' &&
		    (__builtin_mul_overflow(n, 10, &n) ||
		     __builtin_add_overflow(n, t[lx->pos] - '0', &n)))
			return lex_error(lx, lx->start, "an integer too large");
		lx->pos++;
	}
	if (t[lx->pos] == '.' && isdigit((unsigned char)t[lx->pos + 1]))
		return lex_not_built_in(lx, lx->start, "a floating-point number");
	lx->num = n;
	return 0;
}

/* The operators, longest first. */
static const char *const operators[] = {
	"==", "!=", "=~", "!~", "&&", "||", "<=", ">=", "<", ">", "!", "?",
	":", "(", ")", ",", "+", "-", "*", "/", "%", ".", ";", NULL,
};

static int lex_operator(struct lexer *lx)
{
	const char *t = lx->text + lx->pos;

	char what[32];

	for (size_t i = 0; operators[i]; i++) {
		size_t len = strlen(operators[i]);

		if (!strncmp(t, operators[i], len)) {
			memcpy(lx->word, t, len);
			lx->word[len] = '\0';
			lx->pos += len;
			return 0;
		}
	}
	snprintf(what, sizeof(what), "Ruby's '%c'", *t);
	return lex_not_built_in(lx, lx->pos, what);
}

int lex_next(struct lexer *lx)
{
	const char *t = lx->text;
	bool operand = lx->tok == T_INT || lx->tok == T_STRING ||
		       lx->tok == T_REGEX ||
		       (lx->tok == T_NAME && !lex_is_keyword(lx->word)) ||
		       (lx->tok == T_OP && !strcmp(lx->word, ")"));

	lx->nl_before = false;
	for (;;) {
		if (t[lx->pos] == '\n')
			lx->nl_before = true;
		if (t[lx->pos] == '#') {
			while (t[lx->pos] && t[lx->pos] != '\n')
				lx->pos++;
			continue;
		}
		if (!isspace((unsigned char)t[lx->pos]))
			break;
		lx->pos++;
	}
	lx->start = lx->pos;
	lx->operand_before = operand;
	if (!t[lx->pos]) {
		lx->tok = T_END;
		return 0;
	}
	if (isdigit((unsigned char)t[lx->pos])) {
		lx->tok = T_INT;
		return lex_number(lx);
	}
	if (isalpha((unsigned char)t[lx->pos]) || t[lx->pos] == '_') {
		size_t len = 0;

		while (isalnum((unsigned char)t[lx->pos]) || t[lx->pos] == '_') {
			if (len + 1 < sizeof(lx->word))
				lx->word[len++] = t[lx->pos];
			lx->pos++;
		}
		lx->word[len] = '\0';
		lx->tok = T_NAME;
		if (t[lx->pos] == '?' || t[lx->pos] == '!')
			return lex_not_built_in(lx, lx->start, "a Ruby method call");
		return 0;
	}
	if (t[lx->pos] == '\'' || t[lx->pos] == '"') {
		lx->tok = T_STRING;
		return lex_string(lx, t[lx->pos++]);
	}
	if (t[lx->pos] == '/' && !operand) {
		lx->pos++;
		lx->tok = T_REGEX;
		return lex_regex(lx);
	}
	lx->tok = T_OP;
	return lex_operator(lx);
}

bool lex_at_op(const struct lexer *lx, const char *op)
{
	return lx->tok == T_OP && !strcmp(lx->word, op);
}

bool lex_at_word(const struct lexer *lx, const char *word)
{
	return lx->tok == T_NAME && !strcmp(lx->word, word);
}

/* A binary operator continues the expression only on the same line. */
bool lex_at_binary(const struct lexer *lx, const char *op)
{
	return !lx->nl_before && (lex_at_op(lx, op) || lex_at_word(lx, op));
}
