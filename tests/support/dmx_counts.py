#!/usr/bin/env python3
"""A second, separate DMX reader for cross-checking `rigscope-cli info --json` (docs/dmx.md §7).

Written apart from core/formats/dmx in plain Python, from the format as the VDC describes it:
keyvalues2 text and binary encodings 1-5 and 9. It prints, per file, JSON with the counts a
modder compares: bones (joint list entries that hold no mesh), triangles (each face-set polygon
of n corners gives n - 2), materials with their triangle counts, flex shapes (delta-state names,
merged over meshes), frames of the first animation clip (duration x frameRate + 1) and
attachments. Usage: dmx_counts.py FILE...
"""
import json
import re
import struct
import sys

# ---------------------------------------------------------------- the element graph
class Element:
    __slots__ = ("type", "name", "id", "attrs")

    def __init__(self, type_, name, id_):
        self.type, self.name, self.id, self.attrs = type_, name, id_, {}


class Ref:  # an element reference not yet resolved (keyvalues2 ids, binary indices)
    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key


# ---------------------------------------------------------------- keyvalues2
KV2_TOKEN = re.compile(r'\s*(?://[^\n]*\n?\s*)*("(?:[^"\\]|\\.)*"|[{}\[\],]|[^\s"{}\[\],]+)', re.S)
VALUE_TYPES = {"int", "float", "bool", "string", "binary", "time", "color", "vector2", "vector3",
               "vector4", "qangle", "quaternion", "matrix", "elementid", "element", "uint64",
               "uint8"}


def kv2_tokens(text):
    pos = 0
    while True:
        m = KV2_TOKEN.match(text, pos)
        if not m:
            return
        tok = m.group(1)
        pos = m.end()
        if tok.startswith('"'):
            yield ("s", re.sub(r'\\(.)', lambda x: {"n": "\n", "t": "\t"}.get(x.group(1), x.group(1)), tok[1:-1]))
        else:
            yield ("p", tok) if tok in "{}[]," else ("s", tok)


def read_kv2(text):
    toks = list(kv2_tokens(text))
    i = 0
    elements, by_id = [], {}

    def element(type_):
        nonlocal i
        assert toks[i] == ("p", "{"), toks[i]
        i += 1
        e = Element(type_, "", None)
        elements.append(e)
        while toks[i] != ("p", "}"):
            name = toks[i][1]
            kind = toks[i + 1][1]
            i += 2
            if kind == "elementid" and name == "id":
                e.id = toks[i][1]
                by_id[e.id] = e
                i += 1
            elif kind.endswith("_array"):
                base = kind[:-6]
                assert toks[i] == ("p", "["), toks[i]
                i += 1
                items = []
                while toks[i] != ("p", "]"):
                    if toks[i] == ("p", ","):
                        i += 1
                        continue
                    if base == "element":
                        t = toks[i][1]
                        if toks[i + 1] == ("p", "{"):  # an inline element
                            i += 1
                            items.append(element(t))
                        else:  # "element" "id"
                            items.append(Ref(toks[i + 1][1]) if t == "element" else Ref(t))
                            i += 2 if t == "element" else 1
                    else:
                        items.append(toks[i][1])
                        i += 1
                i += 1
                e.attrs[name] = items
            elif kind == "element":
                e.attrs[name] = Ref(toks[i][1]) if toks[i][1] else None
                i += 1
            elif kind in VALUE_TYPES:
                v = toks[i][1]
                i += 1
                if kind in ("int", "bool", "uint8", "uint64"):
                    v = int(v)
                elif kind in ("float", "time"):  # keyvalues2 times are seconds
                    v = float(v)
                if name == "name" and kind == "string":
                    e.name = v
                e.attrs[name] = v
            else:  # an inline element of class `kind`
                e.attrs[name] = element(kind)
        i += 1
        return e

    root = None
    while i < len(toks):
        t = toks[i][1]
        i += 1
        e = element(t)
        root = root or e
    def resolve(v):
        if isinstance(v, Ref):
            return by_id.get(v.key)
        if isinstance(v, list):
            return [resolve(x) for x in v]
        return v
    for e in elements:
        for k, v in e.attrs.items():
            e.attrs[k] = resolve(v)
    return root


def number(v):
    if isinstance(v, (int, float)):
        return v
    return float(v.split()[0]) if isinstance(v, str) and v.strip() else 0


# ---------------------------------------------------------------- binary
class Bin:
    def __init__(self, data, pos):
        self.d, self.p = data, pos

    def take(self, n):
        b = self.d[self.p:self.p + n]
        if len(b) != n:
            raise ValueError("truncated at 0x%x" % self.p)
        self.p += n
        return b

    def i32(self):
        return struct.unpack("<i", self.take(4))[0]

    def i16(self):
        return struct.unpack("<h", self.take(2))[0]

    def cstr(self):
        end = self.d.index(b"\0", self.p)
        s = self.d[self.p:end].decode("utf-8", "replace")
        self.p = end + 1
        return s


SIZES = {2: 4, 3: 4, 4: 1, 6: 4, 7: 4, 8: 4, 9: 8, 10: 12, 11: 16, 12: 12, 13: 16, 14: 64, 15: 8, 16: 1}
NAMES = {2: "int", 3: "float", 4: "bool", 5: "string", 6: "binary", 7: "time", 8: "color",
         9: "vector2", 10: "vector3", 11: "vector4", 12: "qangle", 13: "quaternion",
         14: "matrix", 15: "uint64", 16: "uint8"}


