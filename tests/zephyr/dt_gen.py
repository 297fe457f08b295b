#!/usr/bin/python3
"""dt_gen.py - check a sample's board overlay and turn it into the devicetree stand-in.

    dt_gen.py OVERLAY BINDINGS_DIR OUT_DIR

Zephyr is not available here, so the board's own devicetree is not either: every label the
overlay refers to but does not define (&spi3, &gpio1, ...) becomes a stub node. The overlay is
run through the C preprocessor with the GPIO flag values of the stand-in dt-bindings header and
compiled by dtc (syntax errors, unknown labels and bad references fail here). Then, for each
labelled node of the overlay:
  - a node with a "compatible" must have a binding BINDINGS_DIR/<compatible>.yaml, a vendor
    prefix listed in BINDINGS_DIR/vendor-prefixes.txt, and every property the binding marks
    required (a binding that includes spi-device.yaml also requires reg and spi-max-frequency,
    as Zephyr's spi-device.yaml does, and a bus);
  - each *-gpios property must be <&controller pin flags> with pin < 32;
  - each /chosen property must name a labelled node (DT_CHOSEN_<prop>, a device).
OUT_DIR receives devicetree_generated.h (the macros tests/zephyr/include/zephyr/devicetree.h
reads: <node>_EXISTS, _FULL_NAME, _BUS, _REG_ADDR, _P_<prop>, _P_<prop>_CTLR/_PIN/_FLAGS,
_SPI_CS_INIT; per compatible DT_N_INST_<i>_<compat> and DT_FOREACH_OKAY_INST_<compat>; the list
ZDT_FOREACH_NODE) and
devicetree_devices.c (one struct device per controller or bus, for programs that link).
Exit status 0, or 1 with the reason on stderr."""
import os
import re
import subprocess
import sys
import tempfile


def fail(msg):
    sys.stderr.write("dt_gen: %s\n" % msg)
    sys.exit(1)


def tokens(text):
    # a property name may hold commas (zephyr,console): a lone "," is a value separator
    spec = r'"(?:[^"\\]|\\.)*"|<[^>]*>|\[[^\]]*\]|[{};=:]|[^\s{};=:<>"\[\]]+'
    return re.findall(spec, text)


class Node:
    def __init__(self, name, parent):
        self.name, self.parent = name, parent
        self.labels, self.props, self.children = [], {}, []


def parse(text):
    """Parse dtc's normalized DTS output into a tree of Node."""
    text = re.sub(r"/dts-v1/;", "", text)
    toks = tokens(text)
    root = Node("/", None)
    stack, pending_labels, i = [], [], 0
    cur = None
    while i < len(toks):
        t = toks[i]
        if i + 1 < len(toks) and toks[i + 1] == ":":
            pending_labels.append(t)
            i += 2
            continue
        if t == "};":
            t = "}"
        if t == "}":
            cur = stack.pop() if stack else None
            i += 1
            if i < len(toks) and toks[i] == ";":
                i += 1
            continue
        if i + 1 < len(toks) and toks[i + 1] == "{":
            node = root if (t == "/" and cur is None) else Node(t, cur)
            node.labels += pending_labels
            pending_labels = []
            if cur is not None:
                cur.children.append(node)
            stack.append(cur)
            cur = node
            i += 2
            continue
        # property: name [= value {, value}] ;
        name, i = t, i + 1
        values = []
        if toks[i] == "=":
            i += 1
            while toks[i] != ";":
                if toks[i] != ",":
                    values.append(toks[i])
                i += 1
        if toks[i] != ";":
            fail("cannot parse near %r" % name)
        cur.props[name] = values
        i += 1
    return root


def walk(node):
    yield node
    for c in node.children:
        yield from walk(c)


def cells(value):
    return [int(x, 0) for x in value[1:-1].split()]


