#!/usr/bin/env python3
"""Counts the missing materials and textures of QC projects without RigScope's code.

An independent check of `rigscope-cli check --materials ROOT X.qc`, written from the lookup
rules of PROJECTS.md section 3 (not from core/): read the QC with its $include files and macros,
collect $cdmaterials (with studiomdl's own folder when there is none) and the material names of the SMD and DMX files of its bodies ($body,
$model, $bodygroup studio) and LODs (replacemodel), the replacematerial targets and the names of
its $texturegroup rows (DMX through tests/support/dmx_counts.py, the second DMX reader), then
look each name up as materials/<cd>/<name>.vmt under every root, without case. A found VMT's
$basetexture, $basetexture2 and $bumpmap / $normalmap are looked up as materials/<texture>.vtf
under every root ('patch' materials: the included VMT, then its insert and replace blocks).

    python3 tests/tools/material_count.py --materials ROOT [--materials ROOT2] [-v] X.qc...

Prints `PATH NAMES MISSING TEXTURES_MISSING` per QC; -v lists the missing names and textures.
"""
import os, re, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
import dmx_counts  # noqa: E402  the second DMX reader, also written apart from core/


def find_ci(base, rel):
    """base/rel, every part compared without case; None when absent."""
    cur = base
    for part in rel.replace('\\', '/').split('/'):
        if part in ('', '.'):
            continue
        if part == '..':
            cur = os.path.dirname(cur)
            continue
        exact = os.path.join(cur, part)
        if os.path.exists(exact):
            cur = exact
            continue
        try:
            hits = [x for x in os.listdir(cur) if x.lower() == part.lower()]
        except OSError:
            return None
        if not hits:
            return None
        cur = os.path.join(cur, hits[0])
    return cur if os.path.exists(cur) else None


def norm_material(name):
    # PROJECTS.md 3.1: drop anything after a '.', '\' -> '/', compared lower-case.
    return name.replace('\\', '/').split('.')[0].lower()


# ---- QC: tokens, $include, $definemacro / $definevariable ----

class Src:
    def __init__(self, text, folder):
        self.text, self.pos, self.folder = text, 0, folder


class QcReader:
    def __init__(self, path):
        self.stack = [Src(read_text(path), os.path.dirname(os.path.abspath(path)))]
        self.macros, self.variables = {}, {}

    def token(self, same_line=False):
        """(text, quoted) of the next token, or None (end of input or, with same_line, of line)."""
        while self.stack:
            s = self.stack[-1]
            t, n = s.text, len(s.text)
            while s.pos < n:
                c = t[s.pos]
                if c == '\n' and same_line:
                    return None
                if c <= ' ':
                    s.pos += 1
                elif c in ';#' or t.startswith('//', s.pos):
                    if same_line:
                        return None
                    e = t.find('\n', s.pos)
                    s.pos = n if e < 0 else e
                elif t.startswith('/*', s.pos):
                    e = t.find('*/', s.pos + 2)
                    s.pos = n if e < 0 else e + 2
                else:
                    break
            if s.pos >= n:
                if same_line:
                    return None
                self.stack.pop()
                continue
            if t[s.pos] == '"':
                e = t.find('"', s.pos + 1)
                e = n if e < 0 else e
                tok, s.pos = t[s.pos + 1:e], e + 1
                return self.expand(tok), True
            if t[s.pos] in '{}':
                s.pos += 1
                return t[s.pos - 1], False
            b = s.pos
            while s.pos < n and t[s.pos] > ' ' and t[s.pos] not in '{}"':
                s.pos += 1
            return self.expand(t[b:s.pos]), False
        return None

    def expand(self, tok):
        return re.sub(r'\$([^$\s]+)\$',
                      lambda m: self.variables.get(m.group(1).lower(), m.group(0)), tok)

    def rest_of_line(self):
        """The tokens left on this line, up to a '{' (left for block())."""
        out = []
        while True:
            s = self.stack[-1] if self.stack else None
            at = s.pos if s else 0
            t = self.token(same_line=True)
            if t is None:
                return out
            if t == ('{', False):
                s.pos = at
                return out
            out.append(t[0])

    def define_macro(self):
        args = self.rest_of_line()
        name, params = args[0].lower(), [a for a in args[1:] if a != '\\\\']
        s = self.stack[-1]
        e = s.text.find('\n', s.pos)
        s.pos = len(s.text) if e < 0 else e + 1
        lines = []
        while s.pos < len(s.text):   # the body: every following line while it ends with \\
            e = s.text.find('\n', s.pos)
            e = len(s.text) if e < 0 else e
            line = s.text[s.pos:e]
            s.pos = e + 1
            more = line.rstrip().endswith('\\\\')
            lines.append(line.rstrip()[:-2] if more else line)
            if not more:
                break
        if args and args[-1] != '\\\\':
            lines = []   # a one-line macro without a body
        self.macros[name] = (params, '\n'.join(lines))

    def call_macro(self, name):
        params, body = self.macros[name]
        values = self.rest_of_line()
        for i, p in enumerate(params):
            body = re.sub(r'\$' + re.escape(p) + r'\$', lambda _m: values[i] if i < len(values) else '',
                          body, flags=re.I)
        self.stack.append(Src(body, self.stack[-1].folder))

    def block(self):
        """(tokens of a { } block, nested braces kept; a token read ahead when there is none)."""
        t = self.token()
        if t is None or t[0] != '{' or t[1]:
            return [], t
        depth, out = 1, []
        while depth:
            t = self.token()
            if t is None:
                break
            if not t[1] and t[0] in '{}':
                depth += 1 if t[0] == '{' else -1
                out.append(t[0])
                continue
            out.append(t[0])
        return out[:-1], None


