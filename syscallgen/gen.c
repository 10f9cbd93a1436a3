/* gen.c: writes the C the runtime compiles: one writes-function per
 * modelled syscall (and per written request), the row table indexed by
 * kernel number, the lookups, and a header of RDB_NR_* numbers. The output
 * is freestanding (stddef/stdint only) and reads program memory only where
 * the kernel read or wrote it in the same call, or through the runtime's
 * peek callback before the call. All values are computed as long. */
#include <stdlib.h>
#include <string.h>
#include "rdb_syscalls.h"
#include "syscallgen.h"
#include "spec.tab.h"

/* Helpers every generated file starts with. */
static const char prelude[] =
  "typedef uint8_t rdb__u8u __attribute__((aligned(1), may_alias));\n"
  "typedef uint16_t rdb__u16u __attribute__((aligned(1), may_alias));\n"
  "typedef uint32_t rdb__u32u __attribute__((aligned(1), may_alias));\n"
  "typedef uint64_t rdb__u64u __attribute__((aligned(1), may_alias));\n"
  "\n"
  "/* Loads after the call, from memory the kernel just used; 0 at NULL. */\n"
  "static inline __attribute__((unused)) long rdb__ld(long a, int w, int sg)\n"
  "{\n"
  "  if (a == 0)\n"
  "    return 0;\n"
  "  /* An address from the program, not an object the compiler knows of:\n"
  "   * hide its provenance so -Warray-bounds does not guess at it. */\n"
  "  __asm__(\"\" : \"+r\"(a));\n"
  "  const volatile void *p = (const volatile void *)(uintptr_t)a;\n"
  "  switch (w) {\n"
  "  case 1: return sg ? (long)(int8_t)*(const volatile rdb__u8u *)p : (long)*(const volatile rdb__u8u *)p;\n"
  "  case 2: return sg ? (long)(int16_t)*(const volatile rdb__u16u *)p : (long)*(const volatile rdb__u16u *)p;\n"
  "  case 4: return sg ? (long)(int32_t)*(const volatile rdb__u32u *)p : (long)*(const volatile rdb__u32u *)p;\n"
  "  default: return (long)*(const volatile rdb__u64u *)p;\n"
  "  }\n"
  "}\n"
  "\n"
  "/* Loads before the call, through the runtime's peek; 0 if unreadable\n"
  " * (the page at 0 never is: NULL + offset is not passed to peek). */\n"
  "static inline __attribute__((unused)) long rdb__pk(rdb_peek_fn peek, void *ctx, long a, int w, int sg)\n"
  "{\n"
  "  unsigned char b[8];\n"
  "  if ((unsigned long)a < 4096 || peek(ctx, (uintptr_t)a, b, (size_t)w) != 0)\n"
  "    return 0;\n"
  "  uint64_t v = 0;\n"
  "  for (int i = w - 1; i >= 0; i--)\n"
  "    v = v << 8 | b[i];\n"
  "  if (sg && w < 8 && (v >> (8 * w - 1)) & 1)\n"
  "    v |= ~(uint64_t)0 << (8 * w);\n"
  "  return (long)v;\n"
  "}\n"
  "\n"
  "static inline __attribute__((unused)) long rdb__min(long a, long b) { return a < b ? a : b; }\n"
  "static inline __attribute__((unused)) long rdb__max(long a, long b) { return a > b ? a : b; }\n"
  "\n"
  "static __attribute__((unused)) void rdb__region(rdb_region_fn emit, void *ctx, long addr, long len)\n"
  "{\n"
  "  if (addr != 0 && len > 0)\n"
  "    emit(ctx, (uintptr_t)addr, (size_t)len);\n"
  "}\n"
  "\n"
  "/* struct iovec { void *base; size_t len; }: 16 bytes. The kernel fills\n"
  " * the buffers in order; bytes is how much it wrote in all. */\n"
  "static __attribute__((unused)) void rdb__iovec(rdb_region_fn emit, void *ctx, long iov, long cnt, long bytes)\n"
  "{\n"
  "  if (iov == 0)\n"
  "    return;\n"
  "  for (long i = 0; i < cnt && bytes > 0; i++) {\n"
  "    long base = rdb__ld(iov + 16 * i, 8, 0);\n"
  "    long len = rdb__ld(iov + 16 * i + 8, 8, 0);\n"
  "    if (len < 0 || len > bytes)\n"
  "      len = bytes;\n"
  "    rdb__region(emit, ctx, base, len);\n"
  "    bytes -= len;\n"
  "  }\n"
  "}\n"
  "\n"
  "/* struct msghdr (x86-64 kernel): name 0, namelen 8 (u32), iov 16,\n"
  " * iovlen 24, control 32, controllen 40, flags 48 (u32); 56 bytes.\n"
  " * recvmsg writes min(namelen before, namelen after) name bytes and the\n"
  " * new namelen (only when name is set), bytes of data over the iovecs,\n"
  " * controllen (after: the bytes used) of control data, controllen, flags. */\n"
  "static __attribute__((unused)) void rdb__msghdr(rdb_region_fn emit, void *ctx, long msg, long bytes, long namelen_before)\n"
  "{\n"
  "  long name = rdb__ld(msg, 8, 0);\n"
  "  if (name != 0) {\n"
  "    rdb__region(emit, ctx, name, rdb__min(namelen_before, rdb__ld(msg + 8, 4, 0)));\n"
  "    rdb__region(emit, ctx, msg + 8, 4);\n"
  "  }\n"
  "  rdb__iovec(emit, ctx, rdb__ld(msg + 16, 8, 0), rdb__ld(msg + 24, 8, 0), bytes);\n"
  "  rdb__region(emit, ctx, rdb__ld(msg + 32, 8, 0), rdb__ld(msg + 40, 8, 0));\n"
  "  rdb__region(emit, ctx, msg + 40, 8);\n"
  "  rdb__region(emit, ctx, msg + 48, 4);\n"
  "}\n"
  "\n"
  "/* struct mmsghdr { struct msghdr hdr; unsigned len; }: 64 bytes, len at 56. */\n"
  "static __attribute__((unused)) void rdb__mmsg_len(rdb_region_fn emit, void *ctx, long vec, long cnt)\n"
  "{\n"
  "  for (long i = 0; i < cnt; i++)\n"
  "    rdb__region(emit, ctx, vec + 64 * i + 56, 4);\n"
  "}\n"
  "\n"
  "static int rdb__streq(const char *a, const char *b)\n"
  "{\n"
  "  while (*a && *a == *b)\n"
  "    a++, b++;\n"
  "  return *a == *b;\n"
  "}\n"
  "\n";

