/* main.c: syscallgen's command line. The stages: read the kernel's
 * numbers, parse the spec, check it, write the outputs (each to a
 * temporary file renamed into place, so no output is left half-written). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "syscallgen.h"

static const char usage[] =
  "usage: syscallgen [options] SPEC\n"
  "Turns a syscall prototype file (syscalls.spec) into the C tables and\n"
  "writes-functions rdb's runtime uses to record and replay syscalls.\n"
  "\n"
  "  -o FILE          write the generated C source to FILE\n"
  "  -H FILE          write the RDB_NR_* number header to FILE\n"
  "  --numbers FILE   the kernel's unistd_64.h (default: the system's)\n"
  "  --list           print every kernel syscall with its status\n"
  "  --help           show this help\n"
  "  --version        say what this is\n"
  "\n"
  "The spec language is described in docs/syscallgen.md.\n";

static const char *const default_numbers[] = {
  "/usr/include/x86_64-linux-gnu/asm/unistd_64.h",
  "/usr/include/asm/unistd_64.h",
};

static char *slurp(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "syscallgen:%s: %s\n", path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (!buf) {
      fprintf(stderr, "syscallgen: out of memory\n");
      exit(1);
    }
    n += fread(buf + n, 1, cap - n - 1, f);
    if (n < cap - 1)
      break;
    cap *= 2;
    buf = realloc(buf, cap);
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    fprintf(stderr, "syscallgen:%s: read error\n", path);
    free(buf);
    return NULL;
  }
  buf[n] = 0;
  if (strlen(buf) != n) {
    fprintf(stderr, "syscallgen:%s: contains a NUL byte\n", path);
    free(buf);
    return NULL;
  }
  return buf;
}

typedef void gen_fn(FILE *, const sg_spec *, const sg_numbers *);

static int write_out(const char *path, gen_fn *gen, const sg_spec *s, const sg_numbers *n)
{
  size_t len = strlen(path) + 16;
  char *tmp = malloc(len);
  snprintf(tmp, len, "%s.tmp%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) {
    fprintf(stderr, "syscallgen:%s: %s\n", tmp, strerror(errno));
    free(tmp);
    return -1;
  }
  gen(f, s, n);
  if (fflush(f) != 0 || ferror(f) || fclose(f) != 0 || rename(tmp, path) != 0) {
    fprintf(stderr, "syscallgen:%s: %s\n", path, strerror(errno));
    remove(tmp);
    free(tmp);
    return -1;
  }
  free(tmp);
  return 0;
}

static void list(const sg_spec *s, const sg_numbers *nums)
{
  for (int nr = 0; nr <= nums->max; nr++)
    for (int i = 0; i < nums->n; i++) {
      if (nums->v[i].nr != nr)
        continue;
      const sg_proto *p = s->protos;
      while (p && strcmp(p->name, nums->v[i].name) != 0)
        p = p->next;
      const char *status = !p ? "unknown" : (p->attrs & A_REFUSED) ? "refused" : "modelled";
      printf("%d\t%s\t%s", nr, nums->v[i].name, status);
      if (p && (p->attrs & A_REFUSED))
        printf("\t%s", p->refusal);
      putchar('\n');
      break;
    }
}

int main(int argc, char **argv)
{
  const char *out_c = NULL, *out_h = NULL, *numbers = NULL, *spec = NULL;
  int do_list = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage, stdout);
      return 0;
    } else if (strcmp(a, "--version") == 0) {
      puts("syscallgen (rdb) 0.1: syscall prototypes to record/replay tables");
      return 0;
    } else if (strcmp(a, "--list") == 0) {
      do_list = 1;
    } else if ((strcmp(a, "-o") == 0 || strcmp(a, "-H") == 0 ||
                strcmp(a, "--numbers") == 0)) {
      if (i + 1 == argc) {
        fprintf(stderr, "syscallgen: %s needs a file name\n", a);
        return 2;
      }
      const char **dst = a[1] == 'o' ? &out_c : a[1] == 'H' ? &out_h : &numbers;
      *dst = argv[++i];
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "syscallgen: unknown option '%s' (try --help)\n", a);
      return 2;
    } else if (spec) {
      fprintf(stderr, "syscallgen: one SPEC file only ('%s' and '%s')\n", spec, a);
      return 2;
    } else {
      spec = a;
    }
  }
  if (!spec) {
    fputs(usage, stderr);
    return 2;
  }
  if (!numbers) {
    numbers = default_numbers[0];
    for (size_t i = 0; i < sizeof default_numbers / sizeof *default_numbers; i++)
      if (access(default_numbers[i], R_OK) == 0) {
        numbers = default_numbers[i];
        break;
      }
  }
  sg_numbers nums;
  char *ntext = slurp(numbers);
  if (!ntext || sg_read_numbers(numbers, ntext, &nums, stderr) != 0)
    return 1;
  char *text = slurp(spec);
  if (!text)
    return 1;
  sg_spec *s = sg_parse(spec, text, stderr);
  if (!s)
    return 1;
  if (sg_check(s, &nums) != 0)
    return 1;
  if (out_c && write_out(out_c, sg_gen_c, s, &nums) != 0)
    return 1;
  if (out_h && write_out(out_h, sg_gen_h, s, &nums) != 0)
    return 1;
  if (do_list)
    list(s, &nums);
  return 0;
}
