// SPDX-License-Identifier: GPL-2.0
/*
 * The '{{ ... }}' expressions of lkp-tests' job files.  lkp-tests hands
 * them to Ruby, with the job's keys as names; kdelta evaluates the part of
 * Ruby that job files use to choose a value by the job's other values and
 * the machine's (kdelta-job(5), EXPRESSIONS), and refuses the rest with
 * its file, line and column:
 *
 *   literals   'text', "text" (without #{...}), 42, nil, true, false,
 *              /regular expression/ (POSIX extended, for =~ and !~)
 *   names      fs, aim7.test: the job's values as YAML reads them (an
 *              integer, true or false, nil when empty, else text); then
 *              the machine's nr_cpu and memory ("16G"), as lkp-tests'
 *              host files give them
 *   operators  ! - * / % + - < <= > >= == != =~ !~ && || ?: not and or,
 *              with Ruby's precedence; ( )
 *   if COND [then] VALUE {elsif COND [then] VALUE} [else VALUE] end
 *   case VALUE {when V {, V} [then] VALUE} [else VALUE] end
 *
 * The value is evaluated as it is read; a branch not taken is read
 * without evaluating it, so that it is still checked.  A value of nil drops
 * the job, as in lkp-tests.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job-expr-lex.h"
#include "kdelta/util.h"

enum vtype { V_NIL, V_BOOL, V_INT, V_STRING, V_REGEX };

struct value {
	enum vtype type;
	bool b;
	int64_t i;
	char *s;		/* V_STRING, V_REGEX (its pattern) */
};

static void value_free(struct value *v)
{
	free(v->s);
	*v = (struct value){ V_NIL };
}

static bool truthy(const struct value *v)
{
	return v->type != V_NIL && !(v->type == V_BOOL && !v->b);
}

static const char *type_name(enum vtype t)
{
	static const char *const names[] = {
		"nil", "true or false", "an integer", "text",
		"a regular expression",
	};

	return names[t];
}

/* A value of the job as Ruby's YAML reader would give it. */
static void yaml_value(const char *s, struct value *v)
{
	static const char *const yes[] = { "true", "True", "TRUE", "yes",
		"Yes", "YES", "on", "On", "ON", NULL };
	static const char *const no[] = { "false", "False", "FALSE", "no",
		"No", "NO", "off", "Off", "OFF", NULL };
	int64_t n;

	*v = (struct value){ V_NIL };
	if (!*s || !strcmp(s, "~") || !strcmp(s, "null"))
		return;
	for (size_t i = 0; yes[i]; i++)
		if (!strcmp(s, yes[i]) || !strcmp(s, no[i])) {
			v->type = V_BOOL;
			v->b = !strcmp(s, yes[i]);
			return;
		}
	if (!parse_int(s, &n, NULL)) {
		v->type = V_INT;
		v->i = n;
		return;
	}
	v->type = V_STRING;
	v->s = xstrdup(s);
}

/* The machine's facts that lkp-tests' host files give as nr_cpu, memory. */
static bool is_machine_fact(const char *name)
{
	return !strcmp(name, "nr_cpu") || !strcmp(name, "memory");
}

static void machine_fact(const char *name, struct value *v)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	double gib = pages > 0 && size > 0 ?
		(double)pages * (double)size / (1 << 30) : 0;

	if (!strcmp(name, "nr_cpu"))
		*v = (struct value){ V_INT, .i = cpus > 0 ? cpus : 1 };
	else
		*v = (struct value){ V_STRING,
				     .s = xasprintf("%.0fG", gib < 1 ? 1 : gib) };
}

static int parse_expr(struct lexer *lx, bool run, struct value *v);

