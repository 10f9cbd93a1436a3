/*
 * rules.y: the grammar of the rules language (docs/rules.md).  A pure
 * (reentrant) parser: one call per file, includes parse recursively with
 * their own scanner.  Actions build the AST of altr.h through the helpers
 * in rules.c; every semantic value that owns memory has a %destructor, and
 * an action that fails frees its own right-hand side before YYABORT (bison
 * does not destroy those).  Only the first error is reported.
 */
%define api.pure full
%define api.prefix {altr_rules_yy}
%define parse.error verbose
%locations
%param {void *scanner}
%parse-param {struct rules_ctx *ctx}

%code requires {
#include "altr.h"

/* A template as the lexer found it: raw text between the braces. */
struct rules_asm {
	char *text;
	int line, col;           /* of the first byte after '{' */
};

/* An expression and its depth (kept in the parser, not in the AST, so
 * that overly deep trees are refused before anything recurses on them). */
struct rules_exprv {
	struct altr_expr *e;
	int depth;
};

/* A rule being parsed, with the state that decides what may come next. */
struct rules_build {
	struct altr_rule *r;
	struct altr_case **ctail;
	bool plain;              /* plain actions: one implicit case */
	bool has_else;
	bool has_match;
};

struct rules_load;

/* Per-file parse state, shared by lexer, parser and rules.c. */
struct rules_ctx {
	struct rules_load *ld;
	const char *file;        /* interned: lives as long as the process */
	const char *realpath;    /* for include cycles */
	int depth;               /* include nesting */
	bool failed;             /* an error was reported: stay quiet */
	/* lexer state for templates */
	struct altr_buf asmbuf;
	int asm_depth, asm_line, asm_col;
	int line, col;           /* position of the next byte */
};
}

%code provides {
#define YYSTYPE ALTR_RULES_YYSTYPE
#define YYLTYPE ALTR_RULES_YYLTYPE
int altr_rules_yylex(YYSTYPE *lval, YYLTYPE *lloc, void *scanner);
void altr_rules_yyerror(YYLTYPE *lloc, void *scanner, struct rules_ctx *ctx,
                        const char *msg);

/* rules.c: the helpers the actions call.  Each reports its own error and
 * returns NULL or -1; each takes ownership of the values passed in. */
void altr_rules_error(struct rules_ctx *ctx, int line, int col, const char *fmt,
                 ...) __attribute__((format(printf, 4, 5)));
int altr_rules_include(struct rules_ctx *ctx, char *path, int line, int col);
int altr_rules_add_var(struct rules_ctx *ctx, char *name, char *value, int line,
              int col);
struct altr_expr *altr_rules_atom(struct rules_ctx *ctx, char *name, int line,
                             int col);
struct altr_expr *altr_rules_cmp(struct rules_ctx *ctx, char *field, int fline,
                            int fcol, enum altr_cmp op,
                            struct altr_expr *val, int vline, int vcol);
struct altr_expr *altr_rules_regex(struct rules_ctx *ctx, char *subject,
                              int sline, int scol, bool negate, char *re,
                              int rline, int rcol);
struct altr_expr *altr_rules_value_int(struct rules_ctx *ctx, const char *text,
                                  int line, int col);
struct altr_expr *altr_rules_value_reg(struct rules_ctx *ctx, const char *text,
                                  bool bare, int line, int col);
struct altr_expr *altr_rules_binop(enum altr_exprop op, struct altr_expr *l,
                              struct altr_expr *r);
struct altr_action *altr_rules_action(struct rules_ctx *ctx, enum altr_place p,
                                 struct rules_asm a);
int altr_rules_int(struct rules_ctx *ctx, const char *text, int line, int col,
              long lo, long hi, long *out);
void altr_rules_expr_free(struct altr_expr *e);
void altr_rules_actions_free(struct altr_action *a);
void altr_rules_case_free(struct altr_case *c);
void altr_rules_rule_free(struct altr_rule *r);
void altr_rules_build_free(struct rules_build *b);
int altr_rules_add_rule(struct rules_ctx *ctx, struct rules_build *b, char *name,
                   int priority, int line, int col);
int altr_rules_add_case(struct rules_ctx *ctx, struct rules_build *b,
                   struct altr_expr *when, struct altr_action *acts,
                   int line, int col);
int altr_rules_add_plain(struct rules_ctx *ctx, struct rules_build *b,
                    struct altr_action *a, int line, int col);
int altr_rules_set_list(struct rules_ctx *ctx, struct rules_build *b, char *name,
                   int line, int col);
int altr_rules_set_match(struct rules_ctx *ctx, struct rules_build *b,
                    struct altr_expr *e, int line, int col);
enum { RULES_MAX_DEPTH = 500 };
}

