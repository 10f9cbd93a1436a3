/*
 * test_iot.c: Check suite for the .rdb_iot pass (driver/iot.c).  The pure
 * resolver is tested on tables built here; the whole pass on executables
 * linked at test time by gcc from assembly written here.
 */
#include "iot.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct rdb_iot_range text = {0x1000, 0x2000};

/* A table whose section sits at vaddr 0x3000, entries pointing at targets. */
static void make_table(struct rdb_iot_table *t, const uint64_t *target,
                       const uint32_t *len, size_t n)
{
	memset(t, 0, sizeof *t);
	t->path = strdup("mem");
	t->vaddr = 0x3000;
	t->base = 0;
	t->exec = malloc(sizeof *t->exec);
	t->exec[0] = text;
	t->nexec = 1;
	t->present = true;
	t->n = n;
	t->e = calloc(n, sizeof *t->e);
	for (size_t i = 0; i < n; i++) {
		t->e[i].start = (int64_t)target[i] - (int64_t)(t->vaddr + 16 * i);
		t->e[i].len = len[i];
	}
}

START_TEST(resolve_sorts_and_marks)
{
	uint64_t tg[] = {0x1800, 0x1000, 0x1400};
	uint32_t ln[] = {8, 4, 0x400};
	struct rdb_iot_table t;
	char err[256];
	make_table(&t, tg, ln, 3);
	ck_assert_int_eq(rdb_iot_resolve(&t, err, sizeof err), 0);
	ck_assert(t.resolved);
	ck_assert_int_eq(t.e[0].start, 0x1000);
	ck_assert_int_eq(t.e[0].len, 4);
	ck_assert_int_eq(t.e[1].start, 0x1400);
	ck_assert_int_eq(t.e[2].start, 0x1800);
	for (int i = 0; i < 3; i++)
		ck_assert_uint_eq(t.e[i].flags, RDB_IOT_RESOLVED);
	/* a second pass over a resolved table changes nothing */
	ck_assert_int_eq(rdb_iot_resolve(&t, err, sizeof err), 0);
	ck_assert_int_eq(t.e[1].start, 0x1400);
	rdb_iot_free(&t);
}
END_TEST

START_TEST(resolve_keeps_other_flags)
{
	uint64_t tg[] = {0x1000};
	uint32_t ln[] = {3};
	struct rdb_iot_table t;
	char err[256];
	make_table(&t, tg, ln, 1);
	t.e[0].flags = 5;
	ck_assert_int_eq(rdb_iot_resolve(&t, err, sizeof err), 0);
	ck_assert_uint_eq(t.e[0].flags, RDB_IOT_RESOLVED | 5);
	rdb_iot_free(&t);
}
END_TEST

START_TEST(resolve_rejects_overlap)
{
	uint64_t tg[] = {0x1000, 0x1004};
	uint32_t ln[] = {8, 4};
	struct rdb_iot_table t;
	char err[256];
	make_table(&t, tg, ln, 2);
	ck_assert_int_eq(rdb_iot_resolve(&t, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "mem: ") == err && strstr(err, "overlap"), "%s", err);
	rdb_iot_free(&t);
}
END_TEST

START_TEST(resolve_allows_adjacent)
{
	uint64_t tg[] = {0x1004, 0x1000};
	uint32_t ln[] = {4, 4};
	struct rdb_iot_table t;
	char err[256];
	make_table(&t, tg, ln, 2);
	ck_assert_int_eq(rdb_iot_resolve(&t, err, sizeof err), 0);
	rdb_iot_free(&t);
}
END_TEST

START_TEST(resolve_rejects_outside_text)
{
	uint64_t tg[] = {0x1ffc};
	uint32_t ln[] = {8};
	struct rdb_iot_table t;
	char err[256];
	make_table(&t, tg, ln, 1);
	ck_assert_int_eq(rdb_iot_resolve(&t, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "executable segment"), "%s", err);
	rdb_iot_free(&t);
}
END_TEST

START_TEST(resolve_rejects_negative_and_empty)
{
	uint64_t tg[] = {0x1000};
	uint32_t ln[] = {4};
	struct rdb_iot_table t;
	char err[256];
	make_table(&t, tg, ln, 1);
	t.e[0].start = -0x10000;
	ck_assert_int_eq(rdb_iot_resolve(&t, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "outside the image"), "%s", err);
	rdb_iot_free(&t);
	make_table(&t, tg, ln, 1);
	t.e[0].len = 0;
	ck_assert_int_eq(rdb_iot_resolve(&t, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "length 0"), "%s", err);
	rdb_iot_free(&t);
}
END_TEST

START_TEST(resolve_rejects_mixed)
{
	uint64_t tg[] = {0x1000, 0x1010};
	uint32_t ln[] = {4, 4};
	struct rdb_iot_table t;
	char err[256];
	make_table(&t, tg, ln, 2);
	t.e[1].flags = RDB_IOT_RESOLVED;
	ck_assert_int_eq(rdb_iot_resolve(&t, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "already resolved"), "%s", err);
	rdb_iot_free(&t);
}
END_TEST

/* ------------------------------------------------- on linked executables */

static char dir[64];

