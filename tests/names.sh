#!/usr/bin/env bash
# names.sh - every public function of accel.h against the naming rule of the head comment
# (chapter 2, "Names"), one case per function (and, at the end, the prefix of every name the
# ports' headers declare):
#   - object first for calls on state: accel_<s>_<object>_<verb>, the object a word of the
#     section's OBJECTS below; a call on the section's session (a verb first) must not end in
#     an object that has calls of its own (accel_tsp1_nn_query, not ..._query_nn);
#   - verb first for pure transforms: accel_<s>_<verb>_<thing>, the verb from VERBS; lookups
#     name a THING first;
#   - codecs: encode/decode comes right after the section, inputs first, outputs last (after the
#     first output parameter only outputs follow, and a size_t capacity right after a buffer);
#   - caller memory: accel_status accel_<s>_<object>_mem_size / _<op>_scratch_size(dims...,
#     size_t *bytes), and no other spelling for a size query that answers in a size_t.
# EXCEPTIONS lists the names the rule does not fit, each with its reason: it is empty, and an
# entry that the rule fits again fails as stale. A new section adds its words here. Prints the
# count of names by form. Usage: bash tests/names.sh [header]. Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
H=${1:-accel.h}
py_cases names "$H" <<'PY'
import re, sys
SECTIONS = ['tsp1', 'edgetpu', 'refsi', 'ane', 'mac', 'tflite']
# objects: the state a call acts on (a struct of the section, or a device part reached through
# the first argument); one- or two-word
OBJECTS = {
    '': 'crc32 deadline fb fifo port reader ring writer',
    'tsp1': 'decoder driver model reg buf irq nn async update',
    'edgetpu': 'bits bitstream csr dfu dfu_model driver exe model package prog seq usb',
    'refsi': 'builder hart iter model window',
    'ane': 'bringup cr cmd doorbell fabric fw_model msgq pool proc_call proc_fsm sched stats td '
           'td_hdr0 tm tm_model tq xl xl_fsm',
    'mac': 'wide conv2d fully_connected_pack',
    'tflite': 'graph op plan tensor',
}
# things a pure lookup is about (no state)
THINGS = {
    '': 'crc32 status time',
    'tsp1': 'error kind',
    'edgetpu': 'clock field',
    'refsi': '',
    'ane': 'channel first_cmd',
    'mac': '',
    'tflite': 'type',
}
# verbs: transforms, and the calls on a section's own session or driver
VERBS = {
    '': 'load store read write',
    'tsp1': 'init sync call submit poll clear wait reboot sleep wake check encode decode xfer',
    'edgetpu': 'open close invoke encode decode disasm patch32',
    'refsi': 'emit pack unpack validate',
    'ane': 'check encode decode pack unpack',
    # the mac kernels are named by their TFLite op, TFLite's helpers by TFLite's names
    'mac': 'fully_connected conv2d depthwise_conv2d max_pool2d average_pool2d matmul requantize '
           'quantize dequantize flip saturating_rounding_doubling_high_mul '
           'rounding_divide_by_power_of_two multiply_by_quantized_multiplier',
    'tflite': 'open check plan init set invoke get reset',
}
EXCEPTIONS = {}

lines = open(sys.argv[1]).read().split('\n')
impl = next(i for i, l in enumerate(lines) if l.startswith(' * IMPLEMENTATION'))
decl = re.sub(r'/\*.*?\*/', ' ', '\n'.join(lines[:impl]), flags=re.S)
funcs, rets = {}, {}
for m in re.finditer(r'^ACCELDEF\b(.*?);', decl, flags=re.S | re.M):
    s = ' '.join(m.group(1).split())
    mm = re.search(r'\b(accel_[a-z0-9_]+)\s*\((.*)\)\s*$', s)
    ps = [p.strip() for p in mm.group(2).split(',')]
    funcs[mm.group(1)] = [] if ps == ['void'] else ps
    rets[mm.group(1)] = s[:mm.start()].replace('ACCEL_NODISCARD', '').strip()