static const char *op_text(int op)
{
  switch (op) {
  case OROR: return "||";
  case ANDAND: return "&&";
  case EQ: return "==";
  case NE: return "!=";
  case LE: return "<=";
  case GE: return ">=";
  case SHL: return "<<";
  case SHR: return ">>";
  case '|': return "|";
  case '^': return "^";
  case '&': return "&";
  case '<': return "<";
  case '>': return ">";
  case '+': return "+";
  case '-': return "-";
  case '*': return "*";
  case '/': return "/";
  case '%': return "%";
  }
  abort();
}

static void arg_value(FILE *o, const sg_type *t, int i)
{
  if (t->ptr || t->size == 8) {
    fprintf(o, "args[%d]", i);
    return;
  }
  static const char *const s[] = { "signed char", "short", "", "int" };
  static const char *const u[] = { "unsigned char", "unsigned short", "", "unsigned int" };
  long sz = t->size < 1 || t->size > 4 || t->size == 3 ? 4 : t->size;
  fprintf(o, "(long)(%s)args[%d]", t->is_signed ? s[sz - 1] : u[sz - 1], i);
}

/* mode 0: in a writes function (post); mode 1: in a pre function. */
static void expr(FILE *o, const sg_proto *p, const sg_expr *e, int mode)
{
  switch (e->kind) {
  case E_NUM:
    fprintf(o, "%lldL", e->num);
    return;
  case E_RETVAL:
    fputs("retval", o);
    return;
  case E_NAME:
    if (e->arg >= 0)
      arg_value(o, p->params[e->arg].type, e->arg);
    else
      fprintf(o, "%lldL", e->value);
    return;
  case E_DEREF:
  case E_LOAD: {
    int w = (int)(e->num < 0 ? -e->num : e->num), sg = e->num < 0;
    fputs(mode ? "rdb__pk(peek, ctx, " : "rdb__ld(", o);
    if (e->kind == E_DEREF)
      fprintf(o, "args[%d]", e->arg);
    else
      expr(o, p, e->a, mode);
    fprintf(o, ", %d, %d)", w, sg);
    return;
  }
  case E_PRE:
    fprintf(o, "pre[%d]", e->pre_slot);
    return;
  case E_MIN:
  case E_MAX:
    fputs(e->kind == E_MIN ? "rdb__min(" : "rdb__max(", o);
    expr(o, p, e->a, mode);
    fputs(", ", o);
    expr(o, p, e->b, mode);
    fputc(')', o);
    return;
  case E_BIN:
    fputc('(', o);
    if (e->op == SHL)
      fputs("(long)((unsigned long)", o);
    expr(o, p, e->a, mode);
    fprintf(o, " %s ", op_text(e->op));
    expr(o, p, e->b, mode);
    if (e->op == SHL)
      fputc(')', o);
    fputc(')', o);
    return;
  case E_NOT:
  case E_NEG:
  case E_BNOT:
    fputs(e->kind == E_NOT ? "(!" : e->kind == E_NEG ? "(-" : "(~", o);
    expr(o, p, e->a, mode);
    fputc(')', o);
    return;
  case E_COND:
    fputc('(', o);
    expr(o, p, e->a, mode);
    fputs(" ? ", o);
    expr(o, p, e->b, mode);
    fputs(" : ", o);
    expr(o, p, e->c, mode);
    fputc(')', o);
    return;
  case E_SIZEOF:
  case E_CALL:
    break;
  }
  abort(); /* sema rewrote these */
}

