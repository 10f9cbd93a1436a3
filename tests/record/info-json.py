#!/usr/bin/env python3
"""info-json.py TEXT JSON: rdb info's text and rdb info --json of the same
trace set state the same facts (tests/record/checks/info-json.sh).  Every
text line is matched with the JSON's values; exit 1 at the first fact that
differs, naming it."""
import json
import re
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def same(what, text, js):
    if text != js:
        fail(f"{what}: text says {text!r}, --json {js!r}")


def main(text_path, json_path):
    j = json.load(open(json_path))
    lines = open(text_path).read().split("\n")
    f = {}
    table, streams = [], []
    part = None
    for ln in lines:
        m = re.match(r"^([a-z -]+):\s*(.*)$", ln)
        if m and not ln.startswith(" "):
            f[m.group(1)] = m.group(2)
            part = m.group(1)
            if part == "streams":
                continue
            continue
        cols = ln.split()
        if part == "checksums" and cols and cols[0].isdigit():
            table.append(cols)
        if part == "streams" and len(cols) == 4 and cols[1].isdigit():
            streams.append(cols)
    same("trace", f["trace"], f"{j['trace']} (format {j['format']})")
    same("program", f["program"], j["program"])
    same("build-id", f["build-id"], j["build_id"] or "(none)")
    same("argv", f["argv"], " ".join(j["argv"]))
    same("environment", f["environment"], f"{j['environment_variables']} variables")
    if "machine" in f or j["machine"] is not None:
        same("machine", f.get("machine"), j["machine"])
    same("started", f["started"], f"{j['started']}, pid {j['pid']}")
    sc = f"{j['syscalls']}"
    if j["syscalls_cut_short"]:
        sc += (f" ({j['syscalls_cut_short']} of them cut short by a signal, then run again"
               " after its handler)")
    same("syscalls", f["syscalls"], sc)
    same("nondeterministic instructions", f["nondeterministic instructions"],
         str(j["nondeterministic_instructions"]))
    same("ended", f["ended"], j["ended"]["text"] if j["ended"] else "unknown")
    if j["ended"]:
        same("wall time", f["wall time"], f"{j['wall_time_s']:.3f} s")
    same("cut short", f["cut short"].startswith("yes"), j["cut_short"])
    nt = j["not_traced"]
    m = re.search(r"(\d+) fork child", f["not traced"])
    same("not traced: fork children", int(m.group(1)) if m else 0, nt["fork_children"])
    m = re.search(r"(\d+) clone call", f["not traced"])
    same("not traced: clones", int(m.group(1)) if m else 0, nt["thread_clones_refused"])
    same("not traced: exec", "exec'd another" in f["not traced"], nt["execd"])
    same("not traced: stopped", "the rest of the run" in f["not traced"], nt["stopped"])
    co = j["child_output"]
    if "child output" in f:
        same("child output", f["child output"],
             f"{co['writes']} writes, {co['bytes']} bytes (replayed)")
    elif co["writes"]:
        fail("child output: not in the text, --json has writes")
    sm = j["shared_memory"]
    if "shared memory" in f:
        same("shared memory", f["shared memory"],
             f"{sm['changes']} changes by others, {sm['bytes']} bytes (replayed)")
    elif sm["changes"]:
        fail("shared memory: not in the text, --json has changes")
    iv = f"{j['intervals']} ({j['complete']} complete)"
    if j["median_cpu_ms"] is not None:
        iv += f"; each about {j['median_cpu_ms']:.1f} ms of CPU (median of the timer-ended ones)"
    if j["stretched"]:
        iv += "; made longer where the boundaries' page faults cost more (--stretch)"
    same("intervals", f["intervals"], iv)
    same("checksums", f["checksums"], "yes" if j["checksums"] else "no")
    sp = j["stack_pages_intervals"]
    same("stack pages", f["stack pages"],
         f"the main stack's written pages known for {sp} of {j['intervals']} intervals" if sp
         else "not known (rdb record --no-stack-pages, or a kernel without userfaultfd "
         "write-protect and PAGEMAP_SCAN)")
    same("interval rows", len(table), min(20, j["intervals"]))
    same("interval_table length", len(j["interval_table"]), j["intervals"])
    for row, r in zip(table, j["interval_table"]):
        want = [str(r["interval"]),
                "-" if r["cpu_ms"] is None else f"{r['cpu_ms']:.1f}",
                "?" if r["syscalls"] is None else str(r["syscalls"]),
                "-" if r["values_bytes"] is None else str(r["values_bytes"]),
                str(r["signals"])] + ([str(r["stretch"])] if j["stretched"] else [])
        same(f"interval {row[0]}", row, want)
    same("streams", streams, [[s["name"], str(s["frames"]), str(s["raw_bytes"]),
                               str(s["file_bytes"])] for s in j["streams"]])
    print(f"{text_path} and {json_path}: the same {len(f)} facts, {len(table)} interval rows, "
          f"{len(streams)} streams")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2])
