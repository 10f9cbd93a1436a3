/* sema.c: resolves the parsed spec and checks it. Every type gets a size
 * and signedness (from the C builtins, the spec's typedefs and struct
 * sizes), every name in an expression a parameter index or a constant,
 * every prototype its kernel number from unistd_64.h, every pre() a slot.
 * All errors are reported with the spec location; nothing is generated
 * from a spec with errors. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "rdb_syscalls.h"
#include "syscallgen.h"
#include "spec.tab.h"

void *sg_alloc(size_t n)
{
  void *p = calloc(1, n);
  if (!p) {
    fprintf(stderr, "syscallgen: out of memory\n");
    exit(1);
  }
  return p;
}

char *sg_strdup(const char *s)
{
  char *d = sg_alloc(strlen(s) + 1);
  strcpy(d, s);
  return d;
}

/* ---- the kernel's numbers ---- */

int sg_read_numbers(const char *path, const char *text, sg_numbers *out, FILE *errs)
{
  memset(out, 0, sizeof *out);
  out->max = -1;
  int cap = 0;
  for (const char *p = text; *p;) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    char name[128];
    int nr;
    char line[256];
    if (len < sizeof line) {
      memcpy(line, p, len);
      line[len] = 0;
      if (sscanf(line, " # define __NR_%127[A-Za-z0-9_] %d", name, &nr) == 2) {
        if (out->n == cap) {
          cap = cap ? 2 * cap : 512;
          out->v = realloc(out->v, cap * sizeof *out->v);
          if (!out->v) {
            fprintf(stderr, "syscallgen: out of memory\n");
            exit(1);
          }
        }
        out->v[out->n].name = sg_strdup(name);
        out->v[out->n].nr = nr;
        out->n++;
        if (nr > out->max)
          out->max = nr;
      }
    }
    p += len + (eol != NULL);
  }
  if (out->n == 0) {
    fprintf(errs, "syscallgen:%s: no '#define __NR_name number' lines\n", path);
    return -1;
  }
  return 0;
}

int sg_number(const sg_numbers *nums, const char *name)
{
  for (int i = 0; i < nums->n; i++)
    if (strcmp(nums->v[i].name, name) == 0)
      return nums->v[i].nr;
  return -1;
}

/* ---- types ---- */

static sg_decl *find_decl(sg_spec *s, int kind, const char *name)
{
  sg_decl *found = NULL;
  for (sg_decl *d = s->decls; d; d = d->next) /* the list is newest first */
    if (d->kind == kind && strcmp(d->name, name) == 0)
      found = d;
  return found;
}

static const struct { const char *text; long size; int is_signed; } builtins[] = {
  { "void", -1, 0 },
  { "char", 1, 1 }, { "signed char", 1, 1 }, { "unsigned char", 1, 0 },
  { "short", 2, 1 }, { "short int", 2, 1 }, { "signed short", 2, 1 },
  { "unsigned short", 2, 0 }, { "unsigned short int", 2, 0 },
  { "int", 4, 1 }, { "signed", 4, 1 }, { "signed int", 4, 1 },
  { "unsigned", 4, 0 }, { "unsigned int", 4, 0 },
  { "long", 8, 1 }, { "long int", 8, 1 }, { "signed long", 8, 1 },
  { "long long", 8, 1 }, { "long long int", 8, 1 },
  { "unsigned long", 8, 0 }, { "unsigned long int", 8, 0 },
  { "unsigned long long", 8, 0 }, { "unsigned long long int", 8, 0 },
};

/* Resolves t's base (not counting the pointer depth); 0 or -1 on error. */
static int resolve_type(sg_spec *s, sg_type *t)
{
  if (t->size != -1 || strcmp(t->base, "void") == 0)
    return 0;
  if (t->is_struct) {
    sg_decl *d = find_decl(s, 's', t->base + strlen("struct "));
    t->size = d ? d->value : -1; /* unknown is fine behind a pointer */
    return 0;
  }
  for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
    if (strcmp(builtins[i].text, t->base) == 0) {
      t->size = builtins[i].size;
      t->is_signed = builtins[i].is_signed;
      return 0;
    }
  if (strchr(t->base, ' ') || !find_decl(s, 't', t->base)) {
    sg_error(s, t->loc, "unknown type '%s'", t->base);
    return -1;
  }
  sg_decl *d = find_decl(s, 't', t->base);
  sg_type *u = d->type;
  if (resolve_type(s, u) != 0)
    return -1;
  if (u->ptr) { /* typedef of a pointer type: a scalar of 8 bytes here */
    t->size = 8;
    t->is_signed = 0;
  } else {
    t->size = u->size;
    t->is_signed = u->is_signed;
    t->is_struct = u->is_struct;
  }
  return 0;
}

