/* test_parse.c: the spec language: valid prototypes parse into the tree
 * expected, and every error path says "syscallgen:FILE:LINE:COL: message". */
#include <stdlib.h>
#include <string.h>
#include "suites.h"
#include "syscallgen.h"

static const char numbers[] =
  "#ifndef _ASM_UNISTD_64_H\n"
  "#define __NR_read 0\n"
  "#define __NR_write 1\n"
  "#define __NR_readv 19\n"
  "#define __NR_ioctl 16\n"
  "#define __NR_accept4 288\n"
  "#define __NR_recvmsg 47\n"
  "#define __NR_mmap 9\n"
  "#define __NR_sendmmsg 307\n"
  "#define __NR_kill 62\n"
  "#endif\n";

static char errbuf[4096];

/* Parses and checks text; returns the spec (NULL on errors), errors in errbuf. */
static sg_spec *run(const char *text)
{
  sg_numbers nums;
  FILE *f = fmemopen(errbuf, sizeof errbuf, "w");
  ck_assert_ptr_nonnull(f);
  setbuf(f, NULL);
  ck_assert_int_eq(sg_read_numbers("unistd_64.h", numbers, &nums, f), 0);
  sg_spec *s = sg_parse("t.spec", text, f);
  if (s && sg_check(s, &nums) != 0)
    s = NULL;
  fputc(0, f);
  fclose(f);
  return s;
}

/* The first error line must be exactly want. */
static void expect_error(const char *text, const char *want)
{
  sg_spec *s = run(text);
  ck_assert_msg(s == NULL, "no error for: %s", text);
  char *nl = strchr(errbuf, '\n');
  ck_assert_ptr_nonnull(nl);
  *nl = 0;
  ck_assert_str_eq(errbuf, want);
}

START_TEST(parses_read)
{
  sg_spec *s = run("typedef unsigned long size_t; typedef long ssize_t;\n"
                   "ssize_t read(int fd, WRITES{ void *buf = retval }, size_t count);\n");
  ck_assert_msg(s != NULL, "%s", errbuf);
  sg_proto *p = s->protos;
  ck_assert_str_eq(p->name, "read");
  ck_assert_int_eq(p->nr, 0);
  ck_assert_int_eq(p->nparams, 3);
  ck_assert_str_eq(p->params[1].type->text, "void *");
  ck_assert_str_eq(p->params[2].type->text, "size_t");
  ck_assert_int_eq(p->params[2].type->size, 8);
  ck_assert_ptr_nonnull(p->writes);
  ck_assert_int_eq(p->writes->arg, 1);
  ck_assert_int_eq(p->writes->shape, SH_PLAIN);
  ck_assert_ptr_null(p->writes->next);
}
END_TEST

START_TEST(parses_shapes_and_attrs)
{
  sg_spec *s = run(
    "struct iovec = 16; struct msghdr = 56; struct mmsghdr = 64; typedef unsigned int socklen_t;\n"
    "long readv(int fd, WRITES{ const struct iovec *iov[cnt] = retval }, int cnt);\n"
    "long recvmsg(int fd, WRITES{ struct msghdr *msg = msghdr(retval) }, int flags);\n"
    "int sendmmsg(int fd, WRITES{ struct mmsghdr *v[retval] = msg_len }, unsigned n, int f);\n"
    "int accept4(int fd, WRITES{ void *addr = min(pre(*addrlen), *addrlen) },\n"
    "            WRITES(retval >= 0 && addr){ socklen_t *addrlen = 4 }, int flags);\n"
    "void *mmap(void *a, unsigned long l, int p, int f, int fd, long o) ADDRSPACE REEXEC;\n"
    "int kill(int pid, int sig) SIGNAL;\n"
    "enum { A = 1, B = 0x10, };\n"
    "int ioctl(int fd, unsigned int req, unsigned long arg) REQUESTS(req) {\n"
    "  A: WRITES{ arg = 8 }; B, 3: ; default: ; };\n");
  ck_assert_msg(s != NULL, "%s", errbuf);
  sg_proto *p = s->protos;
  ck_assert_int_eq(p->writes->shape, SH_IOVEC);
  p = p->next;
  ck_assert_int_eq(p->writes->shape, SH_MSGHDR);
  ck_assert_int_eq(p->npre, 1);
  p = p->next;
  ck_assert_int_eq(p->writes->shape, SH_MMSG_LEN);
  p = p->next;
  ck_assert_int_eq(p->npre, 1);
  ck_assert_ptr_nonnull(p->writes->next->cond);
  p = p->next;
  ck_assert_uint_eq(p->attrs, A_ADDRSPACE | A_REEXEC);
  p = p->next;
  ck_assert_uint_eq(p->attrs, A_SIGNAL);
  p = p->next;
  ck_assert_str_eq(p->name, "ioctl");
  ck_assert_int_eq(p->req_sel->arg, 1);
  sg_request *r = p->requests;
  ck_assert_int_eq(r->value, 1);
  ck_assert_ptr_nonnull(r->writes);
  ck_assert_int_eq(r->next->value, 16);
  ck_assert_ptr_null(r->next->writes);
  ck_assert_int_eq(r->next->next->value, 3);
  ck_assert(r->next->next->next->is_default);
}
END_TEST

