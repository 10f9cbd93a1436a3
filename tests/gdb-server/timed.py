# timed.py: for run.sh.  `timed LIMIT CMD`: CMD, then "rdb-test: CMD ->
# FUNCTION:LINE" (where it stopped), or "rdb-test: CMD took N s" when it
# took longer than LIMIT seconds (a reverse command that replays far too
# much: one stop at every call of a hot function).
import gdb
import time


class Timed(gdb.Command):
    def __init__(self):
        super().__init__("timed", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        limit, cmd = arg.split(None, 1)
        t = time.monotonic()
        gdb.execute(cmd, to_string=True)
        t = time.monotonic() - t
        f = gdb.selected_frame()
        print("rdb-test: %s -> %s:%d" % (cmd, f.name(), f.find_sal().line))
        if t > float(limit):
            print("rdb-test: %s took %.1f s" % (cmd, t))


Timed()
