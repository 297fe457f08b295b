"""setup_commands.py - the scanner of tests/setup_commands.sh: prints one line per external
command a shell script runs, "CMD PATH[:LINE] guarded|unguarded" (guarded: the script checks it
with `have CMD` or `command -v CMD`). argv[1]: programs always present; argv[2:]: the scripts.
A command is the first word of a simple command (after | ; & && || ( $( ` newline, and after
if/then/do/else/!/time/exec/{ and variable assignments), outside comments, quotes, here-document
bodies and arithmetic; keywords, builtins, functions and paths are not commands."""
import re
import sys

KEYWORDS = set("if then else elif fi for while until do done case esac in function select time"
               " ! [[ ]] { } ( )".split())
BUILTINS = set("""alias bg bind break builtin caller cd command compgen complete continue declare
dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let
local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source
suspend test times trap true type typeset ulimit umask unalias unset wait . : [""".split())
PRE = {"{", "}", "if", "then", "else", "elif", "do", "while", "until", "!", "time", "exec",
       "command", "nice", "timeout", "env", "xargs"}
NL = "\x01"  # a newline inside a quoted string or substitution: counts as a line, splits nothing


def subst_end(t, j):
    """Index of the ) that closes the $( at t[j]; here-document bodies inside it are text."""
    depth, k, q, heredocs = 0, j, None, []
    while k < len(t):
        c = t[k]
        if c == "\n" and heredocs and not q:
            k += 1
            for word in heredocs:  # skip each body up to its terminator line
                while k < len(t):
                    e = t.find("\n", k)
                    e = len(t) if e < 0 else e
                    line, k = t[k:e], e + 1
                    if line.strip() == word:
                        break
            heredocs = []
            continue
        if not q and t.startswith("<<", k) and not t.startswith("<<<", k):
            m = re.match(r"<<-?\s*['\"]?(\w+)['\"]?", t[k:])
            if m:
                heredocs.append(m.group(1))
                k += len(m.group(0))
                continue
        if q:
            if c == "\\" and q == '"':
                k += 2
                continue
            if c == q:
                q = None
        elif c in "'\"":
            q = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return k
        k += 1
    return len(t)


def strip(t, subs):
    """t without comments, quoted text (a string becomes the word Q), arithmetic and
    here-document bodies; each $( ) goes to subs as a command line of its own."""
    out, i, q, heredocs = [], 0, None, []
    while i < len(t):
        c = t[i]
        if q == "'":
            if c == "'":
                q = None
            elif c == "\n":
                out.append(NL)
            i += 1
            continue
        if c == "$" and t.startswith("$(", i) and not t.startswith("$((", i):
            k = subst_end(t, i + 1)
            subs.append(strip(t[i + 2:k], subs))
            out.append((" Q " if q is None else "") + NL * t.count("\n", i, k))
            i = k + 1
            continue
        if q == '"':
            if c == "\\":
                i += 2
                continue
            if c == '"':
                q = None
            elif c == "\n":
                out.append(NL)
            i += 1
            continue
        if c == "\\":
            out.append(" " if t[i + 1:i + 2] == "\n" else "  ")
            i += 2
            continue
        if c in "'\"":
            q = c
            out.append(" Q ")
            i += 1
            continue
        if c == "#" and (i == 0 or t[i - 1] in " \t\n;(|&"):
            while i < len(t) and t[i] != "\n":
                i += 1
            continue
        if t.startswith("${", i):  # a parameter expansion is one word
            k = t.find("}", i)
            k = len(t) if k < 0 else k
            out.append("Q" + NL * t.count("\n", i, k))
            i = k + 1
            continue
        if t.startswith("$((", i) or (t.startswith("((", i) and (i == 0 or t[i - 1] in " \t\n;")):
            k = t.find("))", i)
            k = len(t) if k < 0 else k
            out.append(" Q " + NL * t.count("\n", i, k))
            i = k + 2
            continue
        if t.startswith("<<", i) and not t.startswith("<<<", i):
            m = re.match(r"<<-?\s*['\"]?(\w+)['\"]?", t[i:])
            if m:
                heredocs.append(m.group(1))
                out.append(" ")
                i += len(m.group(0))
                continue
        if c == "\n" and heredocs:
            out.append(c)
            i += 1
            for word in heredocs:  # each body up to its terminator line
                while i < len(t):
                    e = t.find("\n", i)
                    e = len(t) if e < 0 else e
                    line, i = t[i:e], e + 1
                    out.append("\n")
                    if line.strip() == word:
                        break
            heredocs = []
            continue
        out.append(c)
        i += 1
    return "".join(out)


def commands(path, always):
    text = open(path, encoding="utf-8", errors="replace").read()
    funcs = set(re.findall(r"^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)", text, re.M))
    subs = []
    main = strip(text, subs)
    seen = {}
    for body in [main] + subs:
        numbered = body is main
        # case patterns ("a|b)" at a line's start or after ;;) are not commands
        body = re.sub(r"(^|\n|;;)\s*[^\s()]+(\|[^\s()]+)*\)", r"\1 ", body)
        body = re.sub(r"\b[A-Za-z_]\w*\+?=\([^)]*\)", " Q ", body)  # array assignments
        for m in re.finditer(r"[^|;&`()\n]+", body):
            words = m.group(0).replace(NL, " ").split()
            while words and (words[0] in PRE or re.match(r"^[A-Za-z_]\w*=", words[0])
                             or (words[0].startswith("-") and len(words) > 1)):
                words = words[1:]
            if not words:
                continue
            w = words[0]
            if w.startswith(("/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/")):
                w = w.rsplit("/", 1)[1]
            if not re.match(r"^[a-z][a-z0-9_.+-]*$", w) or w.endswith((".h", ".c", ".sh")):
                continue
            if w in KEYWORDS or w in BUILTINS or w in funcs or w in always:
                continue
            line = 0
            if numbered:
                line = body.count("\n", 0, m.start()) + body.count(NL, 0, m.start()) + 1
            seen.setdefault(w, line)
    return seen, text


def main():
    always = set(sys.argv[1].split())
    libfuncs = set(re.findall(r"^\s*([A-Za-z_][\w-]*)\s*\(\)", open("tests/lib.sh").read(), re.M))
    for path in sys.argv[2:]:
        try:
            seen, text = commands(path, always)
        except OSError:
            continue  # a pattern that matched no file
        for w, n in sorted(seen.items()):
            if w in libfuncs:
                continue
            guarded = re.search(r"(\bhave|command -v)\s+['\"]?" + re.escape(w) + r"\b", text)
            print("%s %s%s %s" % (w, path, ":%d" % n if n else "",
                                  "guarded" if guarded else "unguarded"))


main()