def is_out(p):   # an output parameter: a pointer (or array) to something not const
    t = re.sub(r'\s+', ' ', p)
    if '[' in t: return not t.startswith('const')
    if '*' not in t: return False
    if t.startswith('const') and t.count('*') == 1: return False
    return True
def is_state(p): # first parameter points at a mutable accel object
    return re.match(r'(accel_[a-z0-9_]+) ?\*', p) is not None

def match_word(words, vocab):   # longest prefix of words (1 or several) found in vocab
    v = vocab.split()
    for k in range(len(words), 0, -1):
        if '_'.join(words[:k]) in v: return '_'.join(words[:k]), words[k:]
    return None, words

forms = {'object': 0, 'session': 0, 'transform': 0, 'codec': 0, 'lookup': 0}
results = []
for name, ps in sorted(funcs.items()):
    w = name.split('_')[1:]
    sec = w[0] if w[0] in SECTIONS else ''
    rest = w[1:] if sec else w
    why = None
    form = None
    if 'encode' in rest or 'decode' in rest:
        form = 'codec'
        if rest[0] not in ('encode', 'decode'):
            why = 'a codec names encode/decode right after the section'
        else:
            seen = False
            for i, p in enumerate(ps):
                if is_out(p): seen = True; continue
                if seen and not (p.startswith('size_t ') and is_out(ps[i - 1])):
                    why = 'input "%s" after an output: outputs go last' % p; break
            if rest[0] == 'decode' and ps and is_out(ps[0]) and not why:
                why = 'a decoder takes its input first'
    else:
        obj, tail = match_word(rest, OBJECTS[sec])
        verb, vtail = match_word(rest, VERBS[sec])
        thing, _ = match_word(rest, THINGS[sec])
        if obj and tail:
            form = 'object'
        elif verb:
            form = 'session' if ps and is_state(ps[0]) else 'transform'
            o2, _ = match_word(vtail, OBJECTS[sec])
            if form == 'session' and o2:
                why = 'a call on "%s" names it first: accel_%s%s_%s' % (
                    o2, sec + '_' if sec else '', o2, '_'.join(rest[:len(rest) - len(vtail)]))
        elif thing and not (ps and is_state(ps[0])):
            form = 'lookup'
        else:
            why = 'neither an object, a verb nor a lookup of the section: "%s"' % rest[0]
    # caller memory: one spelling and one signature, accel_status f(dims..., size_t *bytes)
    if not why and re.search(r'_size$', name) and ps and re.match(r'size_t ?\*', ps[-1]):
        if not re.search(r'_(mem|scratch)_size$', name):
            why = 'a caller-memory query is named _mem_size (state) or _scratch_size (one call)'
    if not why and re.search(r'_(mem|scratch)_size$', name):
        if not re.match(r'accel_status\b', rets[name]) or not ps or not re.match(r'size_t ?\*', ps[-1]) \
                or any(is_out(p) for p in ps[:-1]):
            why = 'a caller-memory query is accel_status f(dims..., size_t *bytes)'
    if name in EXCEPTIONS:
        results.append((name, None if why else 'stale exception: the rule fits it now'))
        if why: print('EXCEPTION %s: %s' % (name, EXCEPTIONS[name]))
    else:
        results.append((name, why))
    if form: forms[form] += 1
for name, why in results:
    print(('ok %s' % name) if not why else ('FAIL %s: %s' % (name, why)))
print('INFO %d public functions: %s' % (len(funcs), ', '.join('%s %d' % kv for kv in forms.items())))
print('ok %d public functions found' % len(funcs) if len(funcs) > 300 else 'FAIL only %d public functions found' % len(funcs))
PY

