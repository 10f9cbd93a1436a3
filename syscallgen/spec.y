/* spec.y: the grammar of syscalls.spec (docs/syscallgen.md has the prose).
 * Builds the tree of syscallgen.h and nothing else: names, types and
 * numbers are resolved and checked in sema.c. Errors are reported as
 * "syscallgen:FILE:LINE:COL: message" and parsing goes on at the next ';'. */
%define api.pure full
%define api.prefix {sg_yy}
%define parse.error verbose
%define parse.lac full
%locations
%param {void *scanner}
%parse-param {sg_spec *S}

%code requires {
#include "syscallgen.h"
}

%union {
  char *str;
  long long num;
  sg_loc loc;
  sg_expr *expr;
  sg_type *type;
  sg_writes *writes;
  sg_request *req;
  struct { sg_expr *a, *b; int n; } args;
  struct { sg_expr *a, *b, *c; } args3;
}

%code {
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "spec.lex.h"

static sg_loc L(SG_YYLTYPE l) { return (sg_loc){ l.first_line, l.first_column }; }
static void sg_yyerror(SG_YYLTYPE *l, void *scanner, sg_spec *S, const char *msg)
{
  (void)scanner;
  sg_error(S, L(*l), "%s", msg);
}
static sg_proto *cur;     /* the prototype being parsed */

static sg_expr *mk(enum sg_expr_kind k, sg_loc loc, sg_expr *a, sg_expr *b)
{
  sg_expr *e = sg_alloc(sizeof *e);
  e->kind = k;
  e->loc = loc;
  e->a = a;
  e->b = b;
  e->arg = -1;
  e->pre_slot = -1;
  return e;
}
static sg_expr *bin(int op, sg_loc loc, sg_expr *a, sg_expr *b)
{
  sg_expr *e = mk(E_BIN, loc, a, b);
  e->op = op;
  return e;
}
static sg_type *mktype(sg_loc loc, int is_const, int is_struct, const char *base)
{
  sg_type *t = sg_alloc(sizeof *t);
  t->loc = loc;
  t->is_const = is_const;
  t->is_struct = is_struct;
  t->base = sg_strdup(base);
  t->size = -1;
  return t;
}
static char *join(const char *a, const char *b)
{
  char *s = sg_alloc(strlen(a) + strlen(b) + 2);
  strcpy(s, a);
  strcat(s, " ");
  strcat(s, b);
  return s;
}
static void add_writes(sg_writes *w)
{
  sg_writes **p = &cur->writes;
  while (*p)
    p = &(*p)->next;
  *p = w;
}
static void acquires(sg_spec *S, sg_loc loc, sg_expr *cond)
{
  if (cur->attrs & A_ACQUIRES)
    sg_error(S, loc, "'%s' has two ACQUIRES clauses", cur->name);
  cur->attrs |= A_ACQUIRES;
  cur->acq_cond = cond;
}
static void add_param(sg_spec *S, sg_loc loc, sg_type *t, char *name, sg_writes *w)
{
  if (cur->nparams == 6) {
    sg_error(S, loc, "'%s' has more than 6 parameters", cur->name);
    return;
  }
  sg_param *p = &cur->params[cur->nparams++];
  p->loc = loc;
  p->type = t;
  p->name = name;
  p->writes = w;
}
}

%token <str> IDENT "identifier" BUILTIN "type keyword" STRING "string"
%token <num> NUMBER "number"
%token WRITES "WRITES" REQUESTS "REQUESTS" ADDRSPACE "ADDRSPACE" SIGNAL "SIGNAL"
%token PROCESS "PROCESS" REEXEC "REEXEC" REFUSED "REFUSED" RETVAL "retval"
%token ACQUIRES "ACQUIRES" NOCUT "NOCUT" SIGMASK "SIGMASK"
%token SENDS "SENDS" FILEWRITE "FILEWRITE" FILECHANGE "FILECHANGE" NEWFD "NEWFD"
%token SIGSTATE "SIGSTATE" FORKS "FORKS" EXECS "EXECS" CLOSES "CLOSES" EXITS "EXITS" MAYBLOCK "MAYBLOCK"
%token SIZEOF "sizeof" STRUCT "struct" TYPEDEF "typedef" CONST "const"
%token DEFAULT "default" ELLIPSIS "..." ENUM "enum"
%token EQ "==" NE "!=" LE "<=" GE ">=" ANDAND "&&" OROR "||" SHL "<<" SHR ">>"