START_TEST(comments_and_void)
{
  sg_spec *s = run("// line\n/* block\n * more */ int kill(void) /* x */ SIGNAL;\n");
  ck_assert_msg(s != NULL, "%s", errbuf);
  ck_assert_int_eq(s->protos->nparams, 0);
}
END_TEST

START_TEST(the_shipped_spec_checks)
{
  /* The real spec against the machine's real header (what the build runs). */
  FILE *f = fopen(SG_SPEC_FILE, "r");
  ck_assert_ptr_nonnull(f);
  static char text[1 << 18];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = 0;
  FILE *h = fopen(SG_UNISTD_64, "r");
  ck_assert_ptr_nonnull(h);
  static char ntext[1 << 16];
  n = fread(ntext, 1, sizeof ntext - 1, h);
  fclose(h);
  ntext[n] = 0;
  sg_numbers nums;
  ck_assert_int_eq(sg_read_numbers(SG_UNISTD_64, ntext, &nums, stderr), 0);
  sg_spec *s = sg_parse(SG_SPEC_FILE, text, stderr);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(sg_check(s, &nums), 0);
}
END_TEST

static const struct { const char *text, *error; } errors[] = {
  { "int kill(int pid, int sig) $;",
    "syscallgen:t.spec:1:28: unexpected character '$'" },
  { "int kill(int pid,\n  int sig) SIGNAL; /* open",
    "syscallgen:t.spec:2:20: unterminated comment" },
  { "int kill(int pid) REFUSED(\"why);",
    "syscallgen:t.spec:1:27: unterminated string" },
  { "int kill(int pid) SIGNAL",
    "syscallgen:t.spec:1:25: syntax error, unexpected end of file" },
  { "int kill(int pid int sig);",
    "syscallgen:t.spec:1:18: syntax error, unexpected type keyword, expecting ',' or ')'" },
  { "enum { A = 99999999999999999999 };",
    "syscallgen:t.spec:1:12: number '99999999999999999999' is too large" },
  { "int kill(pid_t pid);",
    "syscallgen:t.spec:1:10: unknown type 'pid_t'" },
  { "int kill(unsigned void pid);",
    "syscallgen:t.spec:1:10: unknown type 'unsigned void'" },
  { "int frobnicate(int x);",
    "syscallgen:t.spec:1:5: unknown syscall 'frobnicate': not in the kernel's unistd_64.h" },
  { "int kill(int a);\nint kill(int b);",
    "syscallgen:t.spec:2:5: duplicate syscall 'kill' (first declared at 1:5)" },
  { "int kill(int a, int a);",
    "syscallgen:t.spec:1:17: duplicate parameter 'a'" },
  { "int kill(int a, int b, int c, int d, int e, int f, int g);",
    "syscallgen:t.spec:1:52: 'kill' has more than 6 parameters" },
  { "int kill(int);",
    "syscallgen:t.spec:1:10: parameter of type 'int' has no name" },
  { "int kill(void x);",
    "syscallgen:t.spec:1:10: parameter 'x' has type 'void', which has no size" },
  { "int ioctl(int fd, ...);",
    "syscallgen:t.spec:1:19: write the variadic argument as a named parameter (e.g. 'unsigned long arg')" },
  { "int read(int fd, WRITES{ int buf = 4 });",
    "syscallgen:t.spec:1:30: WRITES target 'buf' is not a pointer (type 'int')" },
  { "int read(int fd, WRITES{ void *buf = count });",
    "syscallgen:t.spec:1:38: unknown name 'count' (not a parameter of 'read' nor a constant)" },
  { "int read(int fd, WRITES{ void *buf = sizeof(struct stat) });",
    "syscallgen:t.spec:1:38: size of 'struct stat' is unknown: declare it, e.g. 'struct stat = 16;'" },
  { "int read(int fd, WRITES{ void *buf = sizeof(void) });",
    "syscallgen:t.spec:1:38: sizeof(void) has no size" },
  { "int read(int fd, WRITES{ void *buf = *fd });",
    "syscallgen:t.spec:1:38: cannot read '*fd': 'int' is not a pointer to a scalar" },
  { "int read(int fd, WRITES{ void *buf = *nope });",
    "syscallgen:t.spec:1:38: unknown parameter 'nope' in '*nope'" },
  { "int read(int fd, WRITES{ void *buf = pre(retval) });",
    "syscallgen:t.spec:1:42: retval is not known before the call (inside pre())" },
  { "int read(int fd, WRITES{ void *buf = pre(pre(fd)) });",
    "syscallgen:t.spec:1:42: pre() cannot be nested" },
  { "int read(int fd) ACQUIRES ACQUIRES;",
    "syscallgen:t.spec:1:27: 'read' has two ACQUIRES clauses" },
  { "int read(int fd) ACQUIRES(!regular(nope));",
    "syscallgen:t.spec:1:28: regular() takes a parameter of 'read' (an fd)" },
  { "int read(int fd) ACQUIRES(regular(fd));",
    "syscallgen:t.spec:1:27: regular(fd) is only for ACQUIRES(!regular(fd))" },
  { "int read(int fd) ACQUIRES(count > 1);",
    "syscallgen:t.spec:1:27: unknown name 'count' (not a parameter of 'read' nor a constant)" },
  { "int read(int fd) SIGMASK(retval, 8);",
    "syscallgen:t.spec:1:26: retval is not known before the call (inside SIGMASK)" },
  { "int read(int fd) SIGMASK(pre(fd), 8);",
    "syscallgen:t.spec:1:26: SIGMASK is read before the call: no pre() in it" },
  { "int read(int fd) SIGMASK(fd, 8) SIGMASK(fd, 8);",
    "syscallgen:t.spec:1:33: 'read' has two SIGMASK clauses" },
  { "int write(int fd, const void *buf) SENDS{ nope = retval };",
    "syscallgen:t.spec:1:43: SENDS names 'nope', which is not a parameter of 'write'" },
  { "int write(int fd, const void *buf) SENDS{ fd = retval };",
    "syscallgen:t.spec:1:43: SENDS source 'fd' is not a pointer (type 'int')" },
  { "int write(int fd, const void *buf) SENDS{ buf = load32(buf) };",
    "syscallgen:t.spec:1:49: SENDS reads no memory: no 'load32' in it" },
  { "int write(int fd, const void *buf) FILEWRITE(fd + 1);",
    "syscallgen:t.spec:1:36: FILEWRITE's first argument is a parameter of 'write' (the fd)" },
  { "int read(int a, int b) NEWFD(retval);",
    "syscallgen:t.spec:1:30: NEWFD is known before the call: no retval in it" },
  { "int read(int a, int *b) NEWFD(*b);",
    "syscallgen:t.spec:1:31: NEWFD reads no memory: no '*b' in it" },
  { "int read(int fd) REFUSED(\"no\") FORKS;",
    "syscallgen:t.spec:1:1: 'read' is REFUSED: it never runs (no other attribute)" },
  { "int read(int fd) REFUSED(\"no\") NOCUT;",
    "syscallgen:t.spec:1:1: 'read' is REFUSED: it never runs (no other attribute)" },
  { "int read(int fd, WRITES{ void *buf = frob(fd) });",
    "syscallgen:t.spec:1:38: unknown function 'frob' (min, max, pre, load8..load64, sload8..sload64)" },
  { "int read(int fd, WRITES{ void *buf = min(fd) });",
    "syscallgen:t.spec:1:38: 'min' takes 2 arguments, not 1" },
  { "int read(int fd, WRITES{ void *buf = 1 + msghdr(fd) });",
    "syscallgen:t.spec:1:42: 'msghdr' is a WRITES size shape, not a function" },
  { "int read(int fd, WRITES{ void *buf = msghdr(retval) });",
    "syscallgen:t.spec:1:38: msghdr() sizes a 'struct msghdr *', not 'void *'" },
  { "int read(int fd, WRITES{ int *buf[fd] = retval });",
    "syscallgen:t.spec:1:31: array WRITES need 'struct iovec' or 'struct mmsghdr' elements, not 'int *'" },
  { "int read(int fd, WRITES{ struct mmsghdr *v[fd] = retval });",
    "syscallgen:t.spec:1:50: an array of struct mmsghdr is written as '= msg_len'" },
  { "int read(int fd, WRITES{ buf = 4 });",
    "syscallgen:t.spec:1:26: WRITES parameter 'buf' needs a type" },
  { "int read(int fd, void *buf) WRITES{ nope = 4 };",
    "syscallgen:t.spec:1:37: WRITES names 'nope', which is not a parameter of 'read'" },
  { "int read(int *fd, void *a, void *b, void *c) WRITES{ a = pre(*fd) + pre(*fd) + pre(*fd) + pre(*fd) + pre(*fd) };",
    "syscallgen:t.spec:1:102: 'read' needs more than 4 pre() values" },
  { "struct s = 8;\nstruct s = 16;",
    "syscallgen:t.spec:2:1: 's' is declared twice (first at 1:1)" },
  { "struct s = 0;",
    "syscallgen:t.spec:1:1: struct s has size 0" },
  { "typedef int t;\nenum { t = 1 };",
    "syscallgen:t.spec:2:8: 't' is both a type and a constant" },
  { "struct s = 8; int kill(struct s x);",
    "syscallgen:t.spec:1:24: parameter 'x' is a struct passed by value" },
  { "int ioctl(int fd, unsigned req, unsigned long arg) REQUESTS(req) { NOPE: ; };",
    "syscallgen:t.spec:1:68: unknown request 'NOPE': declare it in an enum" },
  { "enum { A = 1 }; int ioctl(int fd, unsigned req, unsigned long arg) REQUESTS(req) { A: ; 1: ; };",
    "syscallgen:t.spec:1:89: request 0x1 is listed twice" },
  { "int ioctl(int fd, unsigned req, unsigned long arg) REQUESTS(req + 1) { 1: ; };",
    "syscallgen:t.spec:1:61: REQUESTS selects on a parameter of 'ioctl'" },
  { "int ioctl(int fd, unsigned req, unsigned long arg) REQUESTS(req) { default: ; default: ; };",
    "syscallgen:t.spec:1:79: two 'default' labels in 'ioctl' REQUESTS" },
  { "int ioctl(int fd, unsigned req, unsigned long arg) REQUESTS(req) { default: WRITES{ arg = 4 }; };",
    "syscallgen:t.spec:1:68: 'default' writes nothing; list the requests that write" },
  { "int ioctl(int fd, unsigned req, unsigned long arg) REQUESTS(req) { } REQUESTS(fd) { };",
    "syscallgen:t.spec:1:70: 'ioctl' has two REQUESTS clauses" },
};

