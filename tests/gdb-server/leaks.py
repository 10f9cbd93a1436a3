# leaks.py: for run.sh.  Goes back $n times in a row on one replay, each
# time forward again (reverse-stepi and stepi; every 8th time
# reverse-step and step), and compares rdb's processes (its children:
# the replay, its feeder, checkpoints), open files and memory (RSS) after
# the first tenth and at the end.  rdb replay --gdb-batch started gdb:
# rdb is gdb's parent.
import gdb
import os

N = int(gdb.convenience_variable("n"))
SRV = os.getppid()


def children():
    n = 0
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % p) as f:
                st = f.read()
        except OSError:
            continue
        if int(st[st.rindex(")") + 2:].split()[1]) == SRV:
            n += 1
    return n - 1  # not gdb


def fds():
    return len(os.listdir("/proc/%d/fd" % SRV))


def rss():
    with open("/proc/%d/status" % SRV) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def sample():
    return (children(), fds(), rss())


def where():
    return gdb.execute("monitor where", to_string=True).strip()


start = where()
warm = None
for i in range(N):
    if i == N // 10:
        warm = sample()
    if i % 8 == 7:
        gdb.execute("reverse-step", to_string=True)
        gdb.execute("step", to_string=True)
    else:
        gdb.execute("reverse-stepi", to_string=True)
        gdb.execute("stepi", to_string=True)
end = sample()
print("rdb-test: %d times back: at %s, from %s" % (N, where(), start))
print("rdb-test: after %d: children %d fds %d rss %d kB; after %d: children %d fds %d rss %d kB"
      % (N // 10, warm[0], warm[1], warm[2], N, end[0], end[1], end[2]))
if end[0] > warm[0] + 2 or end[1] > warm[1] + 2 or end[2] > warm[2] + 2048:
    print("rdb-test: LEAK")
else:
    print("rdb-test: no leak")