/* Emits pre[slot] = ... for every pre() inside e. */
static void pre_exprs(FILE *o, const sg_proto *p, const sg_expr *e)
{
  if (!e)
    return;
  if (e->kind == E_PRE) {
    fprintf(o, "  pre[%d] = ", e->pre_slot);
    expr(o, p, e->a, 1);
    fputs(";\n", o);
    return;
  }
  pre_exprs(o, p, e->a);
  pre_exprs(o, p, e->b);
  pre_exprs(o, p, e->c);
}

static void pre_writes(FILE *o, const sg_proto *p, const sg_writes *w)
{
  for (; w; w = w->next) {
    pre_exprs(o, p, w->cond);
    pre_exprs(o, p, w->count);
    pre_exprs(o, p, w->size);
    if (w->shape == SH_MSGHDR)
      fprintf(o, "  pre[%d] = args[%d] ? rdb__pk(peek, ctx, args[%d] + 8, 4, 0) : 0;\n",
              w->pre_slot, w->arg, w->arg);
  }
}

/* The function of the generated prelude (above) that emits each shape's regions. */
static const char *const shape_helper[] = {
  [SH_PLAIN] = "rdb__region",
  [SH_IOVEC] = "rdb__iovec",
  [SH_MSGHDR] = "rdb__msghdr",
  [SH_MMSG_LEN] = "rdb__mmsg_len",
};

/* A clause's condition, or dflt when it has none. */
static void cond_or(FILE *o, const sg_proto *p, const sg_expr *cond, const char *dflt)
{
  if (cond)
    expr(o, p, cond, 0);
  else
    fputs(dflt, o);
}

static void writes_body(FILE *o, const sg_proto *p, const sg_writes *w)
{
  for (; w; w = w->next) {
    fprintf(o, "  if (args[%d] != 0 && ", w->arg);
    cond_or(o, p, w->cond, "retval >= 0");
    fputs(")\n    ", o);
    /* helper(emit, ctx, address [, count] [, size] [, pre]) */
    fprintf(o, "%s(emit, ctx, args[%d]", shape_helper[w->shape], w->arg);
    if (w->shape == SH_IOVEC || w->shape == SH_MMSG_LEN) {
      fputs(", ", o);
      expr(o, p, w->count, 0);
    }
    if (w->shape != SH_MMSG_LEN) {
      fputs(", ", o);
      expr(o, p, w->size, 0);
    }
    if (w->shape == SH_MSGHDR)
      fprintf(o, ", pre[%d]", w->pre_slot);
    fputs(");\n", o);
  }
}

static const char sig_writes[] =
  "(const long args[RDB_SYS_MAXARGS], const long pre[RDB_SYS_NPRE], long retval,\n"
  "  rdb_region_fn emit, void *ctx)";

static int has_writes(const sg_proto *p)
{
  if (p->writes)
    return 1;
  for (sg_request *r = p->requests; r; r = r->next)
    if (r->writes)
      return 1;
  return 0;
}

static void req_fn_name(FILE *o, const sg_proto *p, const sg_request *r, int i)
{
  if (r->name)
    fprintf(o, "rdb_sys_writes_%s__%s", p->name, r->name);
  else
    fprintf(o, "rdb_sys_writes_%s__%d", p->name, i);
}

static int type_bits(const sg_type *t) { return t->ptr || t->size == 8 ? 64 : 32; }

static int nrequests(const sg_proto *p)
{
  int n = 0;
  for (sg_request *r = p->requests; r; r = r->next)
    n += !r->is_default;
  return n;
}

static int has_default(const sg_proto *p)
{
  for (sg_request *r = p->requests; r; r = r->next)
    if (r->is_default)
      return 1;
  return 0;
}

