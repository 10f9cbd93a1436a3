/* iot.c: the instrumentation offset table (.rdb_iot, altr/emit.c): one
 * entry per inserted sequence with the access it guards.  The runtime asks
 * it whether a pc lies inside a sequence (a fault in a hook, a watchpoint's
 * trap; asynchronous events wait for a SIC check instead, sic.c, and need
 * no table).  Section headers are not
 * loaded, so the section is found in /proc/self/exe at start-up (raw
 * syscalls, stack buffers: this runs before self-relocation).  Entries
 * hold image offsets once the rdb-iot pass has rewritten and sorted them
 * (binary search); before that they are PC-relative (linear scan). */
#include "rt.h"

static long pread_all(int fd, void *buf, size_t n, uint64_t off)
{
	return rdb_sys6(__NR_pread64, fd, (long)buf, (long)n, (long)off, 0, 0);
}

struct shdr {
	uint32_t name, type;
	uint64_t flags, addr, offset, size;
	uint32_t link, info;
	uint64_t addralign, entsize;
};

int rdb_elf_iot_section(int fd, uint64_t *addr, uint64_t *size)
{
	unsigned char eh[64];
	if (pread_all(fd, eh, 64, 0) != 64 || eh[0] != 0x7f || eh[1] != 'E' ||
	    eh[4] != 2 /* ELFCLASS64 */)
		return 0;
	uint64_t shoff;
	uint16_t shentsize, shnum, shstrndx;
	rdb_memcpy(&shoff, eh + 0x28, 8);
	rdb_memcpy(&shentsize, eh + 0x3a, 2);
	rdb_memcpy(&shnum, eh + 0x3c, 2);
	rdb_memcpy(&shstrndx, eh + 0x3e, 2);
	if (shentsize != sizeof(struct shdr) || shstrndx >= shnum)
		return 0;
	struct shdr strtab, sh;
	if (pread_all(fd, &strtab, sizeof strtab, shoff + (uint64_t)shstrndx * shentsize) !=
	    (long)sizeof strtab)
		return 0;
	for (unsigned i = 1; i < shnum; i++) {
		char name[16];
		if (pread_all(fd, &sh, sizeof sh, shoff + (uint64_t)i * shentsize) !=
		        (long)sizeof sh ||
		    pread_all(fd, name, 9, strtab.offset + sh.name) != 9)
			return 0;
		name[9] = 0;
		if (rdb_strcmp(name, RDB_IOT_SECTION) == 0) {
			*addr = sh.addr;
			*size = sh.size;
			return 1;
		}
	}
	return 0;
}

void rdb_iot_init(void)
{
	long fd = rdb_sys3(__NR_open, "/proc/self/exe", RDB_O_RDONLY | RDB_O_CLOEXEC, 0);
	if (fd < 0)
		return;
	uint64_t addr, bytes;
	if (rdb_elf_iot_section((int)fd, &addr, &bytes) && addr) {
		RT->iot.iot = (const struct rdb_iot_entry *)(RT->start.bias + addr);
		RT->iot.n_iot = bytes / sizeof(struct rdb_iot_entry);
	}
	rdb_sys1(__NR_close, fd);

	/* Offsets: all inside the image and sorted.  PC-relative entries
	 * point back from the table into the text, so they fail this. */
	const struct rdb_iot_entry *t = RT->iot.iot;
	size_t n = RT->iot.n_iot;
	int64_t size = (int64_t)(RT->start.image_hi - RT->start.bias), prev = 0;
	RT->iot.iot_offsets = n > 0;
	for (size_t i = 0; i < n; i++) {
		if (t[i].start < prev || t[i].start + (int64_t)t[i].len > size) {
			RT->iot.iot_offsets = 0;
			break;
		}
		prev = t[i].start;
	}
}

const struct rdb_iot_entry *rdb_iot_find(uintptr_t pc, uintptr_t *start)
{
	const struct rdb_iot_entry *t = RT->iot.iot;
	size_t n = RT->iot.n_iot;
	if (RT->iot.iot_offsets) {
		int64_t off = (int64_t)(pc - RT->start.bias);
		size_t lo = 0, hi = n; /* the last entry starting at or before off */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (t[mid].start <= off)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo && off < t[lo - 1].start + (int64_t)t[lo - 1].len) {
			*start = RT->start.bias + (uintptr_t)t[lo - 1].start;
			return &t[lo - 1];
		}
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		uintptr_t s = (uintptr_t)&t[i] + (uintptr_t)t[i].start;
		if (pc >= s && pc < s + t[i].len) {
			*start = s;
			return &t[i];
		}
	}
	return 0;
}

uintptr_t rdb_iot_insn_start(uintptr_t pc)
{
	uintptr_t start;
	const struct rdb_iot_entry *e = rdb_iot_find(pc, &start);
	return e ? rdb_hooks_end(start, start + e->len) : 0;
}

/* The pc a fault at pc has without hooks: the program's own instruction
 * of pc's group when pc is in its hooks (a null pointer faults in the
 * read hook's store) or in what a replay made of them (no-ops, or
 * prefixes of the instruction: unhook.c).  pc itself elsewhere. */
uintptr_t rdb_iot_insn(uintptr_t pc)
{
	uintptr_t insn = rdb_iot_insn_start(pc);
	return insn && pc < insn ? insn : pc;
}

/* Whether pc is the program's instruction of a group with hooks before
 * it. */
int rdb_iot_after_hooks(uintptr_t pc)
{
	uintptr_t start;
	const struct rdb_iot_entry *e = rdb_iot_find(pc, &start);
	return e && pc != start && pc == rdb_hooks_end(start, start + e->len);
}

/* Where a faulting access runs again from when a handler of the program
 * returns to it: its group's hooks first, so they mark what it accesses
 * now (in this interval, at the addresses its registers hold now), past
 * the SIC increment and check at the group's start, which must not count
 * twice.  Hooks only mark the planes: running them again changes nothing
 * else.  pc itself outside a group. */
uintptr_t rdb_iot_rerun(uintptr_t pc)
{
	uintptr_t start;
	return rdb_iot_find(pc, &start) ? rdb_sic_skip(start, pc) : pc;
}

uint64_t rdb_live_flags(uintptr_t pc)
{
	uintptr_t start;
	const struct rdb_iot_entry *e = rdb_iot_find(pc, &start);
	return e && (e->flags & RDB_IOT_FLAGS_DEAD) ? 0 : RDB_EFLAGS_STATUS;
}