%code {
#include <stdlib.h>
#include <string.h>

/* The depth check every composite expression goes through. */
static int deep(struct rules_ctx *ctx, int d, YYLTYPE *l)
{
	if (d <= RULES_MAX_DEPTH)
		return 0;
	altr_rules_error(ctx, l->first_line, l->first_column,
	            "expression nested deeper than %d", RULES_MAX_DEPTH);
	return -1;
}
#define MAX(a, b) ((a) > (b) ? (a) : (b))
}

%union {
	char *str;
	long num;
	struct rules_asm asm_;
	struct rules_exprv ex;
	struct altr_expr *val;
	struct altr_action *act;
	struct rules_build *rb;
	enum altr_cmp cmp;
	int prio;
}

%token RULE "rule" INCLUDE "include" VAR "var" PRIORITY "priority"
%token MATCH "match" FINAL "final" LIST "list" WHEN "when" ELSE "else"
%token BEFORE "before" AFTER "after" REPLACE "replace"
%token OROR "||" ANDAND "&&" RE_MATCH "=~" RE_NMATCH "!~"
%token EQ "==" NE "!=" LE "<=" GE ">=" LT "<" GT ">"
%token <str> IDENT "identifier" STRING "string" REGEX "regular expression"
%token <str> INT "integer" REG "register"
%token <asm_> ASM "template"
%token LEXERR "bad token"

%type <ex> expr
%type <val> value
%type <cmp> cmpop
%type <act> action actions
%type <rb> body
%type <prio> priority

%destructor { free($$); } <str>
%destructor { free($$.text); } <asm_>
%destructor { altr_rules_expr_free($$.e); } <ex>
%destructor { altr_rules_expr_free($$); } <val>
%destructor { altr_rules_actions_free($$); } <act>
%destructor { altr_rules_build_free($$); } <rb>

%left OROR
%left ANDAND
%precedence '!'

%%

file:
	%empty
|	file item
;

item:
	INCLUDE STRING
		{ if (altr_rules_include(ctx, $2, @2.first_line, @2.first_column))
			YYABORT; }
|	VAR IDENT '=' STRING
		{ if (altr_rules_add_var(ctx, $2, $4, @2.first_line, @2.first_column))
			YYABORT; }
|	RULE IDENT priority '{' body '}'
		{ if (altr_rules_add_rule(ctx, $5, $2, $3, @1.first_line,
		                     @1.first_column))
			YYABORT; }
|	';'
;

priority:
	%empty { $$ = 0; }
|	PRIORITY INT
		{ long v;
		  int rc = altr_rules_int(ctx, $2, @2.first_line, @2.first_column,
		                     -1000000, 1000000, &v);
		  free($2);
		  if (rc)
			YYABORT;
		  $$ = (int)v; }
;

body:
	%empty
		{ $$ = altr_xcalloc(1, sizeof *$$);
		  $$->r = altr_xcalloc(1, sizeof *$$->r);
		  $$->ctail = &$$->r->cases; }
|	body MATCH expr
		{ $$ = $1;
		  if (altr_rules_set_match(ctx, $1, $3.e, @2.first_line,
		                      @2.first_column)) {
			altr_rules_build_free($1);
			YYABORT;
		  } }
|	body FINAL
		{ $$ = $1; $$->r->final = true; }
|	body LIST IDENT
		{ $$ = $1;
		  if (altr_rules_set_list(ctx, $1, $3, @3.first_line,
		                     @3.first_column)) {
			altr_rules_build_free($1);
			YYABORT;
		  } }
|	body ';'
		{ $$ = $1; }
|	body action
		{ $$ = $1;
		  if (altr_rules_add_plain(ctx, $1, $2, @2.first_line,
		                      @2.first_column)) {
			altr_rules_build_free($1);
			YYABORT;
		  } }
