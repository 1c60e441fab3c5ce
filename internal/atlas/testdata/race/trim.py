#!/usr/bin/env python3
"""Trim the evidence an atlas sweep kept of one version into a fixture.

usage: trim.py VERSION_DIR OUT_DIR

VERSION_DIR is a sweep's client@version directory (the committed atlas keeps
run.json, result.json and lab.jsonl of each row's run). Keeps those three
files of every row; drops what the analysis of timing and the atlas's
properties do not read: the client's command line, the names of the
client's own tools and the layout of the request. Absolute paths become
relative to the version directory.
"""
import glob, json, os, sys

src, out = sys.argv[1], sys.argv[2]
for run in sorted(glob.glob(os.path.join(src, "*", "*", "run.json"))):
    d = os.path.dirname(run)
    rel = os.path.relpath(d, src)
    dst = os.path.join(out, rel)
    os.makedirs(dst, exist_ok=True)
    rec = json.load(open(run))
    for k in ("binary", "args"):
        rec.pop(k, None)
    json.dump(rec, open(os.path.join(dst, "run.json"), "w"), indent=2)
    res = json.load(open(os.path.join(d, "result.json")))
    res["dir"] = rel
    for q in [res.get("first")] + res.get("requests", []):
        if q:
            q["tools"] = [t for t in q.get("tools", []) if t.startswith("mcp__")]
            q.pop("parts", None)
    res.get("observation", {}).pop("files", None)
    res.pop("transcript", None)
    json.dump(res, open(os.path.join(dst, "result.json"), "w"), indent=2)
    with open(os.path.join(d, "lab.jsonl")) as f, open(os.path.join(dst, "lab.jsonl"), "w") as g:
        g.write(f.read())