/* A name: fs, aim7.test; or one of the machine's facts. */
static int parse_name(struct lexer *lx, bool run, struct value *v)
{
	size_t start = lx->start;
	const struct jnode *node = jnode_get(lx->root, lx->word);
	bool fact = !node && is_machine_fact(lx->word);
	char first[sizeof(lx->word)];
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	memcpy(first, lx->word, sizeof(first));
	strbuf_addstr(&path, lx->word);
	while (!ret && !(ret = lex_next(lx)) && lex_at_op(lx, ".") && !lx->nl_before) {
		if ((ret = lex_next(lx)))
			break;
		if (lx->tok != T_NAME || lex_is_keyword(lx->word))
			ret = lex_error(lx, lx->start, "a name after '.'");
		else if (fact || (node && node->kind != JNODE_MAP))
			ret = lex_not_built_in(lx, lx->start, "a Ruby method call");
		node = node ? jnode_get(node, lx->word) : NULL;
		strbuf_addf(&path, ".%s", lx->word);
	}
	if (ret || !run) {
		strbuf_release(&path);
		return ret;
	}
	if (fact)
		machine_fact(first, v);
	else if (!node)
		ret = lex_error(lx, start, "'%s' is not a parameter of this job",
				path.buf);
	else if (node->kind == JNODE_LIST)
		ret = lex_error(lx, start, "'%s' is a list that has not expanded yet; put it before the expression in the file",
				path.buf);
	else if (node->kind == JNODE_MAP)
		ret = lex_error(lx, start, "'%s' is a mapping, not a value",
				path.buf);
	else if (node->expr)
		ret = lex_error(lx, start, "'%s' is an expression not evaluated yet; put it before this one in the file",
				path.buf);
	else
		yaml_value(node->scalar, v);
	strbuf_release(&path);
	return ret;
}

/* A branch's value: one expression. */
static int parse_body(struct lexer *lx, bool run, struct value *v)
{
	if (parse_expr(lx, run, v))
		return -1;
	if (lx->tok == T_END || lex_at_word(lx, "end") || lex_at_word(lx, "else") ||
	    lex_at_word(lx, "elsif") || lex_at_word(lx, "when"))
		return 0;
	value_free(v);
	return lex_not_built_in(lx, lx->start, "more than one statement in a branch");
}

static int expect_word(struct lexer *lx, const char *word, size_t opened)
{
	if (lex_at_word(lx, word))
		return lex_next(lx);
	return lex_error(lx, lx->tok == T_END ? opened : lx->start,
			 "expected '%s'", word);
}

/*
 * The end of an if or a case opened at offset opened: its "else" branch,
 * whose value is *v's unless an earlier branch was taken (done), and its
 * "end".
 */
static int else_end(struct lexer *lx, bool done, struct value *v,
		    size_t opened)
{
	if (lex_at_word(lx, "else")) {
		struct value body = { V_NIL };

		if (lex_next(lx) || parse_body(lx, !done, &body))
			return -1;
		if (!done)
			*v = body;
		else
			value_free(&body);
	}
	return expect_word(lx, "end", opened);
}

static int if_expression(struct lexer *lx, bool run, struct value *v)
{
	size_t opened = lx->start;
	bool done = !run;

	*v = (struct value){ V_NIL };
	do {
		struct value cond = { V_NIL }, body = { V_NIL };

		if (lex_next(lx) || parse_expr(lx, !done, &cond))
			return -1;
		if (lex_at_word(lx, "then") && lex_next(lx)) {
			value_free(&cond);
			return -1;
		}
		if (parse_body(lx, !done && truthy(&cond), &body)) {
			value_free(&cond);
			return -1;
		}
		if (!done && truthy(&cond)) {
			*v = body;
			done = true;
		} else {
			value_free(&body);
		}
		value_free(&cond);
	} while (lex_at_word(lx, "elsif"));
	return else_end(lx, done, v, opened);
}


static bool values_equal(const struct value *a, const struct value *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case V_NIL:
		return true;
	case V_BOOL:
		return a->b == b->b;
	case V_INT:
		return a->i == b->i;
	default:
		return !strcmp(a->s, b->s);
	}
}

/* Ruby's case compares with ===: a regular expression matches. */
static int case_match(struct lexer *lx, size_t at, const struct value *pattern,
		      const struct value *subject, bool *yes);

static int case_expression(struct lexer *lx, bool run, struct value *v)
{
	size_t opened = lx->start;
	struct value subject = { V_NIL };
	bool done = !run;

	*v = (struct value){ V_NIL };
	if (lex_next(lx) || parse_expr(lx, run, &subject))
		return -1;
	if (!lex_at_word(lx, "when")) {
		value_free(&subject);
		return lex_error(lx, lx->start, "expected 'when'");
	}
	while (lex_at_word(lx, "when")) {
		struct value body = { V_NIL };
		bool hit = false;

		do {
			struct value w = { V_NIL };
			size_t at;
			bool yes = false;

			if (lex_next(lx)) {
				value_free(&subject);
				return -1;
			}
			at = lx->start;
			if (parse_expr(lx, !done, &w) ||
			    (!done && case_match(lx, at, &w, &subject, &yes))) {
				value_free(&w);
				value_free(&subject);
				return -1;
			}
			hit = hit || yes;
			value_free(&w);
		} while (lex_at_op(lx, ","));
		if ((lex_at_word(lx, "then") && lex_next(lx)) ||
		    parse_body(lx, !done && hit, &body)) {
			value_free(&subject);
			return -1;
		}
		if (!done && hit) {
			*v = body;
			done = true;
		} else {
			value_free(&body);
		}
	}
	value_free(&subject);
	return else_end(lx, done, v, opened);
}