|	body WHEN expr '{' actions '}'
		{ $$ = $1;
		  if (altr_rules_add_case(ctx, $1, $3.e, $5, @2.first_line,
		                     @2.first_column)) {
			altr_rules_build_free($1);
			YYABORT;
		  } }
|	body ELSE '{' actions '}'
		{ $$ = $1;
		  if (altr_rules_add_case(ctx, $1, NULL, $4, @2.first_line,
		                     @2.first_column)) {
			altr_rules_build_free($1);
			YYABORT;
		  } }
;

actions:
	%empty { $$ = NULL; }
|	actions action
		{ struct altr_action **p = &$1;
		  while (*p)
			p = &(*p)->next;
		  *p = $2;
		  $$ = $1; }
|	actions ';' { $$ = $1; }
;

action:
	BEFORE ASM
		{ if (!($$ = altr_rules_action(ctx, PLACE_BEFORE, $2))) YYABORT; }
|	AFTER ASM
		{ if (!($$ = altr_rules_action(ctx, PLACE_AFTER, $2))) YYABORT; }
|	REPLACE ASM
		{ if (!($$ = altr_rules_action(ctx, PLACE_REPLACE, $2))) YYABORT; }
;

expr:
	expr OROR expr
		{ $$.depth = 1 + MAX($1.depth, $3.depth);
		  $$.e = altr_rules_binop(EX_OR, $1.e, $3.e);
		  if (deep(ctx, $$.depth, &@2)) {
			altr_rules_expr_free($$.e);
			YYABORT;
		  } }
|	expr ANDAND expr
		{ $$.depth = 1 + MAX($1.depth, $3.depth);
		  $$.e = altr_rules_binop(EX_AND, $1.e, $3.e);
		  if (deep(ctx, $$.depth, &@2)) {
			altr_rules_expr_free($$.e);
			YYABORT;
		  } }
|	'!' expr
		{ $$.depth = 1 + $2.depth;
		  $$.e = altr_rules_binop(EX_NOT, $2.e, NULL);
		  if (deep(ctx, $$.depth, &@1)) {
			altr_rules_expr_free($$.e);
			YYABORT;
		  } }
|	'(' expr ')'
		{ $$ = $2; }
|	IDENT
		{ $$.depth = 1;
		  if (!($$.e = altr_rules_atom(ctx, $1, @1.first_line,
		                          @1.first_column)))
			YYABORT; }
|	IDENT cmpop value
		{ $$.depth = 1;
		  if (!($$.e = altr_rules_cmp(ctx, $1, @1.first_line, @1.first_column,
		                         $2, $3, @3.first_line,
		                         @3.first_column)))
			YYABORT; }
|	IDENT RE_MATCH REGEX
		{ $$.depth = 1;
		  if (!($$.e = altr_rules_regex(ctx, $1, @1.first_line,
		                           @1.first_column, false, $3,
		                           @3.first_line, @3.first_column)))
			YYABORT; }
|	IDENT RE_NMATCH REGEX
		{ $$.depth = 1;
		  if (!($$.e = altr_rules_regex(ctx, $1, @1.first_line,
		                           @1.first_column, true, $3,
		                           @3.first_line, @3.first_column)))
			YYABORT; }
;

cmpop:
	EQ { $$ = CMP_EQ; }
|	NE { $$ = CMP_NE; }
|	LT { $$ = CMP_LT; }
|	LE { $$ = CMP_LE; }
|	GT { $$ = CMP_GT; }
|	GE { $$ = CMP_GE; }
;

value:
	INT
		{ $$ = altr_rules_value_int(ctx, $1, @1.first_line, @1.first_column);
		  free($1);
		  if (!$$)
			YYABORT; }
|	REG
		{ $$ = altr_rules_value_reg(ctx, $1, false, @1.first_line,
		                       @1.first_column);
		  free($1);
		  if (!$$)
			YYABORT; }
|	IDENT
		{ $$ = altr_rules_value_reg(ctx, $1, true, @1.first_line,
		                       @1.first_column);
		  free($1);
		  if (!$$)
			YYABORT; }
;

%%

void altr_rules_yyerror(YYLTYPE *lloc, void *scanner, struct rules_ctx *ctx,
                        const char *msg)
{
	(void)scanner;
	altr_rules_error(ctx, lloc->first_line, lloc->first_column, "%s", msg);
}
