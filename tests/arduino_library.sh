#!/usr/bin/env bash
# arduino_library.sh - the zip `make arduino` makes is an Arduino library as the library
# specification (format 1.5) and arduino-lint's documented rules for library.properties and the
# library's layout describe it (arduino-lint itself is not packaged for Debian; these are its
# rules, checked here):
#   - every line is a comment or key=value, UTF-8; only the specification's field names;
#   - the required fields are there and not empty: name, version, author, maintainer, sentence,
#     paragraph, category, url, architectures;
#   - name: letters, digits, space, _ . - and starting with a letter or digit, at most 63
#     characters, not starting with "Arduino" (official libraries only), equal to the folder's;
#   - version: semantic versioning, and accel.h's ACCEL_VERSION_STRING;
#   - maintainer not starting with "Arduino"; paragraph does not repeat the sentence;
#   - category one of the specification's nine; url a URL (scheme and host); architectures a
#     comma-separated list of "*" or architecture names; includes: files in src/;
#   - layout 1.5: src/ with the sources, no utility/ beside it, each examples/NAME/ has NAME.ino.
# The same checker must refuse the old file (url= empty) and three other broken ones. The zip
# holds every file of every examples/arduino/ folder, and its accel_impl.c is compiled with
# ports/arduino/accel_arduino_config.h (the library's AVR choices).
# Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
for c in zip unzip; do
    have $c || { skip "Arduino library zip" "$c missing (bash scripts/setup.sh as root)"; lib_end; exit; }
done
B=build/arduino-library
rm -rf "$B" && mkdir -p "$B/unz"
ver=$(sed -n 's/^#define ACCEL_VERSION_STRING "\(.*\)"$/\1/p' accel.h)
if zip=$(bash scripts/arduino_lib.sh "$B/pkg" 2>"$B/pkg.log") && [ -f "$zip" ] && unzip -q "$zip" -d "$B/unz"; then
    ok "make arduino's zip unpacks"
else
    bad "arduino_lib.sh" "$(cat "$B/pkg.log")"; lib_end; exit
fi

