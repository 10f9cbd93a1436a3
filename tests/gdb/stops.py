# stops.py: loaded by both sides of every tests/gdb session (run.sh).
# It prints each stop in a form that does not depend on the build:
#   STOP <kind> <function> <file>:<line>
# for a stop in the test program's own source; a stop outside it (in
# libc, or in whatever code runs a syscall) is "STOP <kind> [lib]":
# musl's hand-written functions and rdb-cc's C ones differ in names and
# frames, and gdb cannot unwind musl's syscall code.
# <kind> is "bp N,M", "watch N", "signal SIG" or "end".
#
# Two commands make stepi comparable: rdb-cc adds hook instructions to
# every line, so "stepi 5" lands on different lines in the two builds,
# but "stepi until the line changes" does not:
#   stepi-line [reverse] [nexti]   stepi (nexti) until the (function,
#                                  line) differs from where it started
#   stepi-out [reverse]          stepi until the stop is in the test's
#                                  source again: forward at the start of
#                                  a line, back at the call
#   stepi-back N                   reverse-stepi N times, then print
#                                  the stop: only the line is compared,
#                                  so N must stay within one line
import gdb
import os

quiet = [0]


def own_file():
	"""The test program's source file: the one that holds main."""
	sym = gdb.lookup_global_symbol("main")
	if sym is None or sym.symtab is None:
		return None
	return os.path.basename(sym.symtab.filename)


def where():
	"""(prefix, function, file:line) of the stop, normalized."""
	src = own_file()
	f = gdb.newest_frame()
	sal = f.find_sal()
	if sal.symtab is not None and os.path.basename(sal.symtab.filename) == src:
		return "", f.name() or "??", "%s:%d" % (src, sal.line)
	# Outside the test's source: musl's hand-written syscall code has no
	# unwind information (gdb cannot find its caller) and rdb-cc's
	# libc is C, so the caller is not compared: stepi-out finds it.
	return "[lib]", "", ""


def position():
	return " ".join(w for w in where() if w)


def kind(ev):
	if isinstance(ev, gdb.BreakpointEvent):
		bps = ev.breakpoints
		if bps and bps[0].type in (gdb.BP_WATCHPOINT, gdb.BP_HARDWARE_WATCHPOINT,
		                           gdb.BP_READ_WATCHPOINT, gdb.BP_ACCESS_WATCHPOINT):
			return "watch " + ",".join(str(b.number) for b in bps)
		return "bp " + ",".join(str(b.number) for b in bps)
	if isinstance(ev, gdb.SignalEvent):
		return "signal " + ev.stop_signal
	return "end"


def on_stop(ev):
	if quiet[0]:
		return
	print("STOP %s %s" % (kind(ev), position()))


def on_exit(ev):
	if quiet[0]:
		return
	code = getattr(ev, "exit_code", None)
	print("EXIT %s" % ("?" if code is None else code))


gdb.events.stop.connect(on_stop)
gdb.events.exited.connect(on_exit)


def line_key():
	lib, name, loc = where()
	return (lib, name, loc)


class Quiet:
	"""No STOP lines inside; and gdb, which prints the frame of a stop
	in another function even from gdb.execute(to_string=True), prints
	it without arguments: at a function's first instruction they are
	whatever the stack held, which differs between the builds."""

	def __enter__(self):
		quiet[0] += 1
		self.args = gdb.parameter("print frame-arguments")
		gdb.execute("set print frame-arguments none")

	def __exit__(self, *exc):
		gdb.execute("set print frame-arguments " + self.args)
		quiet[0] -= 1


class StepiLine(gdb.Command):
	"""stepi-line [reverse] [nexti]: single-step until the line changes."""

	def __init__(self):
		super().__init__("stepi-line", gdb.COMMAND_RUNNING)

	def invoke(self, arg, from_tty):
		words = arg.split()
		cmd = ("reverse-" if "reverse" in words else "") + \
		      ("nexti" if "nexti" in words else "stepi")
		start = line_key()
		with Quiet():
			# no test line has more than a few thousand instructions
			for _ in range(20000):
				out = gdb.execute(cmd, to_string=True)
				if "No more reverse-execution history" in out:
					print("No more reverse-execution history.")
					break
				if line_key() != start:
					break
		print("STOP stepi %s" % position())


class StepiBack(gdb.Command):
	"""stepi-back N: reverse-stepi N times, then print where."""

	def __init__(self):
		super().__init__("stepi-back", gdb.COMMAND_RUNNING)

	def invoke(self, arg, from_tty):
		with Quiet():
			for _ in range(int(arg)):
				gdb.execute("reverse-stepi", to_string=True)
		print("STOP stepi %s" % position())


def at_line_start():
	"""The pc starts a line-table entry: where the instructions after a
	call's return (rdb-cc may add some to the line) are done."""
	f = gdb.newest_frame()
	return f.pc() == f.find_sal().pc


class StepiOut(gdb.Command):
	"""stepi-out [reverse]: single-step until back in the test's source;
	forward, on to the start of a line; back, to the call."""

	def __init__(self):
		super().__init__("stepi-out", gdb.COMMAND_RUNNING)

	def invoke(self, arg, from_tty):
		back = "reverse" in arg.split()
		cmd = ("reverse-" if back else "") + "stepi"
		with Quiet():
			for _ in range(200000):
				if where()[0] != "[lib]" and (back or at_line_start()):
					break
				out = gdb.execute(cmd, to_string=True)
				if "No more reverse-execution history" in out:
					print("No more reverse-execution history.")
					break
		print("STOP stepi %s" % position())


StepiLine()
StepiOut()
StepiBack()