def read_binary(data, version):
    r = Bin(data, data.index(b"\n") + 2)  # header line, '\n', NUL
    if version >= 9:  # prefix attribute lists
        for _ in range(r.i32()):
            for _ in range(r.i32()):
                r.cstr()
                skip_value(r, r.take(1)[0], version, [])
    table = []
    if version >= 2:
        n = r.i32() if version >= 4 else r.i16()
        table = [r.cstr() for _ in range(n)]
    def sref():
        if version < 2:
            return r.cstr()
        return table[r.i32() if version >= 5 else r.i16()]
    n = r.i32()
    elements = []
    for _ in range(n):
        t = sref()
        name = sref() if version >= 4 else r.cstr()
        e = Element(t, name, r.take(16).hex())
        elements.append(e)
    for e in elements:
        for _ in range(r.i32()):
            key = sref() if version >= 2 else r.cstr()
            t = r.take(1)[0]
            e.attrs[key] = skip_value(r, t, version, table, elements, sref)
    return elements[0] if elements else None


def skip_value(r, t, version, table, elements=None, sref=None):
    array_base = 32 if version >= 9 else 14
    is_array = t > array_base
    base = t - array_base if is_array else t
    def one(in_array):
        if base == 1:
            i = r.i32()
            if i == -2:
                r.cstr()
                return None
            return elements[i] if elements is not None and 0 <= i < len(elements) else None
        if base == 5:
            if in_array or version < 4 or sref is None:
                return r.cstr()
            return sref()
        if base == 6:
            return r.take(r.i32())
        if base == 7 and version < 3:
            return r.take(16)
        raw = r.take(SIZES[base])
        if base in (2, 7):
            return struct.unpack("<i", raw)[0]
        if base == 3:
            return struct.unpack("<f", raw)[0]
        if base in (4, 16):
            return raw[0]
        if base == 15:
            return struct.unpack("<Q", raw)[0]
        if base == 8:
            return tuple(raw)
        return struct.unpack("<%df" % (SIZES[base] // 4), raw)
    if is_array:
        return [one(True) for _ in range(r.i32())]
    return one(False)


# ---------------------------------------------------------------- counts
def get(e, *names):
    for n in names:
        if e is not None and n in e.attrs:
            return e.attrs[n]
    return None


def ints(v):
    return [int(number(x)) for x in (v or [])]


def counts(path):
    data = open(path, "rb").read()
    m = re.match(rb"<!-- dmx encoding (\S+) (\d+) format (\S+) (\d+) -->", data)
    enc, encv = m.group(1).decode(), int(m.group(2))
    if enc.startswith("keyvalues2"):
        root = read_kv2(data[m.end():].decode("utf-8", "replace"))
    else:
        root = read_binary(data, encv)
    out = {"file": path, "encoding": enc, "encodingVersion": encv,
           "formatVersion": int(m.group(4))}
    model = get(root, "skeleton") or get(root, "model")
    tris, mats, shapes, attachments, meshes = 0, {}, [], [], []
    bones = 0
    if model is not None:
        seen, stack, seen_elements = set(), [model], []
        while stack:
            e = stack.pop()
            if e is None or id(e) in seen:
                continue
            seen.add(id(e))
            seen_elements.append(e)
            shape = get(e, "shape")
            if shape is not None and shape.type == "DmeMesh":
                meshes.append(shape)
            if shape is not None and shape.type == "DmeAttachment" and e is not model:
                attachments.append(shape.name)
            stack.extend(reversed(get(e, "children") or []))
        joints = get(model, "jointList")
        if joints is not None:
            plain = [j for j in joints if j is not None and
                     not (get(j, "shape") is not None and get(j, "shape").type == "DmeMesh")]
            bones = len(plain) if plain else len(joints)
        elif get(model, "jointTransforms") is not None:
            bones = len(get(model, "jointTransforms"))
        else:  # no list: every DAG of the tree that holds no mesh and no attachment
            bones = sum(1 for e in seen_elements
                        if get(e, "shape") is None or
                        get(e, "shape").type not in ("DmeMesh", "DmeAttachment"))
        for mesh in meshes:
            for fs in get(mesh, "faceSets") or []:
                mat = get(fs, "material")
                mname = get(mat, "mtlName") if mat is not None else None
                mname = mname if isinstance(mname, str) else (mat.name if mat else fs.name)
                n, t = 0, 0
                for k in ints(get(fs, "faces")) + [-1]:
                    if k == -1:
                        t += max(0, n - 2)
                        n = 0
                    else:
                        n += 1
                tris += t
                mats[mname] = mats.get(mname, 0) + t
            for d in get(mesh, "deltaStates") or []:
                if d is not None and d.name not in shapes:
                    shapes.append(d.name)
    # `info` frames: a file with a mesh shows its bind pose (1), else its first clip.
    frames = 1 if model is not None else 0
    anims = get(get(root, "animationList"), "animations") or []
    if anims and not meshes:
        clip = anims[0]
        fps = number(get(clip, "frameRate") or 30)
        tf = get(clip, "timeFrame")
        dur = get(tf, "duration", "durationTime")
        if isinstance(dur, float):  # a keyvalues2 time: seconds
            seconds = dur
        else:  # binary times and old int durations: ticks of 1/10000 s
            seconds = (dur or 0) / 10000.0
        frames = int(round(seconds * fps)) + 1
    out.update({"bones": bones, "triangles": tris,
                "materials": [{"name": k, "triangles": v} for k, v in mats.items()],
                "flexShapes": len(shapes), "frames": frames, "attachments": attachments})
    return out


if __name__ == "__main__":
    print(json.dumps([counts(p) for p in sys.argv[1:]], indent=1))
