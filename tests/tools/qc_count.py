#!/usr/bin/env python3
"""Counts the sequences and bodygroups of QC projects without RigScope's reader.

An independent check of `rigscope-cli info --json X.qc`: a character-level re-reading of
studiomdl's script reader (GetToken, DefineMacro's raw line scan, macro expansion wherever a
token names one, $include, $pushd / $popd / $cd, $definevariable), written apart from
core/formats/qc. It prints `PATH SEQUENCES BODYGROUPS` per QC ($sequence and $declaresequence;
$body, $model and $bodygroup).

    python3 tests/tools/qc_count.py path/to/*.qc

docs/qc.md says what it was compared on.
"""
import os, sys, re
class Frame:
    def __init__(s, text, d, params=None): s.t=text; s.p=0; s.dir=d; s.params=params or {}
def find_ci(d, name):
    name=name.replace('\\','/')
    p=os.path.join(d,name)
    if os.path.exists(p): return p
    cur=d
    for part in name.split('/'):
        if part in ('','.'): continue
        if part=='..': cur=os.path.dirname(cur); continue
        try: m=[x for x in os.listdir(cur) if x.lower()==part.lower()]
        except OSError: return None
        if not m: return None
        cur=os.path.join(cur,m[0])
    return cur
def run(path):
    root=os.path.dirname(os.path.abspath(path))
    stack=[Frame(open(path,encoding='latin-1').read(), root)]
    variables={}; macros={}; cds=[]; counts={'sequence':0,'declaresequence':0,'body':0,'model':0,'bodygroup':0}
    def sub(tok, params):
        def r(m):
            k=m.group(1)
            for dct in (params, ):
                for pk,pv in dct.items():
                    if pk.lower()==k.lower(): return pv
            if k in variables: return variables[k]
            for vk,vv in variables.items():
                if vk.lower()==k.lower(): return vv
            return m.group(0)
        return re.sub(r'\$([^$\s]+)\$', r, tok)
    def raw_token(f, crossline):
        t=f.t; n=len(t)
        while True:
            while f.p<n and t[f.p]<=' ':
                if t[f.p]=='\n' and not crossline: return None
                f.p+=1
            if f.p>=n: return None
            if t[f.p] in ';#' or t.startswith('//',f.p):
                if not crossline: return None
                while f.p<n and t[f.p]!='\n': f.p+=1
                continue
            if t.startswith('/*',f.p):
                e=t.find('*/',f.p+2); f.p = n if e<0 else e+2; continue
            break
        if t[f.p]=='"':
            e=t.find('"',f.p+1); e = n if e<0 else e
            tok=t[f.p+1:e]; f.p=e+1; return (tok,True)
        s=f.p
        while f.p<n and t[f.p]>' ' and t[f.p]!=';': f.p+=1
        return (t[s:f.p],False)
    def get(crossline=True):
        while stack:
            f=stack[-1]
            r=raw_token(f, crossline)
            if r is None:
                if not crossline and f.p<len(f.t): return None
                if f.p>=len(f.t) or crossline:
                    if len(stack)==1 and not crossline: return None
                    stack.pop(); 
                    if not crossline: return None
                    continue
            tok,q=r
            tok=sub(tok,f.params)
            return (tok,q,f)
        return None
    while True:
        r=get(True)
        if r is None: break
        tok,q,f=r
        if q or not tok.startswith('$'): continue
        low=tok[1:].lower()
        if low in ('pushd','cd'):
            a=get(False)
            if a:
                base=cds[-1] if cds else root
                d=os.path.normpath(os.path.join(base,a[0].replace('\\','/')))
                if low=='cd' and cds: cds[-1]=d
                else: cds.append(d)
            continue
        if low=='popd':
            if cds: cds.pop()
            continue
        if low=='include':
            a=get(False)
            if a:
                p=(find_ci(cds[-1], a[0]) if cds else None) or find_ci(root, a[0]) or find_ci(f.dir, a[0])
                if p: stack.append(Frame(open(p,encoding='latin-1').read(), os.path.dirname(p)))
            continue
        if low=='definevariable':
            a=get(False); b=get(False)
            if a and b: variables[a[0]]=b[0]
            continue
        if low=='definemacro':
            name=get(False)[0]; params=[]
            while True:
                save=f.p
                a=raw_token(f, False)
                if a is None: break
                if a[0]=='\\\\': f.p=save; break
                params.append(a[0])
            # raw body scan (DefineMacro)
            t=f.t; start=f.p; cp=f.p
            while cp<len(t) and t[cp]!='\n':
                if t.startswith('\\\\',cp):
                    e=t.find('\n',cp); e=len(t) if e<0 else e
                    t=t[:cp]+' '*(e-cp)+t[e:]; cp=e+1 if e<len(t) else e
                else: cp+=1
            f.t=t; body=t[start:cp]; f.p=cp
            macros[name.lower()]=(params, body)
            continue
        if low in macros:
            params, body = macros[low]
            vals={}
            for pn in params:
                a=get(False); vals[pn]= a[0] if a else ''
            stack.append(Frame(body, f.dir, vals))
            continue
        if low in counts: counts[low]+=1
    return counts['sequence']+counts['declaresequence'], counts['body']+counts['model']+counts['bodygroup']
if __name__=='__main__':
    for p in sys.argv[1:]:
        s,b=run(p); print(p, s, b)