/* The fact attributes' functions (rdb_syscalls.h rdb_sys_fact). */
static const char *const fact_names[RDB_SYS_NFACTS] = {
  [RDB_SYS_FACT_SENDS] = "sends", [RDB_SYS_FACT_FILEWRITE] = "filewrite",
  [RDB_SYS_FACT_FILECHANGE] = "filechange", [RDB_SYS_FACT_NEWFD] = "newfd",
  [RDB_SYS_FACT_SIGSTATE] = "sigstate",
};

static int has_fact(const sg_proto *p, int k)
{
  switch (k) {
  case RDB_SYS_FACT_SENDS: return p->sends != NULL;
  case RDB_SYS_FACT_FILEWRITE: return p->wfd >= 0;
  case RDB_SYS_FACT_FILECHANGE: return p->chfd != NULL;
  case RDB_SYS_FACT_NEWFD: return p->newfd != NULL;
  case RDB_SYS_FACT_SIGSTATE: return p->ss_ptr != NULL;
  }
  return 0;
}

static void fact_out(FILE *o, const sg_proto *p, int i, const sg_expr *e, const char *dflt)
{
  fprintf(o, "  out[%d] = ", i);
  if (e)
    expr(o, p, e, 0);
  else
    fputs(dflt, o);
  fputs(";\n", o);
}

static void gen_facts(FILE *o, const sg_proto *p)
{
  for (int k = 0; k < RDB_SYS_NFACTS; k++) {
    if (!has_fact(p, k))
      continue;
    fprintf(o, "static int rdb_sys_%s_%s(const long args[RDB_SYS_MAXARGS], long retval, "
               "long out[4])\n{\n  (void)args, (void)retval;\n", fact_names[k], p->name);
    const sg_writes *w = p->sends;
    switch (k) {
    case RDB_SYS_FACT_SENDS:
      fprintf(o, "  if (args[%d] == 0 || !(", w->arg);
      cond_or(o, p, w->cond, "retval > 0");
      fputs("))\n    return 0;\n", o);
      static const char *const shapes[] = { [SH_PLAIN] = "RDB_SYS_SHAPE_PLAIN",
        [SH_IOVEC] = "RDB_SYS_SHAPE_IOVEC", [SH_MSGHDR] = "RDB_SYS_SHAPE_MSGHDR",
        [SH_MMSG_LEN] = "RDB_SYS_SHAPE_MMSG" };
      fprintf(o, "  out[0] = %s;\n  out[1] = args[%d];\n", shapes[w->shape], w->arg);
      fact_out(o, p, 2, w->count, "0");
      fact_out(o, p, 3, w->shape == SH_MMSG_LEN ? NULL : w->size, "0"); /* (msg_len) */
      fputs("  return 1;\n", o);
      break;
    case RDB_SYS_FACT_FILEWRITE:
      fputs("  out[0] = ", o);
      arg_value(o, p->params[p->wfd].type, p->wfd);
      fputs(";\n", o);
      fact_out(o, p, 1, p->wpos, "-1");
      fact_out(o, p, 2, p->wrwf, "0");
      fprintf(o, "  out[3] = %d;\n  return 1;\n", p->wpos != NULL);
      break;
    case RDB_SYS_FACT_FILECHANGE:
      fact_out(o, p, 0, p->chfd, "-1");
      fputs("  return out[0] >= 0;\n", o);
      break;
    case RDB_SYS_FACT_NEWFD:
      fact_out(o, p, 0, p->newfd, "-1");
      fputs("  return out[0] >= 0;\n", o);
      break;
    case RDB_SYS_FACT_SIGSTATE:
      fact_out(o, p, 0, p->ss_ptr, "0");
      fact_out(o, p, 1, p->ss_size, "0");
      fputs("  return out[0] != 0;\n", o);
      break;
    }
    fputs("}\n\n", o);
  }
}

