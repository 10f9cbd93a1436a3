#!/usr/bin/env python3
"""pty-drive.py LOG STEP... -- CMD [ARG...]: runs CMD on a new pseudo
terminal (stdin, stdout and stderr its slave side, CMD its session
leader with the terminal as its controlling one), as a person at a
terminal would, and plays the steps in order:

  expect:REGEX  waits until the terminal's output since the last match
                matches REGEX (Python syntax, searched); fails after 60 s
  send:TEXT     types TEXT; \\n, \\r, \\e (escape), \\x04 (control-D) and
                other Python escapes are decoded first

Then waits for CMD to end (60 s at most) and reads what is left.  Writes
everything the terminal showed to LOG.  Exit status: CMD's, or 1 if a
step failed or CMD did not end (it is killed; LOG says where it stopped).
Used by the project tests (lua.sh: lua -i on readline)."""
import codecs
import os
import pty
import re
import select
import signal
import sys
import time

TIMEOUT = 60.0


def main():
    if len(sys.argv) < 4 or "--" not in sys.argv:
        print(__doc__, file=sys.stderr)
        return 2
    sep = sys.argv.index("--")
    log, steps, cmd = sys.argv[1], sys.argv[2:sep], sys.argv[sep + 1:]
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    seen = b""   # everything the terminal showed
    mark = 0     # where the next expect starts looking
    failed = None

    def read_some(deadline):
        nonlocal seen
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        r, _, _ = select.select([fd], [], [], min(left, 0.5))
        if not r:
            return True
        try:
            data = os.read(fd, 4096)
        except OSError:  # EIO: the slave side is closed (CMD ended)
            return False
        if not data:
            return False
        seen += data
        return True

    for step in steps:
        kind, _, arg = step.partition(":")
        if kind == "send":
            os.write(fd, codecs.decode(arg.replace("\\e", "\\x1b"), "unicode_escape").encode("latin-1"))
        elif kind == "expect":
            rx = re.compile(arg.encode())
            deadline = time.monotonic() + TIMEOUT
            while True:
                m = rx.search(seen, mark)
                if m:
                    mark = m.end()
                    break
                if not read_some(deadline):
                    failed = "no %r in the terminal's output" % arg
                    break
        else:
            failed = "unknown step %r" % step
        if failed:
            break
    deadline = time.monotonic() + (0 if failed else TIMEOUT)
    while read_some(deadline):
        pass
    status = None
    end = time.monotonic() + (0.5 if failed else TIMEOUT)
    while status is None and time.monotonic() < end:
        p, st = os.waitpid(pid, os.WNOHANG)
        if p:
            status = os.waitstatus_to_exitcode(st)
        else:
            time.sleep(0.05)
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        failed = failed or "the command did not end"
    with open(log, "wb") as f:
        f.write(seen)
        if failed:
            f.write(b"\n[pty-drive: " + failed.encode() + b"]\n")
    if failed:
        print("pty-drive: %s (the terminal's output: %s)" % (failed, log), file=sys.stderr)
        return 1
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main())
