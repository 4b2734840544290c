#!/usr/bin/env python3
"""Generates RigScope's bundled sample: a skinned tentacle on a base plate (our own data).

Writes sample_ref.smd (reference: 4 bones, multi-link weights, two materials), sample_anim.smd
(a sparse 31-frame bend), sample_flex.vta (three named shapes, BST-style 3t+c ids) and two
small 8-bit-free 24-bit BMP textures. Deterministic: run it again, get the same bytes.
"""
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
SEG = 10          # around
RINGS = 8         # along Z
RADIUS = 1.0
HEIGHT = 8.0
BONES = [(0, "root", -1, (0, 0, 0)), (1, "segment1", 0, (0, 0, 0.5)),
         (2, "segment2", 1, (0, 0, 3.0)), (3, "tip", 2, (0, 0, 3.0))]
BONE_Z = [0.0, 0.5, 3.5, 6.5]   # model-space height of each bone


def f(v):
    s = "%.6f" % v
    return "0.000000" if s == "-0.000000" else s


def weights_at(z):
    """Links for a point at height z: blend between the two nearest chain bones."""
    if z <= BONE_Z[1]:
        return [(1, 1.0)] if z > 0.25 else [(0, 0.5), (1, 0.5)]
    for b in range(1, 3):
        lo, hi = BONE_Z[b], BONE_Z[b + 1]
        if z <= hi:
            t = (z - lo) / (hi - lo)
            if t < 0.5:
                return [(b, 1.0 - t * 0.6), (b + 1, t * 0.6)]
            return [(b, (1.0 - t) * 0.6), (b + 1, 1.0 - (1.0 - t) * 0.6)]
    return [(3, 1.0)]


def ring_point(i, r, z, radius):
    a = 2 * math.pi * i / SEG
    rr = radius * (1.0 - 0.55 * z / HEIGHT)
    return (rr * math.cos(a), rr * math.sin(a), z)


def tentacle_triangles():
    tris = []  # (material, [(pos, normal, uv, links)]*3), CCW seen from outside
    for r in range(RINGS):
        z0 = HEIGHT * r / RINGS
        z1 = HEIGHT * (r + 1) / RINGS
        mat = "skin.bmp" if r < RINGS - 2 else "stripes.bmp"
        for i in range(SEG):
            corners = []
            for (ii, z) in ((i, z0), (i + 1, z0), (i + 1, z1), (i, z1)):
                p = ring_point(ii % SEG, r, z, RADIUS)
                a = 2 * math.pi * ii / SEG
                n = (math.cos(a), math.sin(a), 0.0)
                uv = (ii / SEG, z / HEIGHT)
                corners.append((p, n, uv, weights_at(z)))
            tris.append((mat, [corners[0], corners[1], corners[2]]))
            tris.append((mat, [corners[0], corners[2], corners[3]]))
    # tip cap (facing +Z)
    zt = HEIGHT
    tipc = ((0.0, 0.0, zt + 0.4), (0.0, 0.0, 1.0), (0.5, 1.0), [(3, 1.0)])
    for i in range(SEG):
        a = ring_point(i, RINGS, zt, RADIUS)
        b = ring_point((i + 1) % SEG, RINGS, zt, RADIUS)
        k = math.sqrt(0.5)  # unit normals, 45 degrees out of the cap
        na = (math.cos(2 * math.pi * i / SEG) * k, math.sin(2 * math.pi * i / SEG) * k, k)
        nb = (math.cos(2 * math.pi * (i + 1) / SEG) * k, math.sin(2 * math.pi * (i + 1) / SEG) * k, k)
        tris.append(("stripes.bmp", [(a, na, (i / SEG, 0.9), [(3, 1.0)]),
                                     (b, nb, ((i + 1) / SEG, 0.9), [(3, 1.0)]), tipc]))
    # base plate: a square at z=0 facing +Z, rigid on root (links 0 → parent field)
    s = 2.2
    quad = [(-s, -s), (s, -s), (s, s), (-s, s)]
    up = (0.0, 0.0, 1.0)
    pts = [((x, y, 0.0), up, ((x + s) / (2 * s), (y + s) / (2 * s)), []) for x, y in quad]
    tris.append(("skin.bmp", [pts[0], pts[1], pts[2]]))
    tris.append(("skin.bmp", [pts[0], pts[2], pts[3]]))
    return tris


def nodes_block():
    out = ["nodes"]
    for i, name, parent, _ in BONES:
        out.append('%d "%s" %d' % (i, name, parent))
    out.append("end")
    return out