def read_text(path):
    with open(path, encoding='latin-1') as f:
        return f.read()


def smd_materials(path):
    names, state, lines = [], None, 0
    for line in read_text(path).splitlines():
        w = line.strip()
        if state is None:
            if w.lower() == 'triangles':
                state, lines = 'tri', 0
            continue
        if w.lower() == 'end':
            state = None
            continue
        if lines % 4 == 0 and w:
            names.append(norm_material(w))
        lines += 1
    return names


def read_qc(path):
    """(material folders, [material names in order of first use], missing model files)."""
    qc_path, modelname = path, ''
    r = QcReader(path)
    qc_dir = os.path.dirname(os.path.abspath(path))
    cds, files, extra, texgroups, pushd = [], [], [], [], [qc_dir]
    pending = None   # a token read ahead by a block parser
    while True:
        t, pending = (pending, None) if pending else (r.token(), None)
        if t is None:
            break
        tok, quoted = t
        if quoted or not tok.startswith('$'):
            continue
        cmd = tok[1:].lower()
        if cmd == 'include':
            a = r.rest_of_line()
            p = a and (find_ci(pushd[-1], a[0]) or find_ci(qc_dir, a[0]))
            if p:
                r.stack.append(Src(read_text(p), os.path.dirname(p)))
        elif cmd in ('pushd', 'cd'):
            a = r.rest_of_line()
            if a:
                d = os.path.normpath(os.path.join(pushd[-1], a[0].replace('\\', '/')))
                if cmd == 'cd':
                    pushd[-1] = d
                else:
                    pushd.append(d)
        elif cmd == 'popd':
            if len(pushd) > 1:
                pushd.pop()
        elif cmd == 'definevariable':
            a = r.rest_of_line()
            if len(a) >= 2:
                r.variables[a[0].lower()] = a[1]
        elif cmd == 'definemacro':
            r.define_macro()
        elif cmd in r.macros:
            r.call_macro(cmd)
        elif cmd == 'cdmaterials':
            cds += r.rest_of_line()
        elif cmd == 'modelname':
            a = r.rest_of_line()
            modelname = a[0] if a else modelname
        elif cmd == 'body':
            a = r.rest_of_line()
            if len(a) >= 2:
                files.append((pushd[-1], a[1]))
        elif cmd == 'model':
            a = r.rest_of_line()
            if len(a) >= 2:
                files.append((pushd[-1], a[1]))
            _, pending = r.block()   # eyeballs, flexes: no material of their own
        elif cmd == 'bodygroup':
            r.rest_of_line()
            body, pending = r.block()
            for i, w in enumerate(body):
                if w.lower() == 'studio' and i + 1 < len(body):
                    files.append((pushd[-1], body[i + 1]))
        elif cmd in ('lod', 'shadowlod'):
            r.rest_of_line()
            body, pending = r.block()
            for i, w in enumerate(body):
                if w.lower() == 'replacemodel' and i + 2 < len(body):
                    files.append((pushd[-1], body[i + 2]))
                elif w.lower() == 'replacematerial' and i + 2 < len(body):
                    extra.append(norm_material(body[i + 2]))
        elif cmd == 'texturegroup':
            r.rest_of_line()
            body, pending = r.block()
            texgroups += [norm_material(w) for w in body if w not in '{}']
    names, absent = [], []
    for folder, f in files:
        p = find_ci(folder, f) or find_ci(folder, f + '.smd')
        if p is None:
            absent.append(f)
        elif p.lower().endswith('.dmx'):
            names += [norm_material(m['name']) for m in dmx_counts.counts(p)['materials']]
        else:
            names += smd_materials(p)
    names += extra + texgroups
    # studiomdl's SetSkinValues: DMX material names are paths, so materials/ itself is searched
    # after the $cdmaterials folders; with no folder at all, the model gets one of its own: the
    # QC's absolute path from its first "models" on, without the file name, else
    # models/<$modelname without extension>/.
    if any(f.lower().endswith('.dmx') for _, f in files):
        cds.append('')
    if not cds:
        full = os.path.abspath(qc_path).replace('\\', '/')
        at = full.lower().find('models')
        if at >= 0:
            cds.append(full[at:full.rfind('/') + 1] if full.rfind('/') > at else '')
        else:
            cds.append('models/' + os.path.splitext(modelname.replace('\\', '/'))[0] + '/')
    cds = [c.replace('\\', '/').strip('/').lower() for c in cds]
    return cds, list(dict.fromkeys(names)), absent