static void gen_proto_fns(FILE *o, const sg_proto *p)
{
  if (p->attrs & A_REFUSED)
    return;
  if (p->npre) {
    fprintf(o, "void rdb_sys_pre_%s(const long args[RDB_SYS_MAXARGS], long pre[RDB_SYS_NPRE],\n"
               "  rdb_peek_fn peek, void *ctx)\n{\n", p->name);
    pre_writes(o, p, p->writes);
    for (sg_request *r = p->requests; r; r = r->next)
      if (!r->next || r->next->writes != r->writes) /* shared lists once */
        pre_writes(o, p, r->writes);
    fputs("}\n\n", o);
  }
  int i = 0;
  for (sg_request *r = p->requests; r; r = r->next, i++) {
    if (!r->writes || (r->next && r->next->writes == r->writes))
      continue; /* labels sharing a list use the last label's function */
    fputs("static void ", o);
    req_fn_name(o, p, r, i);
    fprintf(o, "%s\n{\n  (void)pre;\n", sig_writes);
    writes_body(o, p, r->writes);
    fputs("}\n\n", o);
  }
  if (nrequests(p)) {
    fprintf(o, "static const struct rdb_sys_request rdb_sys_req_%s[] = {\n", p->name);
    i = 0;
    for (sg_request *r = p->requests; r; r = r->next, i++) {
      if (r->is_default)
        continue;
      fprintf(o, "  { %#llxUL, \"%s\", ", (unsigned long long)r->value, r->name ? r->name : "");
      if (r->writes) {
        const sg_request *last = r;
        int j = i;
        while (last->next && last->next->writes == r->writes)
          last = last->next, j++;
        req_fn_name(o, p, last, j);
      } else {
        fputs("0", o);
      }
      fputs(" },\n", o);
    }
    fputs("};\n\n", o);
  }
  if (p->acq_cond) {
    fprintf(o, "static int rdb_sys_acq_%s(const long args[RDB_SYS_MAXARGS], long retval)\n"
               "{\n  (void)retval;\n  return ", p->name);
    expr(o, p, p->acq_cond, 0);
    fputs(" != 0;\n}\n\n", o);
  }
  if (p->mask_ptr) {
    fprintf(o, "static void rdb_sys_sigmask_%s(const long args[RDB_SYS_MAXARGS], long out[2],\n"
               "  rdb_peek_fn peek, void *ctx)\n{\n  (void)peek, (void)ctx;\n  out[0] = ", p->name);
    expr(o, p, p->mask_ptr, 1);
    fputs(";\n  out[1] = ", o);
    expr(o, p, p->mask_size, 1);
    fputs(";\n}\n\n", o);
  }
  gen_facts(o, p);
  if (!has_writes(p))
    return;
  fprintf(o, "void rdb_sys_writes_%s%s\n{\n  (void)pre;\n", p->name, sig_writes);
  writes_body(o, p, p->writes);
  if (nrequests(p)) {
    const sg_type *t = p->params[p->req_sel->arg].type;
    fprintf(o, "  unsigned long sel = (unsigned long)%sargs[%d];\n",
            type_bits(t) == 32 ? "(unsigned int)" : "", p->req_sel->arg);
    fprintf(o, "  for (size_t i = 0; i < sizeof rdb_sys_req_%s / sizeof *rdb_sys_req_%s; i++)\n"
               "    if (rdb_sys_req_%s[i].value == sel && rdb_sys_req_%s[i].writes)\n"
               "      rdb_sys_req_%s[i].writes(args, pre, retval, emit, ctx);\n",
            p->name, p->name, p->name, p->name, p->name);
  }
  fputs("}\n\n", o);
}

static int arg_kind(const sg_type *t)
{
  if (t->ptr)
    return t->ptr == 1 && t->is_const && strcmp(t->base, "char") == 0 ? RDB_ARG_STR : RDB_ARG_PTR;
  if (t->size == 8)
    return t->is_signed ? RDB_ARG_LONG : RDB_ARG_ULONG;
  return t->is_signed ? RDB_ARG_INT : RDB_ARG_UINT;
}

static void cstring(FILE *o, const char *s)
{
  fputc('"', o);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', o);
    fputc(*s, o);
  }
  fputc('"', o);
}

static const sg_proto *find_proto(const sg_spec *s, const char *name)
{
  for (const sg_proto *p = s->protos; p; p = p->next)
    if (strcmp(p->name, name) == 0)
      return p;
  return NULL;
}

