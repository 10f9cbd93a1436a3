# rdb-gdb.py: reverse execution for gdb on rdb replays, the rdb way.
#
# rdb replay --gdb loads this file into gdb (-x), after setting (-iex):
#   rdb_trace_dir   the trace set being replayed
#   rdb_exe         the rdb executable
#   rdb_state       RDB_STATE_ADDR (runtime/layout.h)
#   rdb_off_gdb_in, rdb_off_sic_origin, rdb_off_interval: RDB_STATE_* offsets
#
# A position in a replayed run is exact: (interval, count, pc), the count
# being %r15 - sic_origin, the software instruction counter's value in
# the interval.  rdb replays from any interval cheaply and the same way
# every time, so going back is replaying forward again: from the current
# interval, then the one before it, ... , watching where the user's
# breakpoints stop, and stopping at the last such place before where we
# were.  No gdb target code: each replay is a new process
# (rdb replay --from K --gdb-wait FILE), gdb attaches to it.
#
# Commands: rdb-reverse-continue (alias rrc), rdb-where.  docs/gdb.md.

import os
import shutil
import signal
import struct
import subprocess
import tempfile
import time

import gdb

_MASK = (1 << 64) - 1
_work = None     # this session's folder for pid files and replay logs
_seq = [0]
_last_stop = [None]
_ours = set()    # the replays' programs started here


def _on_stop(ev):
    _last_stop[0] = ev


def _on_exit(ev):
    # a replay started here ends with gdb (gdb would detach it: it would
    # run on, unseen, to its end)
    inf = gdb.selected_inferior()
    if inf.pid in _ours:
        try:
            os.kill(inf.pid, signal.SIGKILL)
        except OSError:
            pass
    if _work:
        shutil.rmtree(_work, ignore_errors=True)


gdb.events.stop.connect(_on_stop)
gdb.events.gdb_exiting.connect(_on_exit)


class _Quiet:
    """gdb prints no stops, no attach and no exit of an inferior: its
    output goes to /dev/null (gdb's logging, redirected), the user's
    logging settings restored after."""

    params = ("suppress-cli-notifications", "logging redirect", "logging file",
              "logging enabled")

    def __enter__(self):
        self.was = [gdb.parameter(p) for p in self.params]
        if self.was[3]:
            gdb.execute("set logging enabled off", to_string=True)
        gdb.execute("set suppress-cli-notifications on")
        gdb.execute("set logging file /dev/null")
        gdb.execute("set logging redirect on")
        gdb.execute("set logging enabled on", to_string=True)

    def __exit__(self, *exc):
        gdb.execute("set logging enabled off", to_string=True)
        for p, was in zip(self.params, self.was):
            if p == "logging enabled":
                continue
            if isinstance(was, bool):
                was = "on" if was else "off"
            gdb.execute("set %s %s" % (p, was), to_string=True)
        if self.was[3]:
            gdb.execute("set logging enabled on", to_string=True)


def _configured():
    try:
        return rdb_trace_dir is not None  # noqa: F821 (set by rdb, -iex)
    except NameError:
        return False


def _u64(addr):
    m = gdb.selected_inferior().read_memory(addr, 8)
    return struct.unpack("<Q", bytes(m))[0]


def _alive():
    inf = gdb.selected_inferior()
    return inf.pid != 0 and inf.is_valid()


def position():
    """(interval, count, pc) of the selected inferior, stopped."""
    f = gdb.newest_frame()
    pc = int(f.pc()) & _MASK
    r15 = int(f.read_register("r15")) & _MASK
    interval = _u64(rdb_state + rdb_off_interval)  # noqa: F821
    origin = _u64(rdb_state + rdb_off_sic_origin)  # noqa: F821
    return (interval, (r15 - origin) & _MASK, pc)


def _waiting():
    """The program has not begun: it waits in rdb_gdb_wait."""
    f = gdb.newest_frame()
    for _ in range(4):
        if f is None:
            break
        if f.name() == "rdb_gdb_wait":
            return True
        f = f.older()
    return False


class _At(gdb.Breakpoint):
    """An internal breakpoint at a position's pc that stops only there."""

    def __init__(self, pos):
        super().__init__("*%#x" % pos[2], internal=True)
        self.pos = pos

    def stop(self):
        try:
            return position() == self.pos
        except gdb.error:
            return False


def _start(k, to):
    """rdb replay --quiet --from K [--to TO] --gdb-wait FILE: the waiting
    program's pid."""
    global _work
    if _work is None:
        _work = tempfile.mkdtemp(prefix="rdb-gdb-")
    _seq[0] += 1
    pidf = os.path.join(_work, "pid.%d" % _seq[0])
    logf = os.path.join(_work, "replay.%d.log" % _seq[0])
    args = [rdb_exe, "replay", "--quiet", "--from", str(k)]  # noqa: F821
    if to:
        args += ["--to", str(to)]
    args += ["--gdb-wait", pidf, rdb_trace_dir]  # noqa: F821
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)  # gdb's shim is not rdb's
    with open(logf, "w") as log:
        p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=log, env=env, start_new_session=True)
    for _ in range(6000):
        if os.path.exists(pidf):
            with open(pidf) as f:
                pid = int(f.read().strip())
            _ours.add(pid)
            return pid
        if p.poll() is not None:
            break
        time.sleep(0.01)
    with open(logf) as f:
        err = f.read().strip()
    raise gdb.GdbError("rdb: the replay from interval %d did not start (%s)%s"
                       % (k, " ".join(args), ":\n" + err if err else ""))


