#!/usr/bin/env python3
"""timeline-page.py: checks for tests/record/checks/timeline.sh.

  timeline-page.py dom DOM.html EXPECT.json
      The DOM Chromium printed after loading rdb timeline's page: for each
      process of EXPECT ({ID: {"intervals": N, "sys": N, "sig": N, "fork":
      N, "exit": N}, "cmd": TEXT}), its section has one band per interval
      (numbered 1..N) and marks whose data-KIND counts add up to N; #cmd
      holds TEXT (the page was opened at an interval's #p-ID-ivK).
  timeline-page.py png SHOT.png WIDTH HEIGHT
      The screenshot is a PNG of that size, not blank: many colours, and
      the band colour of even intervals (#6f9fd8) covers some pixels.
"""
import json
import struct
import sys
import zlib
from html.parser import HTMLParser

KINDS = ("sys", "sig", "fork", "exit")


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.procs = {}
        self.cur = None
        self.cmd = None
        self.in_cmd = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "section" and "proc" in cls:
            self.cur = self.procs.setdefault(a["data-id"], {"bands": [], **{k: 0 for k in KINDS}})
        if tag == "pre" and a.get("id") == "cmd":
            self.in_cmd, self.cmd = True, ""
        if self.cur is None:
            return
        if tag == "rect" and "iv" in cls:
            self.cur["bands"].append(int(a["data-iv"]))
        if tag == "rect" and "mk" in cls:
            for k in KINDS:
                self.cur[k] += int(a.get("data-" + k, 0))

    def handle_endtag(self, tag):
        if tag == "pre":
            self.in_cmd = False

    def handle_data(self, data):
        if self.in_cmd:
            self.cmd += data


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def dom(path, expect_path):
    p = Page()
    p.feed(open(path, encoding="utf-8").read())
    want = json.load(open(expect_path))
    for pid, w in want["procs"].items():
        got = p.procs.get(pid)
        if got is None:
            fail(f"no section for process {pid} (have {sorted(p.procs)})")
        n = w["intervals"]
        if got["bands"] != list(range(1, n + 1)):
            fail(f"process {pid}: bands {got['bands'][:30]}..., want intervals 1..{n}")
        for k in KINDS:
            if got[k] != w[k]:
                fail(f"process {pid}: {got[k]} {k} marks, rdb info says {w[k]}")
        print(f"process {pid}: {n} bands, " +
              ", ".join(f"{got[k]} {k}" for k in KINDS) + ": as rdb info says")
    if len(p.procs) != len(want["procs"]):
        fail(f"sections for {sorted(p.procs)}, want {sorted(want['procs'])}")
    if (p.cmd or "").strip() != want["cmd"]:
        fail(f"#cmd holds {p.cmd!r}, want {want['cmd']!r}")
    print(f"#cmd: {p.cmd.strip()}")


def png(path, width, height):
    b = open(path, "rb").read()
    if b[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path}: not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(b):
        n, typ = struct.unpack(">I4s", b[pos:pos + 8])
        data = b[pos + 8:pos + 8 + n]
        if typ == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", data)
        elif typ == b"IDAT":
            idat += data
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = ihdr
    if (w, h) != (width, height):
        fail(f"{path}: {w}x{h}, want {width}x{height}")
    if depth != 8 or ctype not in (2, 6) or interlace:
        fail(f"{path}: depth {depth} colour type {ctype} interlace {interlace}: not read here")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    colours, band = set(), 0
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            c = prev[i - bpp] if i >= bpp else 0
            up = prev[i]
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + up) & 255
            elif f == 3:
                line[i] = (line[i] + (a + up) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(up - c), abs(a - c), abs(a + up - 2 * c)
                pr = a if pa <= pb and pa <= pc else up if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        for x in range(0, stride, bpp):
            px = bytes(line[x:x + 3])
            colours.add(px)
            band += px == b"\x6f\x9f\xd8"
        prev = line
    print(f"{path}: {w}x{h}, {len(colours)} colours, {band} pixels of the band colour")
    if len(colours) < 8:
        fail(f"{path}: {len(colours)} colours: blank")
    if band < 100:
        fail(f"{path}: {band} pixels of the interval band colour: no bands drawn")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "dom":
        dom(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "png":
        png(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