%type <type> type base qbase
%type <str> builtins
%type <num> stars number
%type <expr> expr cond_opt count_opt
%type <args> args
%type <args3> args3
%type <writes> writes wlist
%type <req> req_labels req_label

%right '?' ':'
%left OROR
%left ANDAND
%left '|'
%left '^'
%left '&'
%left EQ NE
%left '<' '>' LE GE
%left SHL SHR
%left '+' '-'
%left '*' '/' '%'
%right UNARY

%%

spec
  : %empty
  | spec item
  ;

item
  : decl ';'
  | proto ';'
  | error ';'            { cur = NULL; }
  ;

number
  : NUMBER               { $$ = $1; }
  | '-' NUMBER           { $$ = -$2; }
  ;

decl
  : STRUCT IDENT '=' number {
      sg_decl *d = sg_alloc(sizeof *d);
      d->loc = L(@1); d->kind = 's'; d->name = $2; d->value = $4;
      d->next = S->decls; S->decls = d; }
  | TYPEDEF type IDENT {
      sg_decl *d = sg_alloc(sizeof *d);
      d->loc = L(@3); d->kind = 't'; d->name = $3; d->type = $2;
      d->next = S->decls; S->decls = d; }
  | ENUM '{' enumerators comma_opt '}'
  ;

enumerators
  : enumerator
  | enumerators ',' enumerator
  ;

comma_opt
  : %empty
  | ','
  ;

enumerator
  : IDENT '=' number {
      sg_decl *d = sg_alloc(sizeof *d);
      d->loc = L(@1); d->kind = 'c'; d->name = $1; d->value = $3;
      d->next = S->decls; S->decls = d; }
  ;

proto
  : type IDENT '(' {
      cur = sg_alloc(sizeof *cur);
      cur->loc = L(@1); cur->ret = $1; cur->name = $2; cur->name_loc = L(@2);
      cur->nr = -1; cur->acq_fd = -1; cur->wfd = -1;
      sg_proto **p = &S->protos;
      while (*p) p = &(*p)->next;
      *p = cur; }
    params ')' attrs
  ;

params
  : %empty
  | param_list
  ;

param_list
  : param
  | param_list ',' param
  ;

param
  : type IDENT           { add_param(S, L(@1), $1, $2, NULL); }
  | type                 { if (strcmp($1->text, "void") != 0)
                             sg_error(S, L(@1), "parameter of type '%s' has no name", $1->text); }
  | writes               { if (!$1->type)
                             sg_error(S, $1->name_loc, "WRITES parameter '%s' needs a type", $1->name);
                           else
                             add_param(S, $1->loc, $1->type, $1->name, $1);
                           add_writes($1); }
  | ELLIPSIS             { sg_error(S, L(@1), "write the variadic argument as a named parameter (e.g. 'unsigned long arg')"); }
  ;

attrs
  : %empty
  | attrs attr
  ;

attr
  : ADDRSPACE            { cur->attrs |= A_ADDRSPACE; }
  | SIGNAL               { cur->attrs |= A_SIGNAL; }
  | PROCESS              { cur->attrs |= A_PROCESS; }
  | REEXEC               { cur->attrs |= A_REEXEC; }
  | REFUSED '(' STRING ')' { cur->attrs |= A_REFUSED; cur->refusal = $3; }
  | ACQUIRES             { acquires(S, L(@1), NULL); }
  | ACQUIRES '(' expr ')' { acquires(S, L(@1), $3); }
  | NOCUT                { cur->attrs |= A_NOCUT; }
  | SIGMASK '(' expr ',' expr ')' {
      if (cur->mask_ptr)
        sg_error(S, L(@1), "'%s' has two SIGMASK clauses", cur->name);
      cur->mask_ptr = $3; cur->mask_size = $5; }
  | writes               { add_writes($1); }
  | FORKS                { cur->attrs |= A_FORKS; }
  | EXECS                { cur->attrs |= A_EXECS; }
  | CLOSES               { cur->attrs |= A_CLOSES; }
  | EXITS                { cur->attrs |= A_EXITS; }
  | MAYBLOCK             { cur->attrs |= A_MAYBLOCK; }
  | SENDS cond_opt '{' IDENT count_opt '=' expr '}' {
      if (cur->sends)
        sg_error(S, L(@1), "'%s' has two SENDS clauses", cur->name);
      sg_writes *w = sg_alloc(sizeof *w); w->loc = L(@1); w->cond = $2;
      w->name = $4; w->name_loc = L(@4); w->count = $5; w->size = $7; w->arg = -1;
      w->pre_slot = -1; cur->sends = w; }
  | FILEWRITE '(' args3 ')' {
      if (cur->wfd_name)
        sg_error(S, L(@1), "'%s' has two FILEWRITE clauses", cur->name);
      cur->wloc = L(@1); cur->wfd_name = $3.a; cur->wpos = $3.b; cur->wrwf = $3.c; }
  | FILECHANGE '(' expr ')' {
      if (cur->chfd)
        sg_error(S, L(@1), "'%s' has two FILECHANGE clauses", cur->name);
      cur->chfd = $3; }
  | NEWFD '(' expr ')' {
      if (cur->newfd)
        sg_error(S, L(@1), "'%s' has two NEWFD clauses", cur->name);
      cur->newfd = $3; }
  | SIGSTATE '(' expr ',' expr ')' {
      if (cur->ss_ptr)
        sg_error(S, L(@1), "'%s' has two SIGSTATE clauses", cur->name);
      cur->ss_ptr = $3; cur->ss_size = $5; }
  | REQUESTS '(' expr ')' '{' {
      if (cur->req_sel)
        sg_error(S, L(@1), "'%s' has two REQUESTS clauses", cur->name);
      cur->req_sel = $3; }
    req_items '}'
  ;