/*
 * The parsers leave *v freed when they fail; if and case may have taken a
 * branch's value before a later part fails ("if x then 'a' end" cut
 * short): it goes then.
 */
static int parse_branches(int (*expression)(struct lexer *, bool, struct value *),
			  struct lexer *lx, bool run, struct value *v)
{
	if (expression(lx, run, v) == 0)
		return 0;
	value_free(v);
	return -1;
}

/* The token after a value: a lexer error frees the value. */
static int after_value(struct lexer *lx, struct value *v)
{
	if (lex_next(lx) == 0)
		return 0;
	value_free(v);
	return -1;
}

static int parse_primary(struct lexer *lx, bool run, struct value *v)
{
	size_t start = lx->start;

	*v = (struct value){ V_NIL };
	switch (lx->tok) {
	case T_END:
		return lex_error(lx, start, "a value is missing");
	case T_INT:
		*v = (struct value){ V_INT, .i = lx->num };
		return lex_next(lx);
	case T_STRING:
	case T_REGEX:
		*v = (struct value){ lx->tok == T_STRING ? V_STRING : V_REGEX,
				     .s = xstrdup(lx->lit.buf) };
		return after_value(lx, v);
	case T_NAME:
		break;
	case T_OP:
		if (!lex_at_op(lx, "("))
			return lex_error(lx, start, "'%s' where a value was expected",
					 lx->word);
		if (lex_next(lx) || parse_expr(lx, run, v))
			return -1;
		if (!lex_at_op(lx, ")")) {
			value_free(v);
			return lex_error(lx, lx->start, "expected ')'");
		}
		return after_value(lx, v);
	}
	if (lex_at_word(lx, "nil") || lex_at_word(lx, "true") || lex_at_word(lx, "false")) {
		if (!lex_at_word(lx, "nil"))
			*v = (struct value){ V_BOOL, .b = lex_at_word(lx, "true") };
		return lex_next(lx);
	}
	if (lex_at_word(lx, "if"))
		return parse_branches(if_expression, lx, run, v);
	if (lex_at_word(lx, "case"))
		return parse_branches(case_expression, lx, run, v);
	if (lex_is_keyword(lx->word)) {
		char what[80];

		snprintf(what, sizeof(what), "Ruby's '%s'", lx->word);
		return lex_not_built_in(lx, start, what);
	}
	if (lx->text[lx->pos] == '(')
		return lex_not_built_in(lx, start, "a Ruby method call");
	return parse_name(lx, run, v);
}

static int type_error(struct lexer *lx, size_t at, const char *op,
		      const struct value *a, const struct value *b)
{
	if (b)
		return lex_error(lx, at, "'%s' of %s and %s", op,
				 type_name(a->type), type_name(b->type));
	return lex_error(lx, at, "'%s' of %s", op, type_name(a->type));
}

static int parse_unary(struct lexer *lx, bool run, struct value *v)
{
	size_t at = lx->start;

	if (lex_at_op(lx, "!") || lex_at_op(lx, "-")) {
		bool negate = lex_at_op(lx, "-");

		if (lex_next(lx) || parse_unary(lx, run, v))
			return -1;
		if (!run)
			return 0;
		if (!negate) {
			bool b = !truthy(v);

			value_free(v);
			*v = (struct value){ V_BOOL, .b = b };
			return 0;
		}
		if (v->type != V_INT || v->i == INT64_MIN) {
			int ret = type_error(lx, at, "-", v, NULL);

			value_free(v);
			return ret;
		}
		v->i = -v->i;
		return 0;
	}
	return parse_primary(lx, run, v);
}

/* Integer arithmetic, or + of two texts; 0, or -1 on overflow or types. */
static int arithmetic(struct lexer *lx, size_t at, const char *op,
		      struct value *a, struct value *b)
{
	int64_t r = 0;
	bool bad;

