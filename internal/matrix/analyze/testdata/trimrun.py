#!/usr/bin/env python3
"""Trim the evidence directory of one real run into an analysis fixture.

usage: trimrun.py [--keep-system] RUN_DIR OUT_DIR

Keeps run.json, lab.jsonl, api/requests.jsonl, client/stdout.txt,
client/debug.log (MCP lines) and the transcript. In recorded requests, each
tool definition keeps its name and the first 80 characters of its
description (tool definitions are most of a request's bytes and the
analysis only needs their names); system prompt blocks over 2,000
characters are cut to 2,000, unless --keep-system (token estimates that
are compared between rows and versions stay as recorded then). Everything else stays as recorded, so
placements, kept characters and the reader's answer are real.
"""
import glob, json, os, shutil, sys

args = sys.argv[1:]
keep_system = "--keep-system" in args
args = [a for a in args if a != "--keep-system"]
run, out = args[0], args[1]
root = os.path.abspath(run)
os.makedirs(os.path.join(out, "api"), exist_ok=True)
os.makedirs(os.path.join(out, "client"), exist_ok=True)

def paths(s):
    return s.replace(root, "/RUN")

for name in ["run.json", "lab.jsonl"]:
    with open(os.path.join(run, name)) as f, open(os.path.join(out, name), "w") as g:
        g.write(paths(f.read()))

with open(os.path.join(run, "api", "requests.jsonl")) as f, open(os.path.join(out, "api", "requests.jsonl"), "w") as g:
    for line in f:
        r = json.loads(line)
        b = r.get("body")
        if isinstance(b, dict):
            b["tools"] = [{"name": t.get("name"), "description": (t.get("description") or "")[:80]} for t in b.get("tools", [])]
            if isinstance(b.get("system"), list) and not keep_system:
                for blk in b["system"]:
                    if isinstance(blk.get("text"), str) and len(blk["text"]) > 2000:
                        blk["text"] = blk["text"][:2000]
        g.write(paths(json.dumps(r, ensure_ascii=False)) + "\n")

with open(os.path.join(run, "client", "stdout.txt")) as f, open(os.path.join(out, "client", "stdout.txt"), "w") as g:
    g.write(paths(f.read()))
with open(os.path.join(run, "client", "debug.log")) as f, open(os.path.join(out, "client", "debug.log"), "w") as g:
    g.writelines(paths(l) for l in f if "MCP" in l or "mcp" in l)
t = sorted(glob.glob(os.path.join(run, "home", ".claude", "projects", "*", "*.jsonl")))[0]
td = os.path.join(out, "home", ".claude", "projects", "-RUN-work")
os.makedirs(td, exist_ok=True)
with open(t) as f, open(os.path.join(td, "session.jsonl"), "w") as g:
    for line in f:
        r = json.loads(line)
        a = r.get("attachment") or {}
        if r.get("type") in ("attachment",) and a.get("type") in ("mcp_instructions_delta", "prompt_snapshot"):
            if a.get("type") == "prompt_snapshot":
                a.pop("tools", None)
            g.write(paths(json.dumps(r, ensure_ascii=False)) + "\n")