req_items
  : %empty
  | req_items req_labels ':' wlist ';' {
      for (sg_request *r = $2; r; r = r->next)
        r->writes = $4;
      sg_request **p = &cur->requests;
      while (*p) p = &(*p)->next;
      *p = $2; }
  ;

req_labels
  : req_label
  | req_labels ',' req_label { sg_request *r = $1; while (r->next) r = r->next; r->next = $3; $$ = $1; }
  ;

req_label
  : IDENT                { $$ = sg_alloc(sizeof *$$); $$->loc = L(@1); $$->name = $1; }
  | NUMBER               { $$ = sg_alloc(sizeof *$$); $$->loc = L(@1); $$->value = $1; }
  | DEFAULT              { $$ = sg_alloc(sizeof *$$); $$->loc = L(@1); $$->is_default = 1; }
  ;

wlist
  : %empty               { $$ = NULL; }
  | wlist writes         { if (!$1) $$ = $2; else { sg_writes *w = $1; while (w->next) w = w->next; w->next = $2; $$ = $1; } }
  ;

writes
  : WRITES cond_opt '{' type IDENT count_opt '=' expr '}' {
      $$ = sg_alloc(sizeof *$$); $$->loc = L(@1); $$->cond = $2; $$->type = $4;
      $$->name = $5; $$->name_loc = L(@5); $$->count = $6; $$->size = $8; $$->arg = -1;
      $$->pre_slot = -1; }
  | WRITES cond_opt '{' IDENT count_opt '=' expr '}' {
      $$ = sg_alloc(sizeof *$$); $$->loc = L(@1); $$->cond = $2;
      $$->name = $4; $$->name_loc = L(@4); $$->count = $5; $$->size = $7; $$->arg = -1;
      $$->pre_slot = -1; }
  ;

cond_opt
  : %empty               { $$ = NULL; }
  | '(' expr ')'         { $$ = $2; }
  ;

count_opt
  : %empty               { $$ = NULL; }
  | '[' expr ']'         { $$ = $2; }
  ;

type
  : qbase stars {
      $$ = $1; $$->ptr = (int)$2;
      char *t = sg_strdup($1->base);
      if ($$->is_const) t = join("const", t);
      if ($2) {
        char st[16] = "";
        for (long long i = 0; i < $2 && i < 15; i++) st[i] = '*';
        t = join(t, st);
      }
      $$->text = t; }
  ;

qbase
  : base
  | CONST base           { $$ = $2; $$->is_const = 1; }
  | qbase CONST          { $$ = $1; $$->is_const = 1; }
  ;

base
  : builtins             { $$ = mktype(L(@1), 0, 0, $1); }
  | IDENT                { $$ = mktype(L(@1), 0, 0, $1); }
  | STRUCT IDENT         { $$ = mktype(L(@1), 0, 1, join("struct", $2)); }
  ;

builtins
  : BUILTIN              { $$ = $1; }
  | builtins BUILTIN     { $$ = join($1, $2); }
  ;

stars
  : %empty               { $$ = 0; }
  | stars '*'            { $$ = $1 + 1; }
  | stars '*' CONST      { $$ = $1 + 1; }
  ;