static long type_size(const sg_type *t) { return t->ptr ? 8 : t->size; }

/* ---- expressions ---- */

typedef struct ctx {
  sg_spec *s;
  sg_proto *p;
  int in_pre; /* 1: inside pre(); 2: inside SIGMASK (read before the call) */
  int pure;   /* 1: no memory (no load, *p, pre()); 2: nor retval */
  const char *what; /* the clause, for pure's messages */
} ctx;

static int find_param(const sg_proto *p, const char *name)
{
  for (int i = 0; i < p->nparams; i++)
    if (p->params[i].name && strcmp(p->params[i].name, name) == 0)
      return i;
  return -1;
}

static int load_width(const char *name, int *is_signed)
{
  static const struct { const char *n; int w, sg; } loads[] = {
    { "load8", 1, 0 }, { "load16", 2, 0 }, { "load32", 4, 0 }, { "load64", 8, 0 },
    { "sload8", 1, 1 }, { "sload16", 2, 1 }, { "sload32", 4, 1 }, { "sload64", 8, 1 },
  };
  for (size_t i = 0; i < sizeof loads / sizeof *loads; i++)
    if (strcmp(loads[i].n, name) == 0) {
      *is_signed = loads[i].sg;
      return loads[i].w;
    }
  return 0;
}

static void resolve_expr(ctx *c, sg_expr *e)
{
  if (!e)
    return;
  sg_spec *s = c->s;
  switch (e->kind) {
  case E_NUM:
    return;
  case E_RETVAL:
    if (c->pure == 2)
      sg_error(s, e->loc, "%s is known before the call: no retval in it", c->what);
    if (c->in_pre)
      sg_error(s, e->loc, "retval is not known before the call (inside %s)",
               c->in_pre == 2 ? "SIGMASK" : "pre()");
    return;
  case E_NAME: {
    e->arg = find_param(c->p, e->name);
    if (e->arg >= 0)
      return;
    sg_decl *d = find_decl(s, 'c', e->name);
    if (d) {
      e->value = d->value;
      return;
    }
    sg_error(s, e->loc, "unknown name '%s' (not a parameter of '%s' nor a constant)",
             e->name, c->p->name);
    return;
  }
  case E_DEREF: {
    if (c->pure)
      sg_error(s, e->loc, "%s reads no memory: no '*%s' in it", c->what, e->name);
    e->arg = find_param(c->p, e->name);
    if (e->arg < 0) {
      sg_error(s, e->loc, "unknown parameter '%s' in '*%s'", e->name, e->name);
      return;
    }
    sg_type *t = c->p->params[e->arg].type;
    long sz = t->ptr > 1 ? 8 : t->size;
    if (t->ptr == 0 || (t->ptr == 1 && t->is_struct) ||
        !(sz == 1 || sz == 2 || sz == 4 || sz == 8)) {
      sg_error(s, e->loc, "cannot read '*%s': '%s' is not a pointer to a scalar",
               e->name, t->text);
      return;
    }
    e->num = t->ptr > 1 ? 8 : (t->is_signed ? -sz : sz);
    return;
  }
  case E_CALL: {
    int sg = 0;
    int w = load_width(e->name, &sg);
    int want = (strcmp(e->name, "min") == 0 || strcmp(e->name, "max") == 0) ? 2 : 1;
    if (strcmp(e->name, "regular") == 0) {
      sg_error(s, e->loc, "regular(fd) is only for ACQUIRES(!regular(fd))");
      return;
    }
    if (strcmp(e->name, "msghdr") == 0 || strcmp(e->name, "msg_len") == 0) {
      sg_error(s, e->loc, "'%s' is a WRITES size shape, not a function", e->name);
      return;
    }
    if (!w && want == 1 && strcmp(e->name, "pre") != 0) {
      sg_error(s, e->loc, "unknown function '%s' (min, max, pre, load8..load64, sload8..sload64)",
               e->name);
      return;
    }
    if (c->pure && want == 1) {
      sg_error(s, e->loc, "%s reads no memory: no '%s' in it", c->what, e->name);
      return;
    }
    if (e->num != want) {
      sg_error(s, e->loc, "'%s' takes %d argument%s, not %lld", e->name, want,
               want == 1 ? "" : "s", e->num);
      return;
    }
    if (w) {
      e->kind = E_LOAD;
      e->num = sg ? -w : w;
      resolve_expr(c, e->a);
    } else if (want == 2) {
      e->kind = e->name[1] == 'i' ? E_MIN : E_MAX;
      resolve_expr(c, e->a);
      resolve_expr(c, e->b);
    } else {
      if (c->in_pre) {
        sg_error(s, e->loc, c->in_pre == 2 ? "SIGMASK is read before the call: no pre() in it"
                                           : "pre() cannot be nested");
        return;
      }
      e->kind = E_PRE;
      if (c->p->npre == RDB_SYS_NPRE)
        sg_error(s, e->loc, "'%s' needs more than %d pre() values", c->p->name, RDB_SYS_NPRE);
      e->pre_slot = c->p->npre++;
      c->in_pre = 1;
      resolve_expr(c, e->a);
      c->in_pre = 0;
    }
    return;
  }
  case E_SIZEOF:
    if (resolve_type(s, e->type) != 0)
      return;
    if (type_size(e->type) < 0) {
      if (e->type->is_struct)
        sg_error(s, e->loc, "size of '%s' is unknown: declare it, e.g. '%s = 16;'",
                 e->type->base, e->type->base);
      else
        sg_error(s, e->loc, "sizeof(%s) has no size", e->type->text);
      return;
    }
    e->kind = E_NUM;
    e->num = type_size(e->type);
    return;
  default:
    resolve_expr(c, e->a);
    resolve_expr(c, e->b);
    resolve_expr(c, e->c);
    return;
  }
}

