# trim.py [--codewords] RUN_DIR OUT_FILE [LAB_OUT]: a run's model requests, trimmed
# to what the prefix comparison reads (the time and the API's system, tools and
# messages fields); a string longer than 500 characters becomes its first 200, an
# ellipsis and the start of its SHA-256, so equal strings stay equal and others not;
# with --codewords, then the lab's codewords it held (BIRDNAME-1234), in order.
# With LAB_OUT, the lab's message log too, each entry without its body but
# for the tools/list replies, kept as the names of their tools in order.
import json, sys, hashlib, re
args = sys.argv[1:]
codewords = "--codewords" in args
args = [a for a in args if a != "--codewords"]
run, out = args[0], args[1]
F = {"anthropic-messages": ("system", "tools", "messages"), "openai-responses": ("instructions", "tools", "input"),
     "openai-chat": ("tools", "messages"), "gemini": ("systemInstruction", "system_instruction", "tools", "contents")}
def cut(v):
    if isinstance(v, str) and len(v) > 500:
        kept = v[:200] + '…' + hashlib.sha256(v.encode()).hexdigest()[:12]
        if codewords:
            kept += ''.join(' ' + w for w in re.findall(r'\b[A-Z]{7}-[0-9]{4}\b', v))
        return kept
    if isinstance(v, list): return [cut(x) for x in v]
    if isinstance(v, dict): return {k: cut(x) for k, x in v.items()}
    return v
with open(out, 'w') as w:
    for line in open(run + '/api/requests.jsonl'):
        r = json.loads(line)
        api, b = r.get('api'), r.get('body')
        if api not in F or not isinstance(b, dict):
            continue
        keep = {k: cut(b[k]) for k in F[api] if k in b}
        w.write(json.dumps({"seq": r["seq"], "time": r["time"], "api": api, "body": keep}, ensure_ascii=False, separators=(',', ':')) + '\n')
if len(args) > 2:
    with open(args[2], 'w') as w:
        for line in open(run + '/lab.jsonl'):
            e = json.loads(line)
            body = e.pop('body', None)
            e.pop('meta', None)
            if e.get('dir') == 'send' and e.get('method') == 'tools/list' and isinstance(body, dict):
                tools = body.get('result', {}).get('tools', [])
                e['body'] = {"result": {"tools": [{"name": t.get('name')} for t in tools]}}
            w.write(json.dumps(e, ensure_ascii=False, separators=(',', ':')) + '\n')
