# trim.py [--system] RUN_DIR OUT_DIR: a run's requests and lab log, trimmed to
# what the surface analysis reads: tools named for a server (mcp__, or any name
# with the server's tools), the messages after the system ones (with --system,
# the system texts too: where a client may put a server's prompts and
# resources), long texts without a codeword cut; the log's handshake replies
# (the server's capabilities), list replies, tools/call, resources/read and
# prompts/get entries, and what the server asked and announced (requests to
# the client and their answers, notifications, logging/setLevel). Used for
# testdata/*/.
import json, sys, os
args = [a for a in sys.argv[1:] if a != '--system']
system = '--system' in sys.argv[1:]
run, out = args[0], args[1]
os.makedirs(out, exist_ok=True)
def cut(v):
    if isinstance(v, str) and len(v) > 3000 and 'codeword' not in v:
        return v[:200] + '…'
    if isinstance(v, list): return [cut(x) for x in v]
    if isinstance(v, dict): return {k: cut(x) for k, x in v.items()}
    return v
keep_tool = lambda name: name and ('lab' in name or 'Mcp' in name or name in ('ToolSearch',) or not name[0].isupper())
with open(os.path.join(out, 'requests.jsonl'), 'w') as w:
    for line in open(os.path.join(run, 'api', 'requests.jsonl')):
        r = json.loads(line)
        r.pop('header', None); r.pop('time', None)
        b = r.get('body')
        if isinstance(b, dict):
            keep = {}
            for k in ('model', 'stream', 'tools', 'messages', 'input', 'contents') + (('system', 'instructions', 'systemInstruction') if system else ()):
                if k in b: keep[k] = b[k]
            if 'tools' in keep:
                def tname(t): return t.get('name') or (t.get('function') or {}).get('name') or ''
                for t in keep['tools']:
                    if 'functionDeclarations' in t:  # Gemini
                        t['functionDeclarations'] = [d for d in t['functionDeclarations'] if keep_tool(d.get('name'))]
                keep['tools'] = [t for t in keep['tools'] if keep_tool(tname(t)) or t.get('functionDeclarations')]
            if 'messages' in keep and not system:
                keep['messages'] = [m for m in keep['messages'] if m.get('role') != 'system']
            r['body'] = cut(keep)
        w.write(json.dumps(r, ensure_ascii=False) + '\n')
with open(os.path.join(out, 'lab.jsonl'), 'w') as w:
    for line in open(os.path.join(run, 'lab.jsonl')):
        e = json.loads(line)
        if e.get('method') in ('initialize', 'server/discover', 'tools/list', 'tools/call', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read', 'prompts/get',
                               'elicitation/create', 'sampling/createMessage', 'roots/list', 'notifications/message', 'notifications/progress',
                               'notifications/tools/list_changed', 'logging/setLevel') or (e.get('dir') == 'recv' and e.get('kind') in ('response', 'error')):
            w.write(json.dumps(e, ensure_ascii=False) + '\n')