def main():
    if len(sys.argv) != 4:
        fail("usage: dt_gen.py OVERLAY BINDINGS_DIR OUT_DIR")
    overlay, bindings, out = sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    flags_h = os.path.join(here, "include", "zephyr", "dt-bindings", "gpio", "gpio.h")
    src = open(overlay).read()
    defined = set(re.findall(r"\b(\w+)\s*:\s*[\w@,.-]+\s*\{", src))
    refs = sorted(set(re.findall(r"&(\w+)", src)) - defined)
    stub = ["/dts-v1/;", "/ {", "\t#address-cells = <1>;", "\t#size-cells = <1>;"]
    for n, label in enumerate(refs):
        # a stub can stand for a bus (address cells for children) or a GPIO controller
        stub.append("\t%s: stub-%s@%x { reg = <0x%x 1>; gpio-controller; #gpio-cells = <2>;"
                    " #address-cells = <1>; #size-cells = <0>; };" % (label, label, n, n))
    stub.append("};")
    with tempfile.TemporaryDirectory() as tmp:
        dts = os.path.join(tmp, "board.dts")
        with open(dts, "w") as f:
            f.write("\n".join(stub) + "\n#line 1 \"%s\"\n" % overlay + src)
        pre = subprocess.run(["cpp", "-P", "-nostdinc", "-undef", "-x", "assembler-with-cpp",
                              "-include", flags_h, dts], capture_output=True, text=True)
        if pre.returncode:
            fail("cpp: " + pre.stderr.strip())
        pre_path = os.path.join(tmp, "board.pre")
        with open(pre_path, "w") as f:
            f.write(pre.stdout)
        res = subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dts", pre_path],
                             capture_output=True, text=True)
        if res.returncode:
            fail("dtc: " + res.stderr.strip())
    root = parse(res.stdout)

    by_phandle, by_label = {}, {}
    for n in walk(root):
        for l in n.labels:
            by_label[l] = n
        if "phandle" in n.props:
            by_phandle[cells(n.props["phandle"][0])[0]] = n
    stubs = set(refs)
    prefixes = set()
    vp = os.path.join(bindings, "vendor-prefixes.txt")
    if os.path.exists(vp):
        for line in open(vp):
            if line.strip() and not line.startswith("#"):
                prefixes.add(line.split("\t")[0].strip())

    lines = ["/* Generated by tests/zephyr/dt_gen.py from %s: do not edit. */" %
             os.path.relpath(overlay)]
    devices = set()
    compats, labelled = {}, []

    def node_id(n):
        if not n.labels:
            fail("node %s needs a label" % n.name)
        return "DT_N_NODELABEL_" + n.labels[0]

    def gpio_cells(owner, prop):
        v = owner.props[prop]
        if len(v) != 1 or not v[0].startswith("<"):
            fail("%s: %s must be one <&controller pin flags> entry" % (owner.name, prop))
        c = cells(v[0])
        if len(c) != 3 or c[0] not in by_phandle:
            fail("%s: %s must be <&controller pin flags>" % (owner.name, prop))
        if c[1] >= 32:
            fail("%s: %s pin %d out of range" % (owner.name, prop, c[1]))
        ctlr = node_id(by_phandle[c[0]])
        devices.add(ctlr)
        return ctlr, c[1], c[2]

    for label, n in sorted(by_label.items()):
        if label in stubs or label != n.labels[0]:
            continue
        nid = node_id(n)
        lines.append("#define %s_EXISTS 1" % nid)
        lines.append('#define %s_FULL_NAME "%s"' % (nid, n.name))
        labelled.append(nid)
        if n.parent is not None and n.parent.labels:
            bus = node_id(n.parent)
            devices.add(bus)
            lines.append("#define %s_BUS %s" % (nid, bus))
        if "reg" in n.props:
            lines.append("#define %s_REG_ADDR %d" % (nid, cells(n.props["reg"][0])[0]))
        for prop, v in sorted(n.props.items()):
            macro = "%s_P_%s" % (nid, re.sub(r"[^A-Za-z0-9]", "_", prop).lower())
            if prop.endswith("-gpios"):
                ctlr, pin, flags = gpio_cells(n, prop)
                lines += ["#define %s_EXISTS 1" % macro, "#define %s_CTLR %s" % (macro, ctlr),
                          "#define %s_PIN %d" % (macro, pin), "#define %s_FLAGS %d" % (macro, flags)]
            elif len(v) == 1 and v[0].startswith("<") and len(cells(v[0])) == 1:
                lines.append("#define %s %d" % (macro, cells(v[0])[0]))
            elif len(v) == 1 and v[0].startswith('"'):
                lines.append("#define %s %s" % (macro, v[0]))
        # chip select: the bus's cs-gpios entry at this node's reg index
        p = n.parent
        if p is not None and "reg" in n.props:
            idx = cells(n.props["reg"][0])[0]
            if "cs-gpios" in p.props:
                cs = cells(p.props["cs-gpios"][0])
                if len(cs) < 3 * (idx + 1):
                    fail("%s: no cs-gpios entry %d on its bus" % (n.name, idx))
                ph, pin, flags = cs[3 * idx:3 * idx + 3]
                if ph not in by_phandle or pin >= 32:
                    fail("%s: bad cs-gpios entry %d" % (n.name, idx))
                ctlr = node_id(by_phandle[ph])
                devices.add(ctlr)
                lines.append("#define %s_SPI_CS_INIT { .gpio = { .port = DEVICE_DT_GET(%s), "
                             ".pin = %d, .dt_flags = %d }, .delay = 0, .cs_is_gpio = true }"
                             % (nid, ctlr, pin, flags))
            else:
                lines.append("#define %s_SPI_CS_INIT { .setup_ns = 0, .hold_ns = 0, "
                             ".cs_is_gpio = false }" % nid)
        # binding checks
        if "compatible" in n.props:
            compat = n.props["compatible"][0].strip('"')
            if compat.split(",")[0] not in prefixes:
                fail("%s: vendor prefix of %s not in %s" % (n.name, compat, vp))
            bfile = os.path.join(bindings, compat + ".yaml")
            if not os.path.exists(bfile):
                fail("%s: no binding %s" % (n.name, bfile))
            import yaml
            b = yaml.safe_load(open(bfile))
            if b.get("compatible") != compat:
                fail("%s: compatible differs from the file name" % bfile)
            required = [k for k, d in (b.get("properties") or {}).items() if d.get("required")]
            if "spi-device.yaml" in str(b.get("include")):
                # chip select: the bus's cs-gpios entry, or the controller's own (an emulated
                # bus, a controller with hardware chip selects)
                required += ["reg", "spi-max-frequency"]
                if p is None:
                    fail("%s: not on a bus" % n.name)
            inst = compats.setdefault(re.sub(r"[^A-Za-z0-9]", "_", compat).lower(), [])
            lines.append("#define DT_N_INST_%d_%s %s" % (len(inst), re.sub(r"[^A-Za-z0-9]", "_", compat).lower(), nid))
            inst.append(nid)
            for r in required:
                if r not in n.props:
                    fail("%s: required property %s missing" % (n.name, r))
            for k, d in (b.get("properties") or {}).items():
                if d.get("type") == "phandle-array" and k in n.props:
                    gpio_cells(n, k)

    # /chosen: a property is a path (dtc turns &label into one); it names a labelled node
    paths = {}

    def index(n, path):
        paths[path] = n
        for c in n.children:
            index(c, (path.rstrip("/") + "/" + c.name))
    index(root, "/")
    for c in root.children:
        if c.name != "chosen":
            continue
        for prop, v in sorted(c.props.items()):
            if len(v) != 1 or not v[0].startswith('"') or v[0].strip('"') not in paths:
                fail("chosen %s must name a node (&label)" % prop)
            target = node_id(paths[v[0].strip('"')])
            devices.add(target)
            name = re.sub(r"[^A-Za-z0-9]", "_", prop).lower()
            lines += ["#define DT_CHOSEN_%s %s" % (name, target),
                      "#define DT_CHOSEN_%s_EXISTS 1" % name]

    # DT_INST_FOREACH_STATUS_OKAY per compatible, and every labelled node (emulator declarations)
    for c, nodes in sorted(compats.items()):
        lines.append("#define DT_FOREACH_OKAY_INST_%s(fn) %s" %
                     (c, " ".join("fn(%d)" % i for i in range(len(nodes)))))
    lines.append("#define ZDT_FOREACH_NODE(fn) %s" % " ".join("fn(%s)" % n for n in labelled))
    lines += ["extern const struct device zdt_device_%s;" % d for d in sorted(devices)]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "devicetree_generated.h"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "devicetree_devices.c"), "w") as f:
        f.write("/* Generated by tests/zephyr/dt_gen.py: do not edit. */\n#include <zephyr/device.h>\n")
        for d in sorted(devices):
            f.write('const struct device zdt_device_%s = {"%s"};\n' % (d, d[len("DT_N_NODELABEL_"):]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