/* ---- WRITES ---- */

/* The shape of a WRITES or SENDS clause (for messages: clause, and verb
 * for its bytes), from the type of its target t: plain; COUNT iovecs;
 * COUNT struct mmsghdr's msg_len (w->size is "msg_len", no expression);
 * msghdr(BYTES) (w->size becomes BYTES).  0 after an error. */
static int resolve_shape(ctx *c, sg_writes *w, const sg_type *t, const char *clause,
                         const char *verb)
{
  sg_spec *s = c->s;
  w->shape = SH_PLAIN;
  if (w->count) {
    resolve_expr(c, w->count);
    if (t->ptr == 1 && strcmp(t->base, "struct iovec") == 0) {
      w->shape = SH_IOVEC;
    } else if (t->ptr == 1 && strcmp(t->base, "struct mmsghdr") == 0) {
      w->shape = SH_MMSG_LEN;
      if (w->size->kind != E_NAME || strcmp(w->size->name, "msg_len") != 0)
        sg_error(s, w->size->loc, "an array of struct mmsghdr is %s as '= msg_len'", verb);
    } else {
      sg_error(s, w->name_loc,
               "array %s need 'struct iovec' or 'struct mmsghdr' elements, not '%s'", clause,
               t->text);
      return 0;
    }
  } else if (w->size->kind == E_CALL && strcmp(w->size->name, "msghdr") == 0) {
    if (t->ptr != 1 || strcmp(t->base, "struct msghdr") != 0) {
      sg_error(s, w->size->loc, "msghdr() sizes a 'struct msghdr *', not '%s'", t->text);
      return 0;
    }
    if (w->size->num != 1) {
      sg_error(s, w->size->loc, "msghdr() takes 1 argument (the bytes received)");
      return 0;
    }
    w->shape = SH_MSGHDR;
    w->size = w->size->a;
  }
  return 1;
}