# The ports' headers: every name one declares at file scope (function, type, struct/enum/union
# tag, macro) carries its port's prefix, accel_<port>_ / ACCEL_<PORT>_ (the port is the
# directory: ports/sim/accel_sim_sessions.h declares accel_sim_...), or its own file's
# (ports/bridge/accel_replay.h: accel_replay_...), or is private (accel__ / ACCEL__). A macro
# that accel.h reads is a setting of the library, not a name of the port. PORT_EXCEPTIONS lists
# the rest with the reason; an entry the rule fits again, or that is gone, fails as stale.
# Generated code (nanopb's *.pb.h) keeps its generator's names.
py_cases port_names "$H" ports/*/*.h <<'PY'
import os, re, sys
PORT_EXCEPTIONS = {
    ('ports/arduino/accel_arduino_wire.h', 'BUFFER_LENGTH'):
        "Wire's own name for its buffer size, defined only where a core does not",
}
lib = open(sys.argv[1]).read()

def scan(src):
    """(kind, name) of every file-scope declaration of a C/C++ header."""
    src = re.sub(r'/\*.*?\*/', ' ', src, flags=re.S)
    src = re.sub(r'//[^\n]*', ' ', src)
    src = re.sub(r'"(\\.|[^"\\\n])*"', '""', src)
    src = re.sub(r"'(\\.|[^'\\\n])*'", "''", src)
    src = re.sub(r'\\\n', ' ', src)
    out = set()
    code = []
    for line in src.split('\n'):
        m = re.match(r'\s*#\s*define\s+([A-Za-z_]\w*)', line)
        if m: out.add(('macro', m.group(1)))
        if not re.match(r'\s*#', line): code.append(line)
    toks = re.findall(r'[A-Za-z_]\w*|""|\S', '\n'.join(code))
    depth, stack, stmt = 0, [], []
    for i, t in enumerate(toks):
        if t == '{':
            # extern "C" { ... } opens no scope; namespace-like blocks are not used here
            if len(stmt) >= 2 and stmt[-2:] == ['extern', '""'] and depth == 0:
                stack.append('extern'); stmt = []; continue
            if depth == 0:
                if len(stmt) >= 2 and stmt[-2] in ('struct', 'enum', 'union', 'class'):
                    out.add(('tag', stmt[-1]))
                if '(' in stmt and 'typedef' not in stmt and '=' not in stmt:  # a function definition
                    k = stmt.index('(')
                    if k and re.match(r'[A-Za-z_]', stmt[k - 1]): out.add(('function', stmt[k - 1]))
            body = depth == 0 and stmt[-1:] == [')']  # a function's body ends its statement
            stack.append('body' if body else 'brace'); depth += 1
            if depth == 1: stmt.append('{...}')
            continue
        if t == '}':
            kind = stack.pop() if stack else 'brace'
            if kind == 'extern': stmt = []; continue
            depth -= 1
            if kind == 'body': stmt = []
            continue
        if depth: continue
        if t == ';':
            if stmt and stmt[0] == 'typedef':
                m = [j for j in range(len(stmt) - 2) if stmt[j] == '(' and stmt[j + 1] == '*']
                name = stmt[m[0] + 2] if m else stmt[-1]
                out.add(('type', name))
            elif '(' in stmt and stmt[0] not in ('typedef',):
                k = stmt.index('(')
                if k and re.match(r'[A-Za-z_]', stmt[k - 1]) and stmt[k - 1] not in ('sizeof',):
                    out.add(('function', stmt[k - 1]))
            stmt = []
            continue
        stmt.append(t)
    return out

seen = set()
for h in sys.argv[2:]:
    if h.endswith('.pb.h'): continue
    port = h.split('/')[1]
    prefixes = ['accel_' + port, os.path.basename(h)[:-2]]
    names = scan(open(h).read())
    for kind, n in sorted(names):
        low = n.lower()
        fits = any(low == p or low.startswith(p + '_') for p in prefixes) or low.startswith('accel__')
        if not fits and kind == 'macro' and re.search(r'\b%s\b' % re.escape(n), lib): fits = True
        key = (h, n)
        if key in PORT_EXCEPTIONS:
            seen.add(key)
            print(('ok %s: %s (exception)' % (h, n)) if not fits else 'FAIL %s: %s: stale exception, the rule fits it' % (h, n))
        elif fits: print('ok %s: %s' % (h, n))
        else: print('FAIL %s: %s %s lacks the prefix %s_' % (h, kind, n, prefixes[0]))
for key in PORT_EXCEPTIONS:
    if key not in seen: print('FAIL %s: %s: stale exception, no such name' % key)
PY
lib_end