# ---- VMT ----

def kv_tokens(text):
    for m in re.finditer(r'//[^\n]*|"([^"]*)"?|([{}])|([^\s{}"]+)', text):
        if m.group(0).startswith('//'):
            continue
        if m.group(1) is not None:
            yield m.group(1)
        else:
            yield m.group(2) or m.group(3)


def kv_parse(tokens):
    """A list of (key, value or list) pairs up to the closing brace."""
    out = []
    for k in tokens:
        if k == '}':
            break
        v = next(tokens, None)
        if v is None:
            break
        if v == '{':
            out.append((k.lower(), kv_parse(tokens)))
        else:
            out.append((k.lower(), v))
            # a platform condition such as [$X360] after the value is skipped with it
    return out


def vmt_keys(path, roots, depth=0):
    """(shader, {key: value}) of the top-level keys; a 'patch' applies its include."""
    tokens = kv_tokens(read_text(path))
    shader = next(tokens, '').lower()
    if next(tokens, None) != '{':
        return shader, {}
    body = kv_parse(tokens)
    keys = {k: v for k, v in body if isinstance(v, str)}
    if shader == 'patch' and depth < 8:
        inc = keys.get('include', '')
        base = next((p for p in (find_ci(root, inc) for root in roots) if p), None)
        shader, merged = vmt_keys(base, roots, depth + 1) if base else ('', {})
        for k, v in body:
            if k == 'insert' and isinstance(v, list):
                merged.update({a: b for a, b in v if isinstance(b, str)})
            elif k == 'replace' and isinstance(v, list):
                merged.update({a: b for a, b in v if isinstance(b, str) and a in merged})
        return shader, merged
    return shader, keys


def count(qc, roots):
    cds, names, _ = read_qc(qc)
    missing, textures = [], []
    for name in names:
        vmt = None
        for root in roots:
            for cd in cds:
                vmt = find_ci(root, 'materials/' + (cd + '/' if cd else '') + name + '.vmt')
                if vmt:
                    break
            if vmt:
                break
        if vmt is None:
            missing.append(name)
            continue
        _, keys = vmt_keys(vmt, roots)
        for key in ('$basetexture', '$basetexture2', '$bumpmap', '$normalmap'):
            tex = keys.get(key)
            if not tex:
                continue
            tex = tex.replace('\\', '/')
            if tex.lower().endswith('.vtf'):
                tex = tex[:-4]
            if not any(find_ci(root, 'materials/' + tex + '.vtf') for root in roots):
                textures.append((name, key, tex))
    return names, missing, textures


if __name__ == '__main__':
    args, roots, verbose = sys.argv[1:], [], False
    qcs = []
    while args:
        a = args.pop(0)
        if a == '--materials' and args:
            roots.append(args.pop(0))
        elif a == '-v':
            verbose = True
        else:
            qcs.append(a)
    for qc in qcs:
        names, missing, textures = count(qc, roots)
        print(qc, len(names), len(missing), len(textures))
        if verbose:
            for m in missing:
                print('  missing', m)
            for t in textures:
                print('  texture-missing', *t)
