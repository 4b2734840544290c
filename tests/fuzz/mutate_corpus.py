#!/usr/bin/env python3
"""Mutation sweep (issue 8): mutated and truncated copies of real files never crash rigscope-cli.

For every model file under the given directories, writes deterministic mutations (truncations at
line / block boundaries and byte fractions, bit flips, hostile numbers and counts, NUL bytes and
invalid UTF-8 in names, duplicated / dropped / swapped lines) to a temporary directory outside
the repository, then runs `rigscope-cli info` and `rigscope-cli check` on each with a timeout.

Fails (exit 1) when any run exits other than 0, 1 or 2, dies from a signal (crash, sanitizer
abort), or takes longer than --max-seconds. Prints the counts and the slowest run.

Usage: tests/fuzz/mutate_corpus.py [--cli PATH] [--per-file N] [--max-seconds S] DIR...
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

MODEL_EXTS = {
    ".smd", ".vta", ".smdx", ".xmodel_export", ".xanim_export", ".nt_export", ".xmodel_bin",
    ".xanim_bin", ".dmx", ".qc", ".qci",
}
HOSTILE_NUMBERS = [b"1e999", b"-1e999", b"nan", b"-nan", b"inf", b"-0", b"2147483648",
                   b"-2147483649", b"4294967296", b"99999999999999999999", b"0x10", b"1.0.0", b""]
HOSTILE_BINARY = [b"\xce\x80\x00\x00\x00", b"\xce\x7f\xff\xff\xff", b"\xdd\x80\x00\x00\x00",
                  b"\xdb\x80\x00\x00\x00", b"\xff\xff\xff\xff", b"\x00\x00\x00\x80",
                  b"\x00\x00\x00\x00", b"\xc1"]
NUMBER_RE = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
KEYWORDS = [b"end", b"nodes", b"skeleton", b"triangles", b"time 0", b"vertexanimation",
            b"NUMBONES 2147483647", b"NUMVERTS 2147483647", b"NUMFACES -1", b"BONE 0 0 \"x\"",
            b"NUMOBJECTS 1000000", b"FRAME 2147483647", b"PART 2147483647 \"x\"",
            b"{", b"}", b"/*", b"\"", b"$include \"self.qc\"", b"$definemacro m \\\\", b"$m",
            b"$definevariable v $v$$v$"]


def model_files(dirs):
    out = []
    for d in dirs:
        for root, _, names in os.walk(d):
            for n in names:
                if os.path.splitext(n)[1].lower() in MODEL_EXTS:
                    out.append(os.path.join(root, n))
    return sorted(out)


def is_binary(data):
    return data[:5] == b"*LZ4*" or b"\x00" in data[:512] or data[:4] == b"SMDX"


def mutations(data, rng, per_file):
    """Yields (label, bytes)."""
    n = len(data)
    if n == 0:
        yield "nul", b"\x00"
        yield "garbage", bytes(rng.randrange(256) for _ in range(64))
        return
    # Truncations: byte fractions, and line / block boundaries for text.
    for k in range(1, 8):
        yield f"trunc{k}of8", data[: n * k // 8]
    yield "trunc-1", data[:-1]
    lines = data.split(b"\n")
    if not is_binary(data) and len(lines) > 2:
        starts, off = [], 0
        for ln in lines:
            starts.append(off)
            off += len(ln) + 1
        block_starts = [s for s, ln in zip(starts, lines)
                        if ln.strip().lower() in (b"end", b"nodes", b"skeleton", b"triangles",
                                                  b"vertexanimation")
                        or ln.startswith((b"time", b"NUM", b"FRAME", b"PART", b"BONE "))]
        for s in rng.sample(block_starts, min(6, len(block_starts))):
            yield f"trunc@{s}", data[:s]
        for _ in range(3):
            s = rng.choice(starts)
            yield f"trunc-midline@{s}", data[: s + rng.randrange(1, 12)]
    for i in range(per_file):
        kind = rng.randrange(9)
        b = bytearray(data)
        if kind == 0:  # bit flips
            for _ in range(rng.randrange(1, 9)):
                p = rng.randrange(n)
                b[p] ^= 1 << rng.randrange(8)
            yield f"flip{i}", bytes(b)
        elif kind == 1:  # random bytes overwritten with hostile binary values
            v = rng.choice(HOSTILE_BINARY)
            p = rng.randrange(n)
            b[p : p + len(v)] = v
            yield f"hostilebin{i}", bytes(b)
        elif kind == 2 and not is_binary(data):  # hostile numbers
            ms = list(NUMBER_RE.finditer(data))
            if ms:
                out = bytearray(data)
                for m in sorted(rng.sample(ms, min(len(ms), rng.randrange(1, 6))),
                                key=lambda m: -m.start()):
                    out[m.start() : m.end()] = rng.choice(HOSTILE_NUMBERS)
                yield f"number{i}", bytes(out)
        elif kind == 3 and len(lines) > 2:  # drop lines
            ls = list(lines)
            for _ in range(rng.randrange(1, 4)):
                if len(ls) > 1:
                    del ls[rng.randrange(len(ls))]
            yield f"dropline{i}", b"\n".join(ls)
        elif kind == 4 and len(lines) > 2:  # duplicate / swap lines
            ls = list(lines)
            a, c = rng.randrange(len(ls)), rng.randrange(len(ls))
            if rng.random() < 0.5:
                ls.insert(c, ls[a])
            else:
                ls[a], ls[c] = ls[c], ls[a]
            yield f"dupswap{i}", b"\n".join(ls)
        elif kind == 5:  # NUL bytes and invalid UTF-8 inside quoted names
            q = data.find(b'"', rng.randrange(n))
            if q >= 0:
                b[q + 1 : q + 1] = rng.choice([b"\x00", b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"\x00\x00x"])
                yield f"name{i}", bytes(b)
        elif kind == 6 and not is_binary(data):  # inserted keywords / hostile records
            ls = list(lines)
            ls.insert(rng.randrange(len(ls) + 1), rng.choice(KEYWORDS))
            yield f"keyword{i}", b"\n".join(ls)
        elif kind == 7:  # a chunk of the file repeated or removed
            p = rng.randrange(n)
            q = min(n, p + rng.randrange(1, 4096))
            if rng.random() < 0.5:
                yield f"repeat{i}", data[:q] + data[p:q] + data[q:]
            else:
                yield f"cut{i}", data[:p] + data[q:]
        elif kind == 8:  # line endings
            yield f"cr{i}", data.replace(b"\n", rng.choice([b"\r", b"\r\n", b"\n\n"]))


def run(cli, args, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.run([cli] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout)
        return p.returncode, time.monotonic() - t0, p.stderr[-2000:]
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - t0, b""


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.normpath(os.path.join(here, "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--cli", default=os.path.join(repo, "build", "app", "rigscope-cli"))
    ap.add_argument("--per-file", type=int, default=12, help="random mutations per file")
    ap.add_argument("--max-seconds", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--keep", action="store_true", help="keep the temp dir")
    opt = ap.parse_args()
    if not os.access(opt.cli, os.X_OK):
        sys.exit(f"no rigscope-cli at {opt.cli} (pass --cli)")
    files = model_files(opt.dirs)
    if not files:
        sys.exit("no model files found")
    tmp = tempfile.mkdtemp(prefix="rigscope-mutate-")
    if os.path.commonpath([os.path.abspath(tmp), repo]) == repo:
        sys.exit("refusing to write mutations inside the repository")
    rng = random.Random(opt.seed)
    failures, count, runs, slowest, codes = [], 0, 0, (0.0, ""), {}
    try:
        for f in files:
            data = open(f, "rb").read()
            base, ext = os.path.splitext(os.path.basename(f))
            for label, mutated in mutations(data, rng, opt.per_file):
                count += 1
                path = os.path.join(tmp, f"{base}.{label}{ext}")
                with open(path, "wb") as out:
                    out.write(mutated)
                for verb in ("info", "check"):
                    code, secs, err = run(opt.cli, [verb, path], opt.max_seconds * 4)
                    runs += 1
                    codes[code] = codes.get(code, 0) + 1
                    if secs > slowest[0]:
                        slowest = (secs, f"{verb} {path}")
                    bad = code not in (0, 1, 2) or secs > opt.max_seconds
                    if bad:
                        failures.append((verb, path, code, secs, err.decode("utf-8", "replace")))
                        keep = os.path.join(tmp, "failures")
                        os.makedirs(keep, exist_ok=True)
                        shutil.copy(path, keep)
                    else:
                        os.remove(path) if verb == "check" else None
    finally:
        print(f"files: {len(files)}  mutations: {count}  cli runs: {runs}  exit codes: "
              + ", ".join(f"{k}: {v}" for k, v in sorted(codes.items(), key=str)))
        print(f"slowest: {slowest[0]:.2f}s ({slowest[1]})")
        for verb, path, code, secs, err in failures[:50]:
            print(f"FAIL {verb} {path}: exit {code}, {secs:.2f}s\n{err}")
        if failures:
            print(f"{len(failures)} failures; inputs kept in {tmp}/failures")
        elif not opt.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