expr
  : NUMBER               { $$ = mk(E_NUM, L(@1), NULL, NULL); $$->num = $1; }
  | RETVAL               { $$ = mk(E_RETVAL, L(@1), NULL, NULL); }
  | IDENT                { $$ = mk(E_NAME, L(@1), NULL, NULL); $$->name = $1; }
  | IDENT '(' args ')'   { $$ = mk(E_CALL, L(@1), $3.a, $3.b); $$->name = $1;
                           $$->num = $3.n; }
  | SIZEOF '(' type ')'  { $$ = mk(E_SIZEOF, L(@1), NULL, NULL); $$->type = $3; }
  | '(' expr ')'         { $$ = $2; }
  | '*' IDENT %prec UNARY { $$ = mk(E_DEREF, L(@1), NULL, NULL); $$->name = $2; }
  | '!' expr %prec UNARY { $$ = mk(E_NOT, L(@1), $2, NULL); }
  | '~' expr %prec UNARY { $$ = mk(E_BNOT, L(@1), $2, NULL); }
  | '-' expr %prec UNARY { $$ = mk(E_NEG, L(@1), $2, NULL); }
  | expr '?' expr ':' expr { $$ = mk(E_COND, L(@1), $1, $3); $$->c = $5; }
  | expr OROR expr       { $$ = bin(OROR, L(@1), $1, $3); }
  | expr ANDAND expr     { $$ = bin(ANDAND, L(@1), $1, $3); }
  | expr '|' expr        { $$ = bin('|', L(@1), $1, $3); }
  | expr '^' expr        { $$ = bin('^', L(@1), $1, $3); }
  | expr '&' expr        { $$ = bin('&', L(@1), $1, $3); }
  | expr EQ expr         { $$ = bin(EQ, L(@1), $1, $3); }
  | expr NE expr         { $$ = bin(NE, L(@1), $1, $3); }
  | expr '<' expr        { $$ = bin('<', L(@1), $1, $3); }
  | expr '>' expr        { $$ = bin('>', L(@1), $1, $3); }
  | expr LE expr         { $$ = bin(LE, L(@1), $1, $3); }
  | expr GE expr         { $$ = bin(GE, L(@1), $1, $3); }
  | expr SHL expr        { $$ = bin(SHL, L(@1), $1, $3); }
  | expr SHR expr        { $$ = bin(SHR, L(@1), $1, $3); }
  | expr '+' expr        { $$ = bin('+', L(@1), $1, $3); }
  | expr '-' expr        { $$ = bin('-', L(@1), $1, $3); }
  | expr '*' expr        { $$ = bin('*', L(@1), $1, $3); }
  | expr '/' expr        { $$ = bin('/', L(@1), $1, $3); }
  | expr '%' expr        { $$ = bin('%', L(@1), $1, $3); }
  ;

args3
  : expr                 { $$.a = $1; $$.b = $$.c = NULL; }
  | expr ',' expr        { $$.a = $1; $$.b = $3; $$.c = NULL; }
  | expr ',' expr ',' expr { $$.a = $1; $$.b = $3; $$.c = $5; }
  ;

args
  : %empty               { $$.a = $$.b = NULL; $$.n = 0; }
  | expr                 { $$.a = $1; $$.b = NULL; $$.n = 1; }
  | expr ',' expr        { $$.a = $1; $$.b = $3; $$.n = 2; }
  ;

%%

void sg_error(sg_spec *s, sg_loc loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(s->errs, "syscallgen:%s:%d:%d: ", s->path, loc.line, loc.col);
  vfprintf(s->errs, fmt, ap);
  fputc('\n', s->errs);
  va_end(ap);
  s->nerrors++;
}

sg_spec *sg_parse(const char *path, const char *text, FILE *errs)
{
  sg_spec *s = sg_alloc(sizeof *s);
  s->path = path;
  s->errs = errs;
  yyscan_t scanner;
  if (sg_yylex_init_extra(s, &scanner) != 0) {
    fprintf(errs, "syscallgen: out of memory\n");
    exit(1);
  }
  YY_BUFFER_STATE b = sg_yy_scan_string(text, scanner);
  cur = NULL;
  int rc = sg_yyparse(scanner, s);
  sg_yy_delete_buffer(b, scanner);
  sg_yylex_destroy(scanner);
  if (rc != 0 && s->nerrors == 0)
    sg_error(s, (sg_loc){ 0, 0 }, "parse failed");
  if (s->nerrors)
    return NULL;
  return s;
}
