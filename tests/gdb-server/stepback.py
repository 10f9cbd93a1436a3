# stepback.py: for run.sh.  From main, N stepi forward, recording the
# registers at each stop (not %r12, the hooks' scratch, nor %r15, the
# SIC's raw value: rdb moves its origin), then N reverse-stepi: the same
# registers in the reverse order, or the first difference.
import gdb

N = int(gdb.parameter("max-value-size") and 0 or 0) or int(gdb.convenience_variable("n"))
NAMES = ["rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10",
         "r11", "r13", "r14", "rip", "eflags"]


def regs():
    f = gdb.selected_frame()
    return tuple(int(f.read_register(r)) & ((1 << 64) - 1) for r in NAMES)


def where(r):
    return "%s %#x" % (gdb.execute("info symbol %#x" % r[14], to_string=True).strip(), r[14])


fw = []
for i in range(N):
    fw.append(regs())
    gdb.execute("stepi", to_string=True)
fw.append(regs())
bw = [regs()]
for i in range(N):
    gdb.execute("reverse-stepi", to_string=True)
    bw.append(regs())
bw.reverse()
funcs = sorted(set(gdb.execute("info symbol %#x" % r[14], to_string=True).split()[0] for r in fw))
print("rdb-test: functions stepped: " + " ".join(funcs))
for i, (a, b) in enumerate(zip(fw, bw)):
    if a != b:
        diff = [n for n, x, y in zip(NAMES, a, b) if x != y]
        print("rdb-test: step %d differs: forward at %s, back at %s (%s)"
              % (i, where(a), where(b), " ".join("%s %#x/%#x" % (n, a[NAMES.index(n)],
                                                              b[NAMES.index(n)]) for n in diff)))
        break
else:
    print("rdb-test: %d steps back and forth: the same registers" % N)