static void resolve_writes(ctx *c, sg_writes *w)
{
  sg_spec *s = c->s;
  if (w->resolved)
    return; /* shared by several request labels: resolved once */
  w->resolved = 1;
  w->arg = find_param(c->p, w->name);
  if (w->arg < 0) {
    sg_error(s, w->name_loc, "WRITES names '%s', which is not a parameter of '%s'",
             w->name, c->p->name);
    return;
  }
  sg_type *t = c->p->params[w->arg].type;
  if (!t->ptr && !(t->size == 8 && !t->is_struct && c->p->params[w->arg].writes != w)) {
    sg_error(s, w->name_loc, "WRITES target '%s' is not a pointer (type '%s')", w->name, t->text);
    return;
  }
  resolve_expr(c, w->cond);
  if (!resolve_shape(c, w, t, "WRITES", "written") || w->shape == SH_MMSG_LEN)
    return;
  if (w->shape == SH_MSGHDR) {
    if (c->p->npre == RDB_SYS_NPRE)
      sg_error(s, w->loc, "'%s' needs more than %d pre() values", c->p->name, RDB_SYS_NPRE);
    w->pre_slot = c->p->npre++;
  }
  resolve_expr(c, w->size);
}

/* SENDS{ p = BYTES }, { iov[COUNT] = BYTES }, { msg = msghdr(BYTES) },
 * { vec[COUNT] = msg_len }: the shapes of WRITES, over values only (the
 * runtime reads the memory itself, replay included, where no call ran). */
static void resolve_sends(ctx *c, sg_writes *w)
{
  sg_spec *s = c->s;
  w->arg = find_param(c->p, w->name);
  if (w->arg < 0) {
    sg_error(s, w->name_loc, "SENDS names '%s', which is not a parameter of '%s'",
             w->name, c->p->name);
    return;
  }
  sg_type *t = c->p->params[w->arg].type;
  if (!t->ptr) {
    sg_error(s, w->name_loc, "SENDS source '%s' is not a pointer (type '%s')", w->name, t->text);
    return;
  }
  c->pure = 1;
  c->what = "SENDS";
  resolve_expr(c, w->cond);
  if (resolve_shape(c, w, t, "SENDS", "sent") && w->shape != SH_MMSG_LEN)
    resolve_expr(c, w->size);
  c->pure = 0;
}

/* The fact attributes (FILEWRITE, FILECHANGE, NEWFD, SIGSTATE). */
static void resolve_facts(ctx *c, sg_proto *p)
{
  sg_spec *s = c->s;
  if (p->sends)
    resolve_sends(c, p->sends);
  if (p->wfd_name) {
    /* The fd is a parameter: the runtime asks it before the call (rr.c
     * rdb_rr_std_write); POS and RWF may use retval and memory after it. */
    if (p->wfd_name->kind != E_NAME || (p->wfd = find_param(p, p->wfd_name->name)) < 0)
      sg_error(s, p->wloc, "FILEWRITE's first argument is a parameter of '%s' (the fd)", p->name);
    resolve_expr(c, p->wpos);
    resolve_expr(c, p->wrwf);
  }
  resolve_expr(c, p->chfd);
  c->pure = 2;
  c->what = "NEWFD";
  resolve_expr(c, p->newfd);
  c->what = "SIGSTATE";
  resolve_expr(c, p->ss_ptr);
  resolve_expr(c, p->ss_size);
  c->pure = 0;
}

/* ---- prototypes ---- */

