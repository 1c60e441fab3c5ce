#!/usr/bin/env python3
"""Trim the evidence of a real Claude Code run into a parser fixture.

usage: trim.py RUN_DIR OUT_DIR

Keeps every line and record, so line numbers and record order stay real;
shortens strings longer than 300 characters (except instruction blocks,
which the tests check in full) and drops the debug lines that say nothing
about MCP. Paths under the run dir become /RUN.
"""
import glob, json, os, sys

run, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
root = os.path.abspath(run)

def short(v, keep=False):
    if isinstance(v, str):
        v = v.replace(root, "/RUN")
        return v if keep or len(v) <= 300 else v[:300] + "…"
    if isinstance(v, list):
        return [short(x, keep) for x in v]
    if isinstance(v, dict):
        k = keep or v.get("type") == "mcp_instructions_delta"
        return {key: short(x, k) for key, x in v.items()}
    return v

def jsonl(src, dst):
    with open(src) as f, open(dst, "w") as g:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                g.write(line)
                continue
            g.write(json.dumps(short(rec), ensure_ascii=False) + "\n")

jsonl(os.path.join(run, "client", "stdout.txt"), os.path.join(out, "stdout.txt"))
with open(os.path.join(run, "client", "debug.log")) as f, open(os.path.join(out, "debug.log"), "w") as g:
    for line in f:
        if "MCP" in line or "mcp" in line:
            g.write(line.replace(root, "/RUN")[:2000].rstrip("\n") + "\n")
t = sorted(glob.glob(os.path.join(run, "home", ".claude", "projects", "*", "*.jsonl")))[0]
jsonl(t, os.path.join(out, "transcript.jsonl"))