def _switch(pid):
    """Leave the current inferior for the replay waiting as pid."""
    confirm = gdb.parameter("confirm")
    gdb.execute("set confirm off")
    try:
        if gdb.selected_inferior().pid:
            gdb.execute("kill", to_string=True)
        gdb.execute("attach %d" % pid, to_string=True)
    finally:
        gdb.execute("set confirm %s" % ("on" if confirm else "off"))
    # as rdb_gdb_attach's -ex does: the program goes on when resumed
    gdb.selected_inferior().write_memory(rdb_state + rdb_off_gdb_in,  # noqa: F821
                                         struct.pack("<q", 1))


def _user_breakpoints():
    return [b for b in (gdb.breakpoints() or ())
            if b.is_valid() and b.number > 0 and b.type == gdb.BP_BREAKPOINT]


def _scan(k, to, target):
    """Replay interval k (to its end with to, else up to target): the
    positions where the user's breakpoints stopped, in order."""
    _switch(_start(k, to))
    at = _At(target) if target else None
    # the replay's end (--to's stop, the program's exit): killed there,
    # gdb would print the inferior's exit, which no setting keeps quiet
    gdb.execute("catch syscall exit_group exit", to_string=True)
    end = gdb.breakpoints()[-1]
    hits = []
    try:
        while True:
            _last_stop[0] = None
            gdb.execute("continue", to_string=True)
            if not _alive():
                break
            if end in (getattr(_last_stop[0], "breakpoints", None) or ()):
                break
            pos = position()
            if target and pos == target:
                break
            ev = _last_stop[0]
            if isinstance(ev, gdb.BreakpointEvent):
                nums = [b.number for b in ev.breakpoints
                        if b.is_valid() and b.number > 0 and b.type == gdb.BP_BREAKPOINT]
                if nums:
                    hits.append((pos, nums))
            # other stops (signals, watchpoints): go on
    finally:
        if at is not None and at.is_valid():
            at.delete()
        if end.is_valid():
            end.delete()
    return hits


def _goto(pos):
    """A new replay stopped at pos, the user's breakpoints kept out of the
    way."""
    user = [b for b in _user_breakpoints() if b.enabled]
    for b in user:
        b.enabled = False
    at = _At(pos)
    try:
        _switch(_start(pos[0], 0))
        while True:
            gdb.execute("continue", to_string=True)
            if not _alive():
                raise gdb.GdbError("rdb: the replay ended before interval %d count %d pc %#x"
                                   % pos)
            if position() == pos:
                break
    finally:
        if at.is_valid():
            at.delete()
        for b in user:
            if b.is_valid():
                b.enabled = True


def _where_text(pos):
    return "interval %d count %d pc %#x" % pos


class ReverseContinue(gdb.Command):
    """Run back to the last stop of a breakpoint before the current position.
Usage: rdb-reverse-continue (alias rrc)
rdb replays again from the current interval, then from each one before
it, with the breakpoints in place, until one of them stops before where
the program is now; it then replays to the last such stop.  When none
does, the program stays where it was.  Watchpoints and signals are not
stops here; the program's writes to stdout and stderr are not run again
(the replays are --quiet)."""

    def __init__(self):
        super().__init__("rdb-reverse-continue", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        if not _configured():
            raise gdb.GdbError("rdb-reverse-continue works in rdb replay --gdb")
        if not _alive():
            raise gdb.GdbError("The program is not being run.")
        if _waiting():
            print("rdb: the program has not started: no earlier breakpoint stop")
            return
        here = position()
        if not _user_breakpoints():
            print("rdb: no breakpoints: nothing to run back to")
            return
        found = None
        k = here[0]
        with _Quiet():
            while k >= 1:
                hits = _scan(k, 0 if k == here[0] else k, here if k == here[0] else None)
                if hits:
                    found = hits[-1]
                    break
                k -= 1
            _goto(found[0] if found else here)
        if found is None:
            print("rdb: no breakpoint stops before %s: the program stays there"
                  % _where_text(here))
            return
        pos, nums = found
        print("rdb: back at breakpoint %s, %s" % (", ".join(map(str, nums)),
                                                    _where_text(pos)))
        gdb.execute("frame")


class Where(gdb.Command):
    """Print the current position in the replayed run: interval, count, pc.
The count is the software instruction counter's in the interval; with the
pc it names the place exactly: rdb replays to it the same every time."""

    def __init__(self):
        super().__init__("rdb-where", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        if not _alive():
            raise gdb.GdbError("The program is not being run.")
        if _waiting():
            print("the program has not started (it waits in rdb_gdb_wait)")
            return
        print(_where_text(position()))


ReverseContinue()
Where()
gdb.execute("alias rrc = rdb-reverse-continue")