	if (op[0] == '+' && a->type == V_STRING && b->type == V_STRING) {
		char *s = xasprintf("%s%s", a->s, b->s);

		value_free(a);
		*a = (struct value){ V_STRING, .s = s };
		return 0;
	}
	if (a->type != V_INT || b->type != V_INT)
		return type_error(lx, at, op, a, b);
	switch (op[0]) {
	case '+':
		bad = __builtin_add_overflow(a->i, b->i, &r);
		break;
	case '-':
		bad = __builtin_sub_overflow(a->i, b->i, &r);
		break;
	case '*':
		bad = __builtin_mul_overflow(a->i, b->i, &r);
		break;
	default:
		if (!b->i)
			return lex_error(lx, at, "division by zero");
		bad = a->i == INT64_MIN && b->i == -1;
		/* Ruby's integer division and modulo round toward -infinity. */
		if (!bad && op[0] == '/') {
			r = a->i / b->i;
			if ((a->i % b->i) && ((a->i < 0) != (b->i < 0)))
				r--;
		} else if (!bad) {
			r = a->i % b->i;
			if (r && ((r < 0) != (b->i < 0)))
				r += b->i;
		}
		break;
	}
	if (bad)
		return lex_error(lx, at, "'%s' overflows", op);
	a->i = r;
	return 0;
}

/* One level of left-associative binary operators. */
typedef int (*level_fn)(struct lexer *lx, bool run, struct value *v);

static int binary_level(struct lexer *lx, bool run, struct value *v,
			const char *const *ops, level_fn operand,
			int (*apply)(struct lexer *, size_t, const char *,
				     struct value *, struct value *))
{
	if (operand(lx, run, v))
		return -1;
	for (;;) {
		const char *op = NULL;
		struct value b = { V_NIL };
		size_t at = lx->start;
		int ret = 0;

		for (size_t i = 0; ops[i] && !op; i++)
			if (lex_at_binary(lx, ops[i]))
				op = ops[i];
		if (!op)
			return 0;
		if (lex_next(lx) || operand(lx, run, &b)) {
			value_free(v);
			return -1;
		}
		if (run)
			ret = apply(lx, at, op, v, &b);
		value_free(&b);
		if (ret) {
			value_free(v);
			return -1;
		}
	}
}

static int parse_mul(struct lexer *lx, bool run, struct value *v)
{
	static const char *const ops[] = { "*", "/", "%", NULL };

	return binary_level(lx, run, v, ops, parse_unary, arithmetic);
}

static int parse_add(struct lexer *lx, bool run, struct value *v)
{
	static const char *const ops[] = { "+", "-", NULL };

	return binary_level(lx, run, v, ops, parse_mul, arithmetic);
}

static int compare(struct lexer *lx, size_t at, const char *op, struct value *a,
		   struct value *b)
{
	int c;

	if (a->type == V_INT && b->type == V_INT)
		c = a->i < b->i ? -1 : a->i > b->i;
	else if (a->type == V_STRING && b->type == V_STRING)
		c = strcmp(a->s, b->s);
	else
		return type_error(lx, at, op, a, b);
	value_free(a);
	a->type = V_BOOL;
	a->b = op[0] == '<' ? (op[1] ? c <= 0 : c < 0) :
			      (op[1] ? c >= 0 : c > 0);
	return 0;
}

static int parse_relational(struct lexer *lx, bool run, struct value *v)
{
	static const char *const ops[] = { "<=", ">=", "<", ">", NULL };

	return binary_level(lx, run, v, ops, parse_add, compare);
}

static int regex_match(struct lexer *lx, size_t at, const struct value *re,
		       const char *s, bool *yes)
{
	regex_t rx;
	int rc = regcomp(&rx, re->s, REG_EXTENDED | REG_NOSUB);

	if (rc) {
		char msg[128];

		regerror(rc, &rx, msg, sizeof(msg));
		return lex_error(lx, at, "regular expression /%s/: %s", re->s,
				 msg);
	}
	*yes = !regexec(&rx, s, 0, NULL, 0);
	regfree(&rx);
	return 0;
}

static int case_match(struct lexer *lx, size_t at, const struct value *pattern,
		      const struct value *subject, bool *yes)
{
	if (pattern->type != V_REGEX) {
		*yes = values_equal(pattern, subject);
		return 0;
	}
	*yes = false;
	return subject->type == V_STRING ?
	       regex_match(lx, at, pattern, subject->s, yes) : 0;
}

static int equality(struct lexer *lx, size_t at, const char *op,
		    struct value *a, struct value *b)
{
	bool yes = false;

	if (op[1] == '~') {
		if (b->type != V_REGEX)
			return type_error(lx, at, op, a, b);
		/* nil =~ /x/ is nil, which is false here too. */
		if (a->type == V_STRING && regex_match(lx, at, b, a->s, &yes))
			return -1;
		if (a->type != V_STRING && a->type != V_NIL)
			return type_error(lx, at, op, a, b);
	} else {
		yes = values_equal(a, b);
	}
	value_free(a);
	a->type = V_BOOL;
	a->b = op[0] == '!' ? !yes : yes;
	return 0;
}

