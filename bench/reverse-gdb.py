# reverse-gdb.py: gdb commands bench/reverse.sh drives in `rdb replay
# --gdb-batch`.  Each prints one line,
#   BENCH <name> <median ms> <min ms> <max ms> <n>
# or "BENCH <name> unsupported: <gdb's error>" when the target refuses the
# command (today's rdb: every reverse command), never stopping the batch.
import gdb
import statistics
import time


def report(name, times, err=None):
	if err is not None and not times:
		print("BENCH %s unsupported: %s" % (name, str(err).splitlines()[0] if str(err) else "?"))
		return
	ms = [t * 1000 for t in times]
	print("BENCH %s %.1f %.1f %.1f %d" % (name, statistics.median(ms), min(ms), max(ms), len(ms)))
	if err is not None:
		print("BENCH %s stopped after %d: %s" % (name, len(ms), err))


def timed(cmd):
	t = time.monotonic()
	out = gdb.execute(cmd, to_string=True)
	t = time.monotonic() - t
	if "No more reverse-execution history" in out:
		raise gdb.error("reached the start of the history")
	return t


class BenchRepeat(gdb.Command):
	"""bench-repeat NAME N CMD: CMD N times in a row, each timed."""

	def __init__(self):
		super().__init__("bench-repeat", gdb.COMMAND_USER)

	def invoke(self, arg, from_tty):
		name, n, cmd = arg.split(None, 2)
		times, err = [], None
		for _ in range(int(n)):
			try:
				times.append(timed(cmd))
			except gdb.error as e:
				err = e
				break
		report(name, times, err)


class BenchCycle(gdb.Command):
	"""bench-cycle NAME N SETUP ; CMD: N times: SETUP untimed, then CMD
	timed (SETUP brings the program where CMD starts; several SETUP
	commands are separated by '|')."""

	def __init__(self):
		super().__init__("bench-cycle", gdb.COMMAND_USER)

	def invoke(self, arg, from_tty):
		head, cmd = arg.split(";", 1)
		name, n, setup = head.split(None, 2)
		times, err = [], None
		for _ in range(int(n)):
			for s in setup.split("|"):
				try:
					if s.strip():
						gdb.execute(s.strip(), to_string=True)
				except gdb.error as e:
					err = "setup '%s' failed: %s" % (s.strip(), e)
					break
			if err is not None:
				print("BENCH %s %s" % (name, err))
				return
			try:
				times.append(timed(cmd.strip()))
			except gdb.error as e:
				err = e
				break
		report(name, times, err)


class BenchTry(gdb.Command):
	"""bench-try CMD: CMD, its error printed instead of ending the batch."""

	def __init__(self):
		super().__init__("bench-try", gdb.COMMAND_USER)

	def invoke(self, arg, from_tty):
		try:
			gdb.execute(arg, to_string=True)
		except gdb.error as e:
			print("BENCH setup '%s' failed: %s" % (arg, e))


BenchRepeat()
BenchCycle()
BenchTry()
