#!/usr/bin/env python3
"""Compares `rigscope-cli check --format=json --materials ROOT` with tests/tools/material_count.py
(a separately written counter) on QC projects and prints a Markdown table.

    material_compare.py RIGSCOPE_CLI --materials ROOT [--materials ROOT2] [--expect N,M,T] PATH...

A folder stands for every *.qc below it; a missing path is skipped. The missing material names
and the missing textures (material, key, texture) must be the same sets. Exit 1 when any QC
disagrees, no QC was found, or the totals (names, missing, textures missing) are not the
--expect ones (counted by hand)."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tools'))
import material_count  # noqa: E402


def ours(cli, roots, qc):
    cmd = [cli, 'check', '--format=json', '--verbose=quiet']
    for r in roots:
        cmd += ['--materials', r]
    out = subprocess.run(cmd + [qc], capture_output=True, text=True)
    missing, textures = set(), set()
    for f in json.loads(out.stdout)['files']:
        for d in f['diagnostics']:
            if d['id'] == 'material.missing':
                m = re.search(r"material '([^']*)'", d['message'])
                missing.add(material_count.norm_material(m.group(1)))
            elif d['id'] == 'material.texture-missing':
                # at the VMT's line: the material is the VMT's name
                m = re.match(r"(\$\w+) '([^']*)'", d['message'])
                vmt = os.path.splitext(os.path.basename(d['file']))[0].lower()
                textures.add((vmt, m.group(1).lower(), m.group(2).replace('\\', '/').lower())
                             if m else (vmt, 'unreadable', d['file']))
    return missing, textures


def main():
    args, roots, paths, expect = sys.argv[2:], [], [], None
    cli = sys.argv[1]
    while args:
        a = args.pop(0)
        if a == '--materials' and args:
            roots.append(args.pop(0))
        elif a == '--expect' and args:
            expect = [int(x) for x in args.pop(0).split(',')]
        else:
            paths.append(a)
    qcs = []
    for p in paths:
        if os.path.isdir(p):
            for d, _, files in sorted(os.walk(p)):
                qcs += sorted((os.path.relpath(os.path.join(d, f), p), os.path.join(d, f))
                              for f in files if f.lower().endswith('.qc'))
        elif os.path.isfile(p):
            qcs.append((os.path.basename(p), p))
    if not qcs:
        print('no QC found')
        return 1
    bad = 0
    total = [0, 0, 0]
    print('| QC | material names | missing | textures missing | agree |')
    print('|---|---|---|---|---|')
    for shown, qc in qcs:
        names, missing, textures = material_count.count(qc, roots)
        theirs_t = {tuple(x.lower() for x in t) for t in textures}
        o_missing, o_textures = ours(cli, roots, qc)
        diff = []
        if o_missing != set(missing):
            diff.append('missing: ours only %s, counter only %s' % (
                sorted(o_missing - set(missing)), sorted(set(missing) - o_missing)))
        if o_textures != theirs_t:
            diff.append('textures: ours only %s, counter only %s' % (
                sorted(o_textures - theirs_t), sorted(theirs_t - o_textures)))
        bad += 1 if diff else 0
        total[0] += len(names)
        total[1] += len(missing)
        total[2] += len(theirs_t)
        print('| %s | %d | %d | %d | %s |' % (shown, len(names), len(o_missing), len(o_textures),
                                             'no: ' + '; '.join(diff) if diff else 'yes'))
    print('| %d QCs | %d | %d | %d | %d of %d agree |' % (len(qcs), total[0], total[1], total[2],
                                                        len(qcs) - bad, len(qcs)))
    if expect is not None and expect != total:
        print('expected %s (names, missing, textures missing), counted %s' % (expect, total))
        return 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