# check LIBDIR PROPERTIES: prints "ok NAME" / "FAIL NAME: why" per rule
check() {
    python3 - "$1" "$2" "$ver" <<'PY'
import os, re, sys
libdir, props, ver = sys.argv[1:4]
def case(name, good, why=""):
    print(("ok " if good else "FAIL ") + name + ("" if good else ": " + why))
raw = open(props, "rb").read()
try:
    text = raw.decode("utf-8"); case("UTF-8", True)
except UnicodeDecodeError as e:
    case("UTF-8", False, str(e)); text = raw.decode("latin-1")
fields, bad_lines = {}, []
for n, line in enumerate(text.splitlines(), 1):
    s = line.strip()
    if not s or s.startswith("#"):
        continue
    if "=" not in s:
        bad_lines.append(n); continue
    k, v = s.split("=", 1)
    fields[k.strip()] = v.strip()
case("every line is key=value", not bad_lines, "lines %s" % bad_lines)
KNOWN = {"name", "version", "author", "maintainer", "sentence", "paragraph", "category", "url",
         "architectures", "depends", "dot_a_linkage", "includes", "precompiled", "ldflags"}
unknown = sorted(set(fields) - KNOWN)
case("only the specification's fields", not unknown, "unknown: %s" % unknown)
for k in ("name", "version", "author", "maintainer", "sentence", "paragraph", "category", "url", "architectures"):
    case("%s= present and not empty" % k, bool(fields.get(k)), "missing or empty")
name = fields.get("name", "")
case("name: allowed characters, at most 63",
     re.match(r"^[A-Za-z0-9][A-Za-z0-9 _.\-]{0,62}$", name) is not None, repr(name))
case("name does not start with Arduino", not name.lower().startswith("arduino"), repr(name))
case("name is the folder's", name == os.path.basename(os.path.normpath(libdir)), "%r in %s" % (name, libdir))
v = fields.get("version", "")
case("version is semantic versioning",
     re.match(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$", v) is not None, repr(v))
case("version is accel.h's", v == ver, "%r, accel.h %r" % (v, ver))
case("maintainer does not start with Arduino", not fields.get("maintainer", "").lower().startswith("arduino"))
sen, par = fields.get("sentence", ""), fields.get("paragraph", "")
case("paragraph does not repeat the sentence", not (sen and par.startswith(sen)), "paragraph starts with the sentence")
CATS = {"Display", "Communication", "Signal Input/Output", "Sensors", "Device Control", "Timing",
        "Data Storage", "Data Processing", "Other"}
case("category is one of the nine", fields.get("category") in CATS, repr(fields.get("category")))
case("url is a URL", re.match(r"^https?://[A-Za-z0-9.-]+(:\d+)?(/\S*)?$", fields.get("url", "")) is not None,
     repr(fields.get("url", "")))
arch = [a.strip() for a in fields.get("architectures", "").split(",")]
case("architectures: a list of * or names", all(a == "*" or re.match(r"^[a-z0-9_]+$", a) for a in arch), repr(arch))
for h in [x.strip() for x in fields.get("includes", "").split(",") if x.strip()]:
    case("includes %s is in src/" % h, os.path.isfile(os.path.join(libdir, "src", h)), "missing")
for k in ("dot_a_linkage",):
    if k in fields:
        case(k + " is true/false", fields[k] in ("true", "false"), repr(fields[k]))
if "precompiled" in fields:
    case("precompiled is true/full/false", fields["precompiled"] in ("true", "full", "false"))
case("layout 1.5: src/ holds the sources", os.path.isdir(os.path.join(libdir, "src")) and
     any(f.endswith((".c", ".cpp")) for f in os.listdir(os.path.join(libdir, "src"))), "no src/ with sources")
case("layout 1.5: no utility/ beside src/", not os.path.isdir(os.path.join(libdir, "utility")), "utility/ found")
exdir = os.path.join(libdir, "examples")
for ex in sorted(os.listdir(exdir)) if os.path.isdir(exdir) else []:
    case("example %s has %s.ino" % (ex, ex), os.path.isfile(os.path.join(exdir, ex, ex + ".ino")), "missing")
PY
}
count() { # the checker's lines into ok/bad
    while IFS= read -r line; do
        case "$line" in
            "ok "*) ok "${line#ok }" ;;
            "FAIL "*) bad "${line#FAIL }" ;;
            *) [ -n "$line" ] && bad "checker: $line" ;;
        esac
    done
}
L=$B/unz/Accel
count < <(check "$L" "$L/library.properties" 2>&1)
# every example folder of the repository, whole (TfliteHello's model.h beside its sketch), and
# the configuration the implementation is compiled with (models in flash on AVR)
for d in examples/arduino/*/; do
    n=$(basename "$d")
    [ "$n" = Bridge ] && [ -f "$L/NO_BRIDGE.txt" ] && continue
    for f in "$d"*; do
        cmp -s "$f" "$L/examples/$n/$(basename "$f")" && ok "zip has $n/$(basename "$f")" || bad "zip lacks examples/$n/$(basename "$f")"
    done
done
grep -q '^#include "accel_arduino_config.h"$' "$L/src/accel_impl.c" && cmp -s "$L/src/accel_arduino_config.h" ports/arduino/accel_arduino_config.h &&
    ok "accel_impl.c is compiled with accel_arduino_config.h" || bad "accel_impl.c does not include accel_arduino_config.h"
printf '%s\n' "  library.properties:" && sed 's/^/    /' "$L/library.properties" | cut -c1-100

# the checker refuses broken files: the old empty url, a missing author, an unknown category,
# a misspelt field
refuse() { # NAME SED_EXPRESSION
    sed "$2" "$L/library.properties" >"$B/broken.properties"
    if check "$L" "$B/broken.properties" 2>&1 | grep -q '^FAIL '; then ok "refuses $1"
    else bad "refuses $1" "the checker passed it"; fi
}
refuse "url= empty" 's/^url=.*/url=/'
refuse "no author" '/^author=/d'
refuse "category=Neural" 's/^category=.*/category=Neural/'
refuse "a misspelt field" 's/^architectures=/architecture=/'
lib_end
