#!/usr/bin/python3
"""stack_usage.py - the stack each public accel function needs, from GCC's call graph.

    stack_usage.py CI_FILE SU_FILE BOUND

CI_FILE is what -fcallgraph-info=su wrote for the one file that compiled accel.h's
implementation, SU_FILE what -fstack-usage wrote (frame sizes and whether they are bounded).
For every global function named accel_<section>_... (not accel__, the private ones) the need
is its own frame plus the largest need of a function it calls directly, recursively (the
deepest chain of direct calls). Calls through a pointer (the port's and the caller's
callbacks) and calls to the C library (memcpy, memset) count 0: the callbacks belong to the
port, the library functions to the toolchain.
Prints one line per section (tsp1, edgetpu, refsi, ane, mac, tflite; the rest is common): its largest
need and the function, then each public function
above BOUND. Exit 1 when a function is above BOUND, has a frame whose size is not bounded
(alloca, a variable-length array), or can recurse (the need would be unbounded)."""
import re
import sys


SECTIONS = ("tsp1", "edgetpu", "refsi", "ane", "mac", "tflite")


def main():
    if len(sys.argv) < 4:
        sys.stderr.write("usage: stack_usage.py CI_FILE SU_FILE BOUND\n")
        return 2
    ci, su, bound = sys.argv[1], sys.argv[2], int(sys.argv[3])
    frame, edges, name_of = {}, {}, {}
    node_re = re.compile(r'^node: \{ title: "([^"]+)" label: "([^"\\]+)(?:\\n[^"]*?)?(?:\\n(\d+) bytes \((\w[\w,]*)\))?"')
    edge_re = re.compile(r'^edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')
    bad = []
    for line in open(ci):
        m = node_re.match(line)
        if m:
            title, label, size, kind = m.groups()
            name_of[title] = title.split(":", 1)[-1]
            if size is not None:
                frame[title] = int(size)
                if kind not in ("static", "dynamic,bounded"):
                    bad.append("%s: frame %s (%s)" % (name_of[title], size, kind))
            continue
        m = edge_re.match(line)
        if m:
            edges.setdefault(m.group(1), set()).add(m.group(2))
    # the .su file must agree that every frame is bounded (a cross-check of the parse)
    for line in open(su):
        parts = line.rstrip("\n").split("\t")
        if len(parts) == 3 and parts[2] not in ("static", "dynamic,bounded"):
            bad.append("%s: %s bytes (%s)" % (parts[0].rsplit(":", 1)[-1], parts[1], parts[2]))

    need, state = {}, {}

    def depth(t, path):
        if state.get(t) == 1:
            bad.append("recursion: " + " -> ".join(name_of.get(p, p) for p in path + [t]))
            return 0
        if t in need:
            return need[t]
        state[t] = 1
        best = 0
        for c in edges.get(t, ()):
            if c in frame:  # a function defined in this file; others count 0 (see above)
                best = max(best, depth(c, path + [t]))
        state[t] = 2
        need[t] = frame.get(t, 0) + best
        return need[t]

    public = sorted(t for t in frame if re.match(r"^accel_[a-z0-9]+_\w+$", name_of[t]) and
                    not name_of[t].startswith("accel__"))
    if not public:
        bad.append("no public function found in %s" % ci)
    per_section = {}
    over = []
    for t in public:
        n = name_of[t]
        d = depth(t, [])
        sec = n.split("_")[1]
        if sec not in SECTIONS:
            sec = "common"  # status, crc32, fifo, reader/writer, port helpers, time
        if sec not in per_section or d > per_section[sec][0]:
            per_section[sec] = (d, n)
        if d > bound:
            over.append((d, n))
    for sec in sorted(per_section):
        d, n = per_section[sec]
        print("  %-8s %6d bytes  %s" % (sec, d, n))
    for d, n in sorted(over, reverse=True):
        print("  over the bound of %d: %s needs %d bytes" % (bound, n, d))
    for b in bad:
        print("  " + b)
    print("  largest: %d bytes (%d public functions)" %
          (max(d for d, _ in per_section.values()) if per_section else 0, len(public)))
    return 1 if over or bad else 0


if __name__ == "__main__":
    sys.exit(main())