static void check_proto(sg_spec *s, sg_proto *p, const sg_numbers *nums)
{
  ctx c = { s, p, 0, 0, NULL };
  p->nr = sg_number(nums, p->name);
  if (p->nr < 0)
    sg_error(s, p->name_loc, "unknown syscall '%s': not in the kernel's unistd_64.h", p->name);
  for (sg_proto *q = s->protos; q != p; q = q->next)
    if (strcmp(q->name, p->name) == 0) {
      sg_error(s, p->name_loc, "duplicate syscall '%s' (first declared at %d:%d)",
               p->name, q->name_loc.line, q->name_loc.col);
      break;
    }
  resolve_type(s, p->ret);
  for (int i = 0; i < p->nparams; i++) {
    sg_param *a = &p->params[i];
    if (resolve_type(s, a->type) == 0 && !a->type->ptr && a->type->size < 0)
      sg_error(s, a->loc, "parameter '%s' has type '%s', which has no size", a->name,
               a->type->text);
    if (!a->type->ptr && a->type->is_struct)
      sg_error(s, a->loc, "parameter '%s' is a struct passed by value", a->name);
    for (int j = 0; j < i; j++)
      if (strcmp(p->params[j].name, a->name) == 0)
        sg_error(s, a->loc, "duplicate parameter '%s'", a->name);
  }
  for (sg_writes *w = p->writes; w; w = w->next)
    resolve_writes(&c, w);
  if ((p->attrs & A_REFUSED) &&
      ((p->attrs & ~(unsigned)A_REFUSED) || p->mask_ptr || p->sends || p->wfd_name || p->chfd ||
       p->newfd || p->ss_ptr))
    sg_error(s, p->loc, "'%s' is REFUSED: it never runs (no other attribute)", p->name);
  resolve_facts(&c, p);
  /* ACQUIRES(!regular(fd)): the runtime asks fstat, the table names fd. */
  sg_expr *q = p->acq_cond;
  if (q && q->kind == E_NOT && q->a->kind == E_CALL && strcmp(q->a->name, "regular") == 0) {
    if (q->a->num != 1 || q->a->a->kind != E_NAME ||
        (p->acq_fd = find_param(p, q->a->a->name)) < 0)
      sg_error(s, q->a->loc, "regular() takes a parameter of '%s' (an fd)", p->name);
    p->acq_cond = NULL;
  }
  resolve_expr(&c, p->acq_cond);
  if (p->mask_ptr) {
    c.in_pre = 2;
    resolve_expr(&c, p->mask_ptr);
    resolve_expr(&c, p->mask_size);
    c.in_pre = 0;
  }
  if (p->req_sel) {
    if (p->req_sel->kind != E_NAME || find_param(p, p->req_sel->name) < 0) {
      sg_error(s, p->req_sel->loc, "REQUESTS selects on a parameter of '%s'", p->name);
    } else {
      resolve_expr(&c, p->req_sel);
    }
    int ndefault = 0;
    for (sg_request *r = p->requests; r; r = r->next) {
      if (r->is_default) {
        if (ndefault++)
          sg_error(s, r->loc, "two 'default' labels in '%s' REQUESTS", p->name);
        if (r->writes)
          sg_error(s, r->loc, "'default' writes nothing; list the requests that write");
      } else if (r->name) {
        sg_decl *d = find_decl(s, 'c', r->name);
        if (!d)
          sg_error(s, r->loc, "unknown request '%s': declare it in an enum", r->name);
        else
          r->value = d->value;
      }
      for (sg_request *q = p->requests; q != r; q = q->next)
        if (!q->is_default && !r->is_default && q->value == r->value &&
            (r->name == NULL || find_decl(s, 'c', r->name))) {
          sg_error(s, r->loc, "request %s%s0x%llx is listed twice", r->name ? r->name : "",
                   r->name ? " = " : "", (unsigned long long)r->value);
          break;
        }
      for (sg_writes *w = r->writes; w; w = w->next)
        resolve_writes(&c, w);
    }
  } else if (p->requests) {
    sg_error(s, p->loc, "request labels without REQUESTS");
  }
}

int sg_check(sg_spec *s, const sg_numbers *nums)
{
  int before = s->nerrors;
  for (sg_decl *d = s->decls; d; d = d->next) {
    sg_decl *first = find_decl(s, d->kind, d->name);
    if (first != d)
      sg_error(s, d->loc, "'%s' is declared twice (first at %d:%d)", d->name,
               first->loc.line, first->loc.col);
    if (d->kind == 's' && d->value <= 0)
      sg_error(s, d->loc, "struct %s has size %lld", d->name, d->value);
    if (d->kind == 't')
      resolve_type(s, d->type);
    if (d->kind == 'c' && find_decl(s, 't', d->name))
      sg_error(s, d->loc, "'%s' is both a type and a constant", d->name);
  }
  for (sg_proto *p = s->protos; p; p = p->next)
    check_proto(s, p, nums);
  return s->nerrors - before;
}
