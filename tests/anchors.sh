#!/usr/bin/env bash
# anchors.sh - accel.h reads as a map: every part has one token @<section>.<part> in its
# declaration banner and in its implementation banner, so `grep -n '@tsp1.driver' accel.h` lands
# on both halves. Cases:
#   - every banner line carries a token;
#   - every token of a declaration banner is in an implementation banner and the other way round
#     (except the parts the head comment lists as "declarations only");
#   - the head comment's contents list names exactly the banners' tokens;
#   - a token @<s>.<part> of a section s sits inside SECTION: s;
#   - every public function is defined under the token it is declared under;
#   - a section's private names (accel__mac_*, ACCEL__TFL_*, ...) appear only inside that
#     section: a section uses another through its public API, shared needs live in common.
# Usage: bash tests/anchors.sh [header] (default accel.h). Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
H=${1:-accel.h}
py_cases anchors "$H" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split('\n')
TOK = re.compile(r'@[a-z][a-z0-9]*(?:\.[a-z][a-z0-9_]*)?')
BANNER = re.compile(r'^(/\* (-{4}|={4}|-{20,}) |#endif /\* -{4} | \* SECTION:| \* IMPLEMENTATION)')
FUNC = re.compile(r'^ACCELDEF\b[^(]*?\b(accel_[a-z0-9_]+)\s*\(')
res = []
def case(name, problems):
    res.append((name, problems))

impl = [i for i, l in enumerate(lines) if l.startswith(' * IMPLEMENTATION')]
if len(impl) != 1:
    print('FAIL one IMPLEMENTATION banner: found %d' % len(impl)); sys.exit(0)
impl = impl[0]
head_end = next(i for i, l in enumerate(lines) if l.startswith(' */'))
head = '\n'.join(lines[:head_end])
listed = set(TOK.findall(head))
decl_only = set()
for l in lines[:head_end]:
    if 'declarations only' in l: decl_only |= set(TOK.findall(l))

untagged, decl, impl_t, where = [], {}, {}, []
section, cur = None, None
owner = {}          # function -> (decl tokens, impl tokens)
for i, l in enumerate(lines):
    if i <= head_end: continue
    m = re.match(r'^ \* SECTION: ([a-z0-9]+)', l)
    if m: section = m.group(1)
    if l.startswith(' * IMPLEMENTATION'): section = 'config'
    if BANNER.match(l):
        toks = TOK.findall(l)
        if not toks: untagged.append('%d: %s' % (i + 1, l.strip()[:90])); continue
        for t in toks:
            (decl if i < impl else impl_t).setdefault(t, i + 1)
            where.append((t, section, i + 1))
        cur = toks[-1]
    m = FUNC.match(l)
    if m and cur:
        owner.setdefault(m.group(1), (set(), set()))[0 if i < impl else 1].add(cur)

case('every banner carries a token', untagged)
case('every declaration token has an implementation banner',
     ['%s (line %d)' % (t, n) for t, n in sorted(decl.items()) if t not in impl_t and t not in decl_only])
case('every implementation token has a declaration banner',
     ['%s (line %d)' % (t, n) for t, n in sorted(impl_t.items()) if t not in decl])
case('declarations-only parts have no implementation banner',
     sorted(t for t in decl_only if t in impl_t or t not in decl))
allt = set(decl) | set(impl_t)
case('the head comment lists every token', sorted(allt - listed))
case('the head comment lists no token that is not a banner', sorted(listed - allt))
sections = set(s for _, s, _ in where if s)
case('each section token sits in its own section',
     ['%s at line %d is in SECTION %s' % (t, n, s) for t, s, n in where
      if t[1:].split('.')[0] in sections and t[1:].split('.')[0] != s])
case('every public function is defined under the token it is declared under',
     sorted('%s: declared under %s, defined under %s' % (f, ' '.join(sorted(d)), ' '.join(sorted(m)))
            for f, (d, m) in owner.items() if d and m and d != m))
case('public functions found in both halves', [] if sum(1 for d, m in owner.values() if d and m) > 300
     else ['only %d' % sum(1 for d, m in owner.values() if d and m)])
# Private prefixes by section (common's, e.g. accel__fb_, are shared by design).
PRIV = {'tsp1': ['tsp1'], 'edgetpu': ['edgetpu'], 'refsi': ['refsi'], 'ane': ['ane'],
        'mac': ['mac'], 'tflite': ['tfl', 'tflite']}
sec_of, cur_s = [], None
for i, l in enumerate(lines):
    m = re.match(r'^ \* SECTION: ([a-z0-9]+)', l)
    if m: cur_s = m.group(1)
    if '@deprecated.names:' in l: cur_s = 'deprecated'   # the old names map onto every section
    sec_of.append(cur_s)
PRIV_RE = re.compile(r'\b(?:accel__|ACCEL__)([A-Za-z0-9]+)_\w*')
leaks = []
for i, l in enumerate(lines):
    if i <= head_end: continue
    for m in PRIV_RE.finditer(l):
        owner_s = next((s for s, ps in PRIV.items() if m.group(1).lower() in ps), None)
        if owner_s and sec_of[i] not in (owner_s, 'deprecated'):
            leaks.append('line %d: %s used in SECTION %s' % (i + 1, m.group(0), sec_of[i]))
case("a section's private names stay in that section", leaks)
for name, problems in res:
    if problems:
        print('FAIL %s' % name)
        for p in problems[:20]: print('     %s' % p)
    else:
        print('ok %s' % name)
PY
lib_end