static void setup_dir(void)
{
	strcpy(dir, "/tmp/iot_unit.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown_dir(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Links asm (plus a _start) into dir/exe; returns its path. */
static char *link_asm(const char *body)
{
	static char exe[128];
	char src[128], cmd[512];
	snprintf(src, sizeof src, "%s/t.s", dir);
	snprintf(exe, sizeof exe, "%s/exe", dir);
	FILE *f = fopen(src, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "\t.text\n\t.globl _start\n_start:\n\tud2\n%s", body);
	fclose(f);
	snprintf(cmd, sizeof cmd, "gcc -nostdlib -static-pie -o %s %s", exe, src);
	ck_assert_int_eq(system(cmd), 0);
	return exe;
}

static uint64_t symbol(const char *exe, const char *name)
{
	char cmd[256], line[256];
	snprintf(cmd, sizeof cmd, "nm %s", exe);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	uint64_t v = 0;
	bool found = false;
	while (fgets(line, sizeof line, p)) {
		unsigned long long a;
		char type, sym[200];
		if (sscanf(line, "%llx %c %199s", &a, &type, sym) == 3 && !strcmp(sym, name)) {
			v = a;
			found = true;
		}
	}
	pclose(p);
	ck_assert_msg(found, "no symbol %s", name);
	return v;
}

static const char two_groups[] =
	"\t.globl g1\ng1:\n\tnop\n\tnop\ng1e:\n"
	"\t.globl g2\ng2:\n\tnop\n\tnop\n\tnop\ng2e:\n"
	"\t.section .rdb_iot,\"aR\",@progbits\n\t.balign 8\n"
	"\t.quad g2 - .\n\t.long g2e - g2\n\t.long 0\n"
	"\t.quad g1 - .\n\t.long g1e - g1\n\t.long 0\n";

START_TEST(pass_on_executable)
{
	char *exe = link_asm(two_groups);
	struct rdb_iot_table t;
	char err[256];
	ck_assert_msg(rdb_iot_load(exe, &t, err, sizeof err) == 0, "%s", err);
	ck_assert(t.present);
	ck_assert(!t.resolved);
	ck_assert_int_eq(t.n, 2);
	ck_assert_msg(rdb_iot_resolve(&t, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(rdb_iot_store(&t, err, sizeof err) == 0, "%s", err);
	rdb_iot_free(&t);

	ck_assert_msg(rdb_iot_load(exe, &t, err, sizeof err) == 0, "%s", err);
	ck_assert(t.resolved);
	ck_assert_int_eq(t.base, 0);
	ck_assert_uint_eq((uint64_t)t.e[0].start, symbol(exe, "g1"));
	ck_assert_uint_eq(t.e[0].len, 2);
	ck_assert_uint_eq((uint64_t)t.e[1].start, symbol(exe, "g2"));
	ck_assert_uint_eq(t.e[1].len, 3);
	ck_assert_msg(rdb_iot_resolve(&t, err, sizeof err) == 0, "%s", err);
	rdb_iot_free(&t);

	/* the program still runs into its ud2: the pass broke nothing else */
	char cmd[256];
	snprintf(cmd, sizeof cmd, "%s 2>/dev/null; test $? = 132", exe);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(pass_rejects_bad_size)
{
	char *exe = link_asm("\t.section .rdb_iot,\"a\",@progbits\n\t.quad 0\n\t.long 1\n");
	struct rdb_iot_table t;
	char err[256];
	ck_assert_int_eq(rdb_iot_load(exe, &t, err, sizeof err), -1);
	ck_assert_msg(strstr(err, exe) == err && strstr(err, "not a multiple of 16"), "%s", err);
	rdb_iot_free(&t);
}
END_TEST

START_TEST(pass_rejects_data_target)
{
	char *exe = link_asm("\t.data\nd1:\n\t.quad 0\nd1e:\n"
	                     "\t.section .rdb_iot,\"a\",@progbits\n\t.balign 8\n"
	                     "\t.quad d1 - .\n\t.long d1e - d1\n\t.long 0\n");
	struct rdb_iot_table t;
	char err[256];
	ck_assert_msg(rdb_iot_load(exe, &t, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(rdb_iot_resolve(&t, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "executable segment"), "%s", err);
	rdb_iot_free(&t);
}
END_TEST

START_TEST(pass_without_section)
{
	char *exe = link_asm("");
	struct rdb_iot_table t;
	char err[256];
	ck_assert_int_eq(rdb_iot_load(exe, &t, err, sizeof err), 0);
	ck_assert(!t.present);
	rdb_iot_free(&t);
}
END_TEST

START_TEST(pass_rejects_non_elf)
{
	char path[128];
	snprintf(path, sizeof path, "%s/text", dir);
	FILE *f = fopen(path, "w");
	fputs("hello\n", f);
	fclose(f);
	struct rdb_iot_table t;
	char err[256];
	ck_assert_int_eq(rdb_iot_load(path, &t, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "not an ELF file"), "%s", err);
	rdb_iot_free(&t);
	snprintf(path, sizeof path, "%s/missing", dir);
	ck_assert_int_eq(rdb_iot_load(path, &t, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "No such file"), "%s", err);
	rdb_iot_free(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rdb-iot");
	TCase *pure = tcase_create("resolve");
	tcase_add_test(pure, resolve_sorts_and_marks);
	tcase_add_test(pure, resolve_keeps_other_flags);
	tcase_add_test(pure, resolve_rejects_overlap);
	tcase_add_test(pure, resolve_allows_adjacent);
	tcase_add_test(pure, resolve_rejects_outside_text);
	tcase_add_test(pure, resolve_rejects_negative_and_empty);
	tcase_add_test(pure, resolve_rejects_mixed);
	suite_add_tcase(s, pure);
	TCase *elf = tcase_create("executable");
	tcase_add_checked_fixture(elf, setup_dir, teardown_dir);
	tcase_add_test(elf, pass_on_executable);
	tcase_add_test(elf, pass_rejects_bad_size);
	tcase_add_test(elf, pass_rejects_data_target);
	tcase_add_test(elf, pass_without_section);
	tcase_add_test(elf, pass_rejects_non_elf);
	suite_add_tcase(s, elf);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