def write(name, lines):
    with open(os.path.join(HERE, name), "w", newline="\n") as fh:
        fh.write("\n".join(lines) + "\n")


def reference():
    lines = ["// RigScope sample reference: a skinned tentacle on a base plate", "version 1"]
    lines += nodes_block()
    lines += ["skeleton", "time 0"]
    for i, _, _, p in BONES:
        lines.append("%d %s %s %s 0.000000 0.000000 0.000000" % (i, f(p[0]), f(p[1]), f(p[2])))
    lines.append("end")
    lines.append("triangles")
    for mat, corners in tentacle_triangles():
        lines.append(mat)
        for (p, n, uv, links) in corners:
            parent = links[0][0] if links else 0
            base = "%d %s %s %s %s %s %s %s %s" % (parent, f(p[0]), f(p[1]), f(p[2]),
                                                  f(n[0]), f(n[1]), f(n[2]), f(uv[0]), f(uv[1]))
            if links:
                base += " %d" % len(links) + "".join(" %d %s" % (b, f(w)) for b, w in links)
            else:
                base += " 0"
            lines.append(base)
    lines.append("end")
    write("sample_ref.smd", lines)
    return tentacle_triangles()


def animation():
    lines = ["version 1"] + nodes_block() + ["skeleton"]
    frames = 31
    for t in range(frames):
        s = math.sin(2 * math.pi * t / (frames - 1))
        lines.append("time %d" % t)
        for i, _, _, p in BONES:
            if i == 0 and t > 0:
                continue  # sparse: the root never moves, written only in frame 0
            rx = 0.0
            ry = 0.35 * s * (i / 3.0) if i > 0 else 0.0
            rz = 0.25 * s if i == 1 else 0.0
            lines.append("%d %s %s %s %s %s %s" % (i, f(p[0]), f(p[1]), f(p[2]), f(rx), f(ry), f(rz)))
    lines.append("end")
    write("sample_anim.smd", lines)


def flex(tris):
    corners = [c for _, cs in tris for c in cs]
    shapes = [("bulge", lambda p, n: (p[0] + n[0] * 0.35 * math.exp(-((p[2] - 4.0) ** 2)),
                                      p[1] + n[1] * 0.35 * math.exp(-((p[2] - 4.0) ** 2)), p[2])),
              ("squash", lambda p, n: (p[0] * (1 + 0.02 * p[2]), p[1] * (1 + 0.02 * p[2]), p[2] * 0.8)),
              ("tip_curl", lambda p, n: (p[0] + (0.6 * (p[2] - 6.0) if p[2] > 6.0 else 0.0), p[1], p[2]))]
    lines = ["version 1"] + nodes_block() + ["skeleton", "time 0"]
    for k, (name, _) in enumerate(shapes, start=1):
        lines.append("time %d # %s" % (k, name))
    lines += ["end", "vertexanimation", "time 0"]
    for vid, (p, n, _, _) in enumerate(corners):
        lines.append("%d %s %s %s %s %s %s" % (vid, f(p[0]), f(p[1]), f(p[2]), f(n[0]), f(n[1]), f(n[2])))
    for k, (name, fn) in enumerate(shapes, start=1):
        lines.append("time %d # %s" % (k, name))
        for vid, (p, n, _, _) in enumerate(corners):
            q = fn(p, n)
            if max(abs(q[i] - p[i]) for i in range(3)) > 1e-4:
                lines.append("%d %s %s %s %s %s %s" % (vid, f(q[0]), f(q[1]), f(q[2]), f(n[0]), f(n[1]), f(n[2])))
    lines.append("end")
    write("sample_flex.vta", lines)


def bmp(name, pixel):
    w = h = 64
    rows = []
    for y in range(h):
        row = b"".join(struct.pack("BBB", *pixel(x, y)) for x in range(w))
        rows.append(row + b"\0" * ((4 - len(row) % 4) % 4))
    data = b"".join(rows)
    header = struct.pack("<2sIHHI", b"BM", 54 + len(data), 0, 0, 54)
    info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 24, 0, len(data), 2835, 2835, 0, 0)
    with open(os.path.join(HERE, name), "wb") as fh:
        fh.write(header + info + data)


if __name__ == "__main__":
    tris = reference()
    animation()
    flex(tris)
    # BMP pixels are BGR
    bmp("skin.bmp", lambda x, y: (70 + (x * 3 + y) % 20, 120 + ((x // 8 + y // 8) % 2) * 30, 200))
    bmp("stripes.bmp", lambda x, y: (40, 160 + (y // 8 % 2) * 60, 240) if (y // 8) % 2 else (230, 230, 235))