START_TEST(error_paths)
{
  expect_error(errors[_i].text, errors[_i].error);
}
END_TEST

START_TEST(errors_recover_and_count)
{
  /* Parsing goes on after a bad prototype; every error is reported. */
  sg_spec *s = run("int kill(int a int b);\nint read(int fd) @;\nint write(int fd);\n");
  ck_assert_ptr_null(s);
  ck_assert_ptr_nonnull(strstr(errbuf, "t.spec:1:16:"));
  ck_assert_ptr_nonnull(strstr(errbuf, "t.spec:2:18: unexpected character '@'"));
}
END_TEST

START_TEST(numbers_header_errors)
{
  sg_numbers nums;
  char buf[256];
  FILE *f = fmemopen(buf, sizeof buf, "w");
  setbuf(f, NULL);
  ck_assert_int_eq(sg_read_numbers("empty.h", "/* nothing */\n", &nums, f), -1);
  fputc(0, f);
  fclose(f);
  ck_assert_str_eq(buf, "syscallgen:empty.h: no '#define __NR_name number' lines\n");
}
END_TEST

Suite *parse_suite(void)
{
  Suite *s = suite_create("parse");
  TCase *tc = tcase_create("parse");
  tcase_add_test(tc, parses_read);
  tcase_add_test(tc, parses_shapes_and_attrs);
  tcase_add_test(tc, comments_and_void);
  tcase_add_test(tc, the_shipped_spec_checks);
  tcase_add_loop_test(tc, error_paths, 0, sizeof errors / sizeof *errors);
  tcase_add_test(tc, errors_recover_and_count);
  tcase_add_test(tc, numbers_header_errors);
  suite_add_tcase(s, tc);
  return s;
}