static int parse_equality(struct lexer *lx, bool run, struct value *v)
{
	static const char *const ops[] = { "==", "!=", "=~", "!~", NULL };

	return binary_level(lx, run, v, ops, parse_relational, equality);
}

/*
 * && and ||: the right side is evaluated only when it decides, and the
 * value is the side that decided, as in Ruby.
 */
static int parse_logic(struct lexer *lx, bool run, struct value *v,
		       const char *op, const char *word, level_fn operand)
{
	if (operand(lx, run, v))
		return -1;
	while (lex_at_binary(lx, op) || (word && lex_at_binary(lx, word))) {
		bool is_and = op[0] == '&' || (word && !strcmp(word, "and"));
		bool decided = run && (is_and ? !truthy(v) : truthy(v));
		struct value b = { V_NIL };

		if (lex_next(lx) || operand(lx, run && !decided, &b)) {
			value_free(v);
			return -1;
		}
		if (run && !decided) {
			value_free(v);
			*v = b;
		} else {
			value_free(&b);
		}
	}
	return 0;
}

static int parse_and(struct lexer *lx, bool run, struct value *v)
{
	return parse_logic(lx, run, v, "&&", NULL, parse_equality);
}

static int parse_or(struct lexer *lx, bool run, struct value *v)
{
	return parse_logic(lx, run, v, "||", NULL, parse_and);
}

static int parse_ternary(struct lexer *lx, bool run, struct value *v)
{
	struct value a = { V_NIL }, b = { V_NIL };
	bool yes;

	if (parse_or(lx, run, v))
		return -1;
	if (!lex_at_binary(lx, "?"))
		return 0;
	yes = truthy(v);
	value_free(v);
	if (lex_next(lx) || parse_ternary(lx, run && yes, &a))
		return -1;
	if (!lex_at_op(lx, ":")) {
		value_free(&a);
		return lex_error(lx, lx->start, "expected ':' of '? :'");
	}
	if (lex_next(lx) || parse_ternary(lx, run && !yes, &b)) {
		value_free(&a);
		return -1;
	}
	*v = yes ? a : b;
	value_free(yes ? &b : &a);
	return 0;
}

static int parse_not(struct lexer *lx, bool run, struct value *v)
{
	if (!lex_at_word(lx, "not"))
		return parse_ternary(lx, run, v);
	if (lex_next(lx) || parse_not(lx, run, v))
		return -1;
	if (run) {
		bool b = !truthy(v);

		value_free(v);
		*v = (struct value){ V_BOOL, .b = b };
	}
	return 0;
}

static int parse_word_and(struct lexer *lx, bool run, struct value *v)
{
	return parse_logic(lx, run, v, "and", NULL, parse_not);
}

static int parse_expr(struct lexer *lx, bool run, struct value *v)
{
	int ret = parse_logic(lx, run, v, "or", NULL, parse_word_and);

	if (!ret && !run)
		value_free(v);
	return ret;
}

int job_expr_eval(const struct job_loader *ld, const struct jnode *expr,
		  const struct jnode *root, struct jnode **out)
{
	struct lexer lx = { .ld = ld, .expr = expr, .root = root,
			    .text = expr->scalar, .lit = STRBUF_INIT,
			    .tok = T_END, .err = ld->err };
	struct value v = { V_NIL };
	int ret;

	*out = NULL;
	ret = lex_next(&lx);
	if (!ret)
		ret = parse_expr(&lx, true, &v);
	if (!ret && lex_at_op(&lx, ";"))
		ret = lex_not_built_in(&lx, lx.start, "more than one statement");
	else if (!ret && lx.tok != T_END)
		ret = lex_error(&lx, lx.start, "unexpected '%.*s' after the value",
				(int)strcspn(lx.text + lx.start, " \t\n"),
				lx.text + lx.start);
	if (!ret && v.type == V_REGEX)
		ret = lex_error(&lx, 0, "a regular expression is not a value of a job");
	if (!ret && v.type != V_NIL) {
		char *text = v.type == V_STRING ? xstrdup(v.s) :
			     v.type == V_INT ? xasprintf("%lld", (long long)v.i) :
			     xstrdup(v.b ? "true" : "false");

		*out = jnode_new_scalar(text);
		free(text);
		(*out)->line = expr->line;
		(*out)->col = expr->col;
		(*out)->file = expr->file;
	}
	value_free(&v);
	strbuf_release(&lx.lit);
	return ret;
}