static void gen_row(FILE *o, const sg_spec *s, const char *name, int nr)
{
  const sg_proto *p = find_proto(s, name);
  fprintf(o, "  [%d] = { \"%s\", %d, RDB_SYS_KNOWN", nr, name, nr);
  if (!p) {
    fputs(" | RDB_SYS_REFUSED, .refusal = \"not modelled in syscalls.spec\" },\n", o);
    return;
  }
  static const struct { unsigned a; const char *bit; } bits[] = {
    { A_REFUSED, "RDB_SYS_REFUSED" }, { A_ADDRSPACE, "RDB_SYS_ADDRSPACE" },
    { A_SIGNAL, "RDB_SYS_SIGNAL" }, { A_PROCESS, "RDB_SYS_PROCESS" },
    { A_REEXEC, "RDB_SYS_REEXEC" }, { A_ACQUIRES, "RDB_SYS_ACQUIRES" },
    { A_NOCUT, "RDB_SYS_NOCUT" }, { A_FORKS, "RDB_SYS_FORKS" }, { A_EXECS, "RDB_SYS_EXECS" },
    { A_CLOSES, "RDB_SYS_CLOSES" }, { A_EXITS, "RDB_SYS_EXITS" },
    { A_MAYBLOCK, "RDB_SYS_MAYBLOCK" },
  };
  static const char *const fact_bits[RDB_SYS_NFACTS] = {
    [RDB_SYS_FACT_SENDS] = "RDB_SYS_SENDS", [RDB_SYS_FACT_FILEWRITE] = "RDB_SYS_FILEWRITE",
    [RDB_SYS_FACT_FILECHANGE] = "RDB_SYS_FILECHANGE", [RDB_SYS_FACT_NEWFD] = "RDB_SYS_NEWFD",
    [RDB_SYS_FACT_SIGSTATE] = "RDB_SYS_SIGSTATE",
  };
  if (!(p->attrs & A_REFUSED))
    fputs(" | RDB_SYS_MODELLED", o);
  for (size_t i = 0; i < sizeof bits / sizeof *bits; i++)
    if (p->attrs & bits[i].a)
      fprintf(o, " | %s", bits[i].bit);
  if (p->req_sel && !(p->attrs & A_REFUSED))
    fputs(" | RDB_SYS_REQUESTS", o);
  if (p->mask_ptr && !(p->attrs & A_REFUSED))
    fputs(" | RDB_SYS_SIGMASK", o);
  for (int k = 0; k < RDB_SYS_NFACTS; k++)
    if (has_fact(p, k) && !(p->attrs & A_REFUSED))
      fprintf(o, " | %s", fact_bits[k]);
  fprintf(o, ",\n    .nargs = %d, .arg_kind = {", p->nparams);
  static const char *const kinds[] = { "0", "RDB_ARG_INT", "RDB_ARG_UINT", "RDB_ARG_LONG",
                                       "RDB_ARG_ULONG", "RDB_ARG_PTR", "RDB_ARG_STR" };
  for (int i = 0; i < p->nparams; i++)
    fprintf(o, "%s%s", i ? ", " : " ", kinds[arg_kind(p->params[i].type)]);
  fputs(" },\n    .arg_type = {", o);
  for (int i = 0; i < p->nparams; i++) {
    fputs(i ? ", " : " ", o);
    cstring(o, p->params[i].type->text);
  }
  fputs(" },\n    .arg_name = {", o);
  for (int i = 0; i < p->nparams; i++)
    fprintf(o, "%s\"%s\"", i ? ", " : " ", p->params[i].name);
  fputs(" }", o);
  if (p->attrs & A_REFUSED) {
    fputs(",\n    .refusal = ", o);
    cstring(o, p->refusal);
    fputs(" },\n", o);
    return;
  }
  if (p->npre)
    fprintf(o, ",\n    .pre = rdb_sys_pre_%s", p->name);
  if (has_writes(p))
    fprintf(o, ",\n    .writes = rdb_sys_writes_%s", p->name);
  if (p->req_sel) {
    fprintf(o, ",\n    .req_arg = %d, .req_bits = %d, .req_default = %d, .nrequests = %d",
            p->req_sel->arg, type_bits(p->params[p->req_sel->arg].type), has_default(p),
            nrequests(p));
    if (nrequests(p))
      fprintf(o, ", .requests = rdb_sys_req_%s", p->name);
  }
  if (p->acq_cond)
    fprintf(o, ",\n    .acq_cond = rdb_sys_acq_%s", p->name);
  if (p->acq_fd >= 0)
    fprintf(o, ",\n    .acq_fd = %d", p->acq_fd + 1);
  if (p->mask_ptr)
    fprintf(o, ",\n    .sigmask = rdb_sys_sigmask_%s", p->name);
  for (int k = 0; k < RDB_SYS_NFACTS; k++)
    if (has_fact(p, k))
      fprintf(o, ",\n    .fact[RDB_SYS_FACT_%s] = rdb_sys_%s_%s", fact_bits[k] + strlen("RDB_SYS_"),
              fact_names[k], p->name);
  if (p->wfd >= 0)
    fprintf(o, ",\n    .wfd = %d", p->wfd + 1);
  fputs(" },\n", o);
}

