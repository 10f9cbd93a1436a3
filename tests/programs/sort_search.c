/* sort_search: qsort and bsearch with callbacks: integers, strings,
 * structs sorted by several keys (every key unique in the end: glibc's
 * merge sort and musl's smoothsort order equal elements differently),
 * doubles, sizes 0..2 and a large array; bsearch hits and misses; a
 * comparator that counts its calls only to check that it was used. */
#include "prog.h"

struct person {
	char name[16];
	int age;
	double score;
	int id;
};

static long calls;

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	calls++;
	return (x > y) - (x < y);
}

static int cmp_int_desc(const void *a, const void *b) { return cmp_int(b, a); }

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int cmp_person(const void *a, const void *b)
{
	const struct person *p = a, *q = b;
	if (p->age != q->age)
		return p->age - q->age;
	int c = strcmp(p->name, q->name);
	if (c)
		return c;
	return p->id - q->id; /* ties broken: a total order */
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	enum { N = 100000 };
	static int a[N];
	uint64_t g = 12345;
	for (int i = 0; i < N; i++)
		a[i] = (int)(rng(&g) % 50000) - 25000;
	qsort(a, N, sizeof *a, cmp_int);
	int sorted = 1;
	for (int i = 1; i < N; i++)
		sorted &= a[i - 1] <= a[i];
	printf("ints: sorted %d, min %d, max %d, median %d, hash %016llx, comparator used %d\n", sorted, a[0],
	       a[N - 1], a[N / 2], (unsigned long long)fnv(a, sizeof a, 0), calls > N);
	int hits = 0, misses = 0;
	for (int key = -25100; key < 25100; key += 37) {
		int *p = bsearch(&key, a, N, sizeof *a, cmp_int);
		if (p) {
			hits++;
			CHECK(*p == key);
		} else {
			misses++;
		}
	}
	printf("bsearch: %d hits, %d misses\n", hits, misses);
	qsort(a, N, sizeof *a, cmp_int_desc);
	printf("descending: first %d last %d\n", a[0], a[N - 1]);

	int one = 5, empty = 0;
	qsort(&one, 1, sizeof one, cmp_int);
	qsort(&empty, 0, sizeof empty, cmp_int);
	int two[2] = { 9, 3 };
	qsort(two, 2, sizeof *two, cmp_int);
	printf("tiny: %d %d %d, bsearch in empty: %d\n", one, two[0], two[1],
	       bsearch(&one, &empty, 0, sizeof empty, cmp_int) == NULL);

	const char *words[] = { "pear", "apple", "fig", "banana", "cherry", "date", "elderberry", "grape",
	                        "kiwi", "lemon", "Mango", "apricot", "" };
	size_t nw = sizeof words / sizeof *words;
	qsort(words, nw, sizeof *words, cmp_str);
	printf("words:");
	for (size_t i = 0; i < nw; i++)
		printf(" [%s]", words[i]);
	printf("\n");
	const char *key = "fig";
	const char **w = bsearch(&key, words, nw, sizeof *words, cmp_str);
	printf("bsearch fig at %td\n", w ? w - words : -1);

	static struct person people[2000];
	static const char *names[] = { "ada", "bob", "cy", "dee", "eve", "fay", "gus" };
	for (int i = 0; i < 2000; i++) {
		snprintf(people[i].name, sizeof people[i].name, "%s%d", names[rng(&g) % 7], (int)(rng(&g) % 5));
		people[i].age = 20 + (int)(rng(&g) % 30);
		people[i].score = (double)(rng(&g) % 1000) / 8;
		people[i].id = i;
	}
	qsort(people, 2000, sizeof *people, cmp_person);
	printf("people: first %s/%d/%d, last %s/%d/%d, hash %016llx\n", people[0].name, people[0].age,
	       people[0].id, people[1999].name, people[1999].age, people[1999].id,
	       (unsigned long long)fnv(people, sizeof people, 0));

	double d[1000];
	for (int i = 0; i < 1000; i++)
		d[i] = (double)(rng(&g) % 100000) / 7.0 - 5000;
	qsort(d, 1000, sizeof *d, cmp_double);
	printf("doubles: %.6f %.6f %.6f\n", d[0], d[500], d[999]);
	return prog_done("sort_search");
}
