#!/usr/bin/env python3
"""Compares `rigscope-cli info --json --no-checks` with dmx_counts.py (a separately written
reader) on DMX files and prints a Markdown table. Usage: dmx_compare.py RIGSCOPE_CLI PATH...
(a folder stands for its *.dmx files; a missing folder is skipped). Exit 1 when any count
differs or no file was found."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dmx_counts  # noqa: E402


def ours(cli, path):
    out = subprocess.run([cli, "info", "--json", "--no-checks", path], capture_output=True,
                         text=True)
    j = json.loads(out.stdout)[0]
    return {"bones": j["bones"], "triangles": j["triangles"],
            "materials": sorted((m["name"], m["triangles"]) for m in j["materials"]),
            "flexShapes": len(j["flexShapes"]), "frames": j["frames"],
            "attachments": [a["name"] for a in j.get("attachments", [])]}


def main():
    cli, files = sys.argv[1], []
    for p in sys.argv[2:]:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".dmx"))
        elif os.path.isfile(p):
            files.append(p)
    if not files:
        print("no DMX file found")
        return 1
    bad = 0
    print("| file | encoding | bones | triangles | materials | flex shapes | frames | "
          "attachments | agree |")
    print("|---|---|---|---|---|---|---|---|---|")
    for f in files:
        try:
            t = dmx_counts.counts(f)
        except Exception as e:  # the second reader gave up: say so
            print("| %s | | | | | | | | second reader failed: %s |" % (os.path.basename(f), e))
            bad += 1
            continue
        theirs = {"bones": t["bones"], "triangles": t["triangles"],
                  "materials": sorted((m["name"], m["triangles"]) for m in t["materials"]),
                  "flexShapes": t["flexShapes"], "frames": t["frames"],
                  "attachments": sorted(t["attachments"])}
        o = ours(cli, f)
        o["attachments"] = sorted(o["attachments"])
        diff = [k for k in theirs if theirs[k] != o[k]]
        bad += 1 if diff else 0
        def cell(k):
            v = o[k] if k != "materials" else len(o[k])
            w = theirs[k] if k != "materials" else len(theirs[k])
            return str(v) if k not in diff else "%s / %s" % (v, w)
        print("| %s | %s %d, model %d | %s | %s | %s | %s | %s | %s | %s |" % (
            os.path.basename(f), t["encoding"], t["encodingVersion"], t["formatVersion"],
            cell("bones"), cell("triangles"), cell("materials"), cell("flexShapes"),
            cell("frames"), len(o["attachments"]) if "attachments" not in diff else
            "%d / %d" % (len(o["attachments"]), len(theirs["attachments"])),
            "yes" if not diff else "no: " + ", ".join(diff)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