static const char lookups[] =
  "const struct rdb_sys_info *rdb_sys_info(long nr)\n"
  "{\n"
  "  if (nr < 0 || nr >= rdb_sys_table_len)\n"
  "    return 0;\n"
  "  return &rdb_sys_table[nr];\n"
  "}\n"
  "\n"
  "const char *rdb_sys_name(long nr)\n"
  "{\n"
  "  const struct rdb_sys_info *s = rdb_sys_info(nr);\n"
  "  return s ? s->name : 0;\n"
  "}\n"
  "\n"
  "long rdb_sys_number(const char *name)\n"
  "{\n"
  "  for (int i = 0; i < rdb_sys_table_len; i++)\n"
  "    if (rdb_sys_table[i].name && rdb__streq(rdb_sys_table[i].name, name))\n"
  "      return i;\n"
  "  return -1;\n"
  "}\n"
  "\n"
  "static const struct rdb_sys_request *rdb__request(const struct rdb_sys_info *s,\n"
  "  const long args[RDB_SYS_MAXARGS], unsigned long *sel)\n"
  "{\n"
  "  *sel = (unsigned long)args[s->req_arg];\n"
  "  if (s->req_bits == 32)\n"
  "    *sel = (unsigned int)*sel;\n"
  "  for (unsigned i = 0; i < s->nrequests; i++)\n"
  "    if (s->requests[i].value == *sel)\n"
  "      return &s->requests[i];\n"
  "  return 0;\n"
  "}\n"
  "\n"
  "const char *rdb_sys_refusal(long nr, const long args[RDB_SYS_MAXARGS])\n"
  "{\n"
  "  const struct rdb_sys_info *s = rdb_sys_info(nr);\n"
  "  unsigned long sel;\n"
  "  if (!s || !s->name)\n"
  "    return \"unknown syscall number\";\n"
  "  if (s->attrs & RDB_SYS_REFUSED)\n"
  "    return s->refusal;\n"
  "  if ((s->attrs & RDB_SYS_REQUESTS) && !s->req_default && !rdb__request(s, args, &sel))\n"
  "    return \"request not modelled in syscalls.spec\";\n"
  "  return 0;\n"
  "}\n"
  "\n"
  "static size_t rdb__put(char *buf, size_t cap, size_t n, const char *s)\n"
  "{\n"
  "  for (; *s; s++, n++)\n"
  "    if (n + 1 < cap)\n"
  "      buf[n] = *s;\n"
  "  return n;\n"
  "}\n"
  "\n"
  "static size_t rdb__putnum(char *buf, size_t cap, size_t n, unsigned long v, int hex)\n"
  "{\n"
  "  char d[24];\n"
  "  int i = 23;\n"
  "  d[i] = 0;\n"
  "  do {\n"
  "    d[--i] = \"0123456789abcdef\"[v % (hex ? 16 : 10)];\n"
  "    v /= hex ? 16 : 10;\n"
  "  } while (v);\n"
  "  if (hex) {\n"
  "    d[--i] = 'x';\n"
  "    d[--i] = '0';\n"
  "  }\n"
  "  return rdb__put(buf, cap, n, d + i);\n"
  "}\n"
  "\n"
  "size_t rdb_sys_refusal_message(long nr, const long args[RDB_SYS_MAXARGS], char *buf, size_t cap)\n"
  "{\n"
  "  const char *why = rdb_sys_refusal(nr, args);\n"
  "  const struct rdb_sys_info *s = rdb_sys_info(nr);\n"
  "  size_t n = 0;\n"
  "  if (!why)\n"
  "    return 0;\n"
  "  n = rdb__put(buf, cap, n, \"syscall \");\n"
  "  if (s && s->name) {\n"
  "    n = rdb__put(buf, cap, n, s->name);\n"
  "    n = rdb__put(buf, cap, n, \" (\");\n"
  "    n = rdb__putnum(buf, cap, n, (unsigned long)nr, 0);\n"
  "    n = rdb__put(buf, cap, n, \")\");\n"
  "  } else if (nr < 0) {\n"
  "    n = rdb__put(buf, cap, n, \"-\");\n"
  "    n = rdb__putnum(buf, cap, n, -(unsigned long)nr, 0);\n"
  "  } else {\n"
  "    n = rdb__putnum(buf, cap, n, (unsigned long)nr, 0);\n"
  "  }\n"
  "  if (s && s->name && !(s->attrs & RDB_SYS_REFUSED) && (s->attrs & RDB_SYS_REQUESTS)) {\n"
  "    unsigned long sel;\n"
  "    rdb__request(s, args, &sel);\n"
  "    n = rdb__put(buf, cap, n, \" request \");\n"
  "    n = rdb__putnum(buf, cap, n, sel, 1);\n"
  "    n = rdb__put(buf, cap, n, \" (argument \");\n"
  "    n = rdb__put(buf, cap, n, s->arg_name[s->req_arg]);\n"
  "    n = rdb__put(buf, cap, n, \")\");\n"
  "  }\n"
  "  n = rdb__put(buf, cap, n, \" refused: \");\n"
  "  n = rdb__put(buf, cap, n, why);\n"
  "  if (cap)\n"
  "    buf[n < cap ? n : cap - 1] = 0;\n"
  "  return n;\n"
  "}\n"
  "\n"
  "void rdb_sys_pre(long nr, const long args[RDB_SYS_MAXARGS], long pre[RDB_SYS_NPRE],\n"
  "  rdb_peek_fn peek, void *ctx)\n"
  "{\n"
  "  const struct rdb_sys_info *s = rdb_sys_info(nr);\n"
  "  for (int i = 0; i < RDB_SYS_NPRE; i++)\n"
  "    pre[i] = 0;\n"
  "  if (s && s->pre)\n"
  "    s->pre(args, pre, peek, ctx);\n"
  "}\n"
  "\n"
  "void rdb_sys_writes(long nr, const long args[RDB_SYS_MAXARGS], const long pre[RDB_SYS_NPRE],\n"
  "  long retval, rdb_region_fn emit, void *ctx)\n"
  "{\n"
  "  const struct rdb_sys_info *s = rdb_sys_info(nr);\n"
  "  if (s && s->writes)\n"
  "    s->writes(args, pre, retval, emit, ctx);\n"
  "}\n"
  "\n"
  "int rdb_sys_acquires(long nr, const long args[RDB_SYS_MAXARGS], long retval,\n"
  "  rdb_fd_regular_fn regular, void *ctx)\n"
  "{\n"
  "  const struct rdb_sys_info *s = rdb_sys_info(nr);\n"
  "  if (!s || !(s->attrs & RDB_SYS_ACQUIRES))\n"
  "    return 0;\n"
  "  if (s->acq_cond)\n"
  "    return s->acq_cond(args, retval);\n"
  "  if (s->acq_fd)\n"
  "    return !regular(ctx, args[s->acq_fd - 1]);\n"
  "  return 1;\n"
  "}\n"
  "\n"
  "int rdb_sys_sigmask(long nr, const long args[RDB_SYS_MAXARGS], long out[2],\n"
  "  rdb_peek_fn peek, void *ctx)\n"
  "{\n"
  "  const struct rdb_sys_info *s = rdb_sys_info(nr);\n"
  "  if (!s || !s->sigmask)\n"
  "    return 0;\n"
  "  s->sigmask(args, out, peek, ctx);\n"
  "  return 1;\n"
  "}\n"
  "\n"
  "int rdb_sys_fact(long nr, int kind, const long args[RDB_SYS_MAXARGS], long retval, long out[4])\n"
  "{\n"
  "  const struct rdb_sys_info *s = rdb_sys_info(nr);\n"
  "  if (!s || kind < 0 || kind >= RDB_SYS_NFACTS || !s->fact[kind])\n"
  "    return 0;\n"
  "  return s->fact[kind](args, retval, out);\n"
  "}\n";

