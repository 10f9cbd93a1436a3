/* syscallgen.h: the private header of syscallgen, one section per file.
 * Pipeline: spec.l/spec.y parse syscalls.spec into the tree below, sema.c
 * resolves names, types and numbers (from unistd_64.h) and checks it,
 * gen.c writes the C tables and writes-functions the runtime compiles. */
#ifndef SYSCALLGEN_H
#define SYSCALLGEN_H

#include <stdio.h>
#include <stddef.h>

typedef struct sg_loc { int line, col; } sg_loc;

/* ---- types (sema.c resolves them) ---- */
typedef struct sg_type {
  sg_loc loc;
  char *text;      /* as written, normalised: "const struct iovec *" */
  char *base;      /* "int", "unsigned long", "struct stat", typedef name */
  int is_struct;
  int ptr;         /* pointer depth */
  int is_const;    /* const on the pointee (for const char *) */
  /* resolved by sema for the base: */
  long size;       /* bytes; -1 unknown (void) */
  int is_signed;
} sg_type;

/* ---- expressions ---- */
enum sg_expr_kind {
  E_NUM, E_RETVAL, E_NAME, E_DEREF, E_LOAD, E_PRE, E_SIZEOF, E_MIN, E_MAX,
  E_BIN, E_NOT, E_NEG, E_BNOT, E_COND,
  E_CALL, /* name(a, b): min max pre load32 ... msghdr; sema rewrites it */
};
typedef struct sg_expr {
  enum sg_expr_kind kind;
  sg_loc loc;
  long long num;        /* E_NUM; E_LOAD: width in bytes, negative=signed;
                           E_CALL: argument count */
  char *name;           /* E_NAME, E_DEREF */
  int op;               /* E_BIN: token code of the operator */
  sg_type *type;        /* E_SIZEOF */
  struct sg_expr *a, *b, *c;
  /* resolved by sema: */
  int arg;              /* E_NAME/E_DEREF naming a parameter: its index, else -1 */
  long long value;      /* E_NAME naming a constant */
  int pre_slot;         /* E_PRE */
} sg_expr;

/* ---- WRITES clauses ---- */
enum sg_shape { SH_PLAIN, SH_IOVEC, SH_MSGHDR, SH_MMSG_LEN };
typedef struct sg_writes {
  sg_loc loc;
  sg_expr *cond;        /* NULL: retval >= 0 */
  sg_type *type;        /* NULL when naming an existing parameter */
  char *name;
  sg_loc name_loc;
  sg_expr *count;       /* [count], NULL if absent */
  char *shape_kw;       /* "msghdr"/"msg_len", NULL for an expression */
  sg_loc shape_loc;
  sg_expr *size;        /* byte count (or msghdr's message bytes) */
  enum sg_shape shape;  /* resolved by sema */
  int arg;              /* resolved parameter index */
  int pre_slot;         /* SH_MSGHDR: slot of msg_namelen before the call */
  int resolved;
  struct sg_writes *next;
} sg_writes;

typedef struct sg_param {
  sg_loc loc;
  sg_type *type;
  char *name;
  sg_writes *writes;    /* the WRITES{} this parameter was declared in */
} sg_param;

typedef struct sg_request {
  sg_loc loc;
  char *name;           /* constant name, NULL for a number or default */
  long long value;
  int is_default;
  sg_writes *writes;    /* list */
  struct sg_request *next;
} sg_request;

enum { A_ADDRSPACE = 1, A_SIGNAL = 2, A_PROCESS = 4, A_REEXEC = 8, A_REFUSED = 16,
       A_ACQUIRES = 32, A_NOCUT = 64, A_FORKS = 128, A_EXECS = 256, A_CLOSES = 512,
       A_EXITS = 1024, A_MAYBLOCK = 2048 };

typedef struct sg_proto {
  sg_loc loc;
  sg_type *ret;
  char *name;
  sg_loc name_loc;
  sg_param params[6];
  int nparams;
  unsigned attrs;
  char *refusal;
  sg_writes *writes;    /* all clauses: parameter and trailing ones */
  sg_expr *req_sel;     /* REQUESTS(expr), NULL if none */
  sg_request *requests;
  sg_expr *acq_cond;    /* ACQUIRES(cond): NULL when always (or acq_fd) */
  int acq_fd;           /* ACQUIRES(!regular(fd)): fd's index, else -1 */
  sg_expr *mask_ptr, *mask_size; /* SIGMASK(ptr, size), NULL if none */
  sg_writes *sends;     /* SENDS{ ... }, NULL if none */
  int wfd;              /* FILEWRITE(fd, ...): fd's index, else -1 */
  sg_expr *wfd_name;    /* FILEWRITE's FD as written (sema resolves wfd) */
  sg_expr *wpos, *wrwf; /* FILEWRITE's POS and RWF, NULL if absent */
  sg_loc wloc;
  sg_expr *chfd;        /* FILECHANGE(FD), NULL if none */
  sg_expr *newfd;       /* NEWFD(FD), NULL if none */
  sg_expr *ss_ptr, *ss_size; /* SIGSTATE(PTR, SIZE), NULL if none */
  int npre;
  int nr;               /* resolved from unistd_64.h */
  struct sg_proto *next;
} sg_proto;

typedef struct sg_decl {   /* struct X = N; typedef T N; const N = V; */
  sg_loc loc;
  int kind;                /* 's' struct size, 't' typedef, 'c' constant */
  char *name;
  long long value;
  sg_type *type;
  struct sg_decl *next;
} sg_decl;

typedef struct sg_spec {
  const char *path;
  sg_decl *decls;
  sg_proto *protos;
  int nerrors;
  FILE *errs;
  sg_loc comment_loc;  /* lexer: where an open comment began */
} sg_spec;

/* ---- spec.y / spec.l ---- */
/* Parses text (named path in messages); returns NULL after printing every
 * error as "syscallgen:PATH:LINE:COL: message" to errs. */
sg_spec *sg_parse(const char *path, const char *text, FILE *errs);
void sg_error(sg_spec *s, sg_loc loc, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));
void *sg_alloc(size_t n);
char *sg_strdup(const char *s);

/* ---- sema.c ---- */
typedef struct sg_nr { char *name; int nr; } sg_nr;
typedef struct sg_numbers { sg_nr *v; int n; int max; } sg_numbers;
/* Reads "#define __NR_name N" lines; returns -1 with a message on errs. */
int sg_read_numbers(const char *path, const char *text, sg_numbers *out, FILE *errs);
int sg_number(const sg_numbers *nums, const char *name);
/* Resolves and checks spec; returns the number of errors. */
int sg_check(sg_spec *s, const sg_numbers *nums);

/* ---- gen.c ---- */
void sg_gen_c(FILE *out, const sg_spec *s, const sg_numbers *nums);
void sg_gen_h(FILE *out, const sg_spec *s, const sg_numbers *nums);

#endif
