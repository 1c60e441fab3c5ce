#!/usr/bin/env python3
"""Trim the evidence directory of one real run into an analysis fixture.

usage: trimrun.py [--keep-system] [--whole-tools] RUN_DIR OUT_DIR

Keeps run.json, lab.jsonl, dns.jsonl, api/requests.jsonl, client/stdout.txt,
client/debug.log (MCP lines) and the transcript. In recorded requests, each
tool definition keeps its name and the first 80 characters of its
description (tool definitions are most of a request's bytes and the
analysis only needs their names; --whole-tools keeps those named mcp__… as
recorded, for a client that puts a server's text in one, and cuts the
others' descriptions and a request's input texts over 2,000 characters
that name no mcp__ tool to 2,000); system prompt blocks over 2,000
characters are cut to 2,000, unless --keep-system (token estimates that
are compared between rows and versions stay as recorded then). Everything else stays as recorded, so
placements, kept characters and the reader's answer are real.
"""
import glob, json, os, shutil, sys

args = sys.argv[1:]
keep_system = "--keep-system" in args
whole_tools = "--whole-tools" in args
args = [a for a in args if a not in ("--keep-system", "--whole-tools")]
run, out = args[0], args[1]
root = os.path.abspath(run)
os.makedirs(os.path.join(out, "api"), exist_ok=True)
os.makedirs(os.path.join(out, "client"), exist_ok=True)

def paths(s):
    return s.replace(root, "/RUN")

for name in ["run.json", "lab.jsonl", "dns.jsonl"]:
    if name == "dns.jsonl" and not os.path.exists(os.path.join(run, name)):
        continue
    with open(os.path.join(run, name)) as f, open(os.path.join(out, name), "w") as g:
        g.write(paths(f.read()))

with open(os.path.join(run, "api", "requests.jsonl")) as f, open(os.path.join(out, "api", "requests.jsonl"), "w") as g:
    for line in f:
        r = json.loads(line)
        b = r.get("body")
        if isinstance(b, dict):
            if whole_tools:
                for t in b.get("tools", []):
                    if not (t.get("name") or "").startswith("mcp__") and isinstance(t.get("description"), str):
                        t["description"] = t["description"][:80]
                for m in b.get("input") or []:
                    for c in m.get("content") or [] if isinstance(m, dict) else []:
                        if isinstance(c, dict) and isinstance(c.get("text"), str) and len(c["text"]) > 2000 and "mcp__" not in c["text"]:
                            c["text"] = c["text"][:2000]
            else:
                b["tools"] = [{"name": t.get("name"), "description": (t.get("description") or "")[:80]} for t in b.get("tools", [])]
            if isinstance(b.get("system"), list) and not keep_system:
                for blk in b["system"]:
                    if isinstance(blk.get("text"), str) and len(blk["text"]) > 2000:
                        blk["text"] = blk["text"][:2000]
        g.write(paths(json.dumps(r, ensure_ascii=False)) + "\n")

with open(os.path.join(run, "client", "stdout.txt")) as f, open(os.path.join(out, "client", "stdout.txt"), "w") as g:
    g.write(paths(f.read()))
for log in ["debug.log", "stderr.txt"]:
    if os.path.exists(os.path.join(run, "client", log)):
        with open(os.path.join(run, "client", log)) as f, open(os.path.join(out, "client", log), "w") as g:
            g.writelines(paths(l) for l in f if "MCP" in l or "mcp" in l)
ts = sorted(glob.glob(os.path.join(run, "home", ".claude", "projects", "*", "*.jsonl")))
if not ts:  # not Claude Code: no transcript kept
    sys.exit(0)
t = ts[0]
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
