/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDELTA_JOB_EXPR_LEX_H
#define KDELTA_JOB_EXPR_LEX_H

/*
 * The tokens of the '{{ ... }}' expressions (job-expr.c): Ruby's literals,
 * names, keywords and operators, with the file, line and column of each
 * for errors.  Shared by the lexer and the evaluator in src/job/; not an
 * API.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job-internal.h"
#include "kdelta/strbuf.h"

enum tok {
	T_END, T_INT, T_STRING, T_REGEX, T_NAME, T_OP,
};

struct lexer {
	const struct job_loader *ld;
	const struct jnode *expr;	/* the node: text, file, line, col */
	const struct jnode *root;	/* the job, for names */
	const char *text;
	size_t pos;
	/* The current token. */
	enum tok tok;
	size_t start;		/* its offset in text */
	char word[64];		/* T_NAME, T_OP */
	struct strbuf lit;	/* T_STRING, T_REGEX */
	int64_t num;		/* T_INT */
	bool nl_before;		/* a line break between it and the last */
	bool operand_before;	/* the last token ended an operand */
	struct kd_err *err;
};

/* Reads the next token into lx; 0, or -1 with lx->err set. */
int lex_next(struct lexer *lx);
/* The current token is the operator op, the word word. */
bool lex_at_op(const struct lexer *lx, const char *op);
bool lex_at_word(const struct lexer *lx, const char *word);
/* A binary operator continues the expression only on the same line. */
bool lex_at_binary(const struct lexer *lx, const char *op);
/* One of Ruby's keywords that the expressions know or refuse. */
bool lex_is_keyword(const char *word);
/* Sets lx->err to "file:line:col: '{{ }}': ..." at offset of the text; -1. */
int lex_error(struct lexer *lx, size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same, for a construct of Ruby that kdelta does not evaluate. */
int lex_not_built_in(struct lexer *lx, size_t offset, const char *what);

#endif