void sg_gen_c(FILE *o, const sg_spec *s, const sg_numbers *nums)
{
  fprintf(o, "/* Generated by syscallgen from %s: do not edit. */\n", s->path);
  fputs("#include \"rdb_syscalls.h\"\n\n", o);
  fputs(prelude, o);
  for (const sg_proto *p = s->protos; p; p = p->next)
    gen_proto_fns(o, p);
  fprintf(o, "const int rdb_sys_table_len = %d;\n\n", nums->max + 1);
  fprintf(o, "const struct rdb_sys_info rdb_sys_table[%d] = {\n", nums->max + 1);
  for (int nr = 0; nr <= nums->max; nr++)
    for (int i = 0; i < nums->n; i++)
      if (nums->v[i].nr == nr) {
        gen_row(o, s, nums->v[i].name, nr);
        break; /* aliases: the first name wins */
      }
  fputs("};\n\n", o);
  fputs(lookups, o);
}

void sg_gen_h(FILE *o, const sg_spec *s, const sg_numbers *nums)
{
  fprintf(o, "/* Generated by syscallgen from %s and the kernel's unistd_64.h:\n"
             " * do not edit. The x86-64 syscall numbers, for code without libc. */\n"
             "#ifndef RDB_SYSNR_H\n#define RDB_SYSNR_H\n\n", s->path);
  for (int i = 0; i < nums->n; i++)
    fprintf(o, "#define RDB_NR_%s %d\n", nums->v[i].name, nums->v[i].nr);
  fprintf(o, "#define RDB_NR_MAX %d\n\n#endif\n", nums->max);
}
