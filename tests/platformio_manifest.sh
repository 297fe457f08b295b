#!/usr/bin/env bash
# platformio_manifest.sh - library.json (PlatformIO) is valid and true. PlatformIO itself is not
# packaged for Debian, so this is a JSON schema check, not the tool: tests/platformio/
# library.schema.json is the subset of the manifest format accel uses, written from PlatformIO's
# documentation. Besides the schema: the version is accel.h's, every file the source filter
# adds, every -I directory, the include directory's accel.h, each listed header and example file
# exist, and every Arduino example that needs nothing beyond the library is listed. The schema
# must also refuse three broken manifests (so the check can fail). Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
if ! $PY -c 'import jsonschema' 2>/dev/null; then
    skip "library.json against the schema" "python3-jsonschema missing (bash scripts/setup.sh as root)"
    lib_end; exit
fi
out=$($PY - 2>&1 <<'PYEOF'
import copy, glob, json, os, re, sys
import jsonschema
res = []
def case(name, good, detail=""):
    print(("ok " if good else "FAIL ") + name + ("" if good else ": " + detail))
schema = json.load(open("tests/platformio/library.schema.json"))
jsonschema.Draft7Validator.check_schema(schema)
v = jsonschema.Draft7Validator(schema)
try:
    m = json.load(open("library.json"))
    case("library.json parses", True)
except Exception as e:
    case("library.json parses", False, str(e)); sys.exit(0)
errs = sorted(v.iter_errors(m), key=lambda e: list(e.path))
case("library.json against the schema", not errs, "; ".join("%s: %s" % ("/".join(map(str, e.path)), e.message) for e in errs[:5]))
ver = re.search(r'^#define ACCEL_VERSION_STRING "([^"]+)"', open("accel.h").read(), re.M).group(1)
case("version is accel.h's " + ver, m.get("version") == ver, "library.json says %r" % m.get("version"))
b = m.get("build", {})
src = b.get("srcDir", "src")
filt = b.get("srcFilter", [])
filt = filt.split() if isinstance(filt, str) else filt
for f in filt:
    mm = re.match(r"^\+<(.*)>$", f)
    if mm and not any(ch in mm.group(1) for ch in "*?"):
        case("srcFilter adds " + mm.group(1), os.path.isfile(os.path.join(src, mm.group(1))), "no such file")
inc = b.get("includeDir", "include")
case("includeDir holds accel.h", os.path.isfile(os.path.join(inc, "accel.h")), "no accel.h in " + inc)
flags = b.get("flags", [])
flags = flags.split() if isinstance(flags, str) else flags
dirs = [inc]
for f in flags:
    if f.startswith("-I"):
        d = f[2:].strip()
        dirs.append(d)
        case("flag %s names a directory" % f, os.path.isdir(d), "missing")
hdrs = m.get("headers", [])
for h in ([hdrs] if isinstance(hdrs, str) else hdrs):
    case("header " + h, any(os.path.isfile(os.path.join(d, h)) for d in dirs), "not in " + " ".join(dirs))
listed = set()
for ex in m.get("examples", []):
    if isinstance(ex, dict):
        listed.add(ex["name"])
        for f in ex["files"]:
            p = os.path.join(ex["base"], f)
            case("example file " + p, os.path.isfile(p), "missing")
for d in sorted(glob.glob("examples/arduino/*/")):
    n = os.path.basename(d.rstrip("/"))
    text = open(os.path.join(d, n + ".ino")).read()
    # a sketch of the bridge needs nanopb and the bridge sources, which the manifest does not build
    if "accel_bridge" in text:
        continue
    case("example %s listed" % n, n in listed, "examples/arduino/%s is not in library.json" % n)
# the schema refuses what it should
for what, edit in (("no name", lambda x: x.pop("name")),
                   ("an unknown build mode", lambda x: x["build"].__setitem__("libLDFMode", "sideways")),
                   ("a misspelt field", lambda x: x.__setitem__("frameworkz", "arduino"))):
    bad = copy.deepcopy(m); edit(bad)
    case("the schema refuses " + what, not v.is_valid(bad), "accepted")
PYEOF
)
while IFS= read -r line; do
    case "$line" in
        "ok "*) ok "${line#ok }" ;;
        "FAIL "*) bad "${line#FAIL }" ;;
        *) [ -n "$line" ] && bad "checker: $line" ;;
    esac
done <<<"$out"
lib_end
