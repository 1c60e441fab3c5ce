// Runs Grok CLI's headless mode (the node script and its arguments after
// this program's own) and ends it once it has printed the turn's last
// message: Grok CLI 0.0.34 prints every message of the turn as one JSON
// line each when the turn ends, and then does not exit while its MCP
// servers run. Its stdout and stderr pass through unchanged; the exit
// status is Grok CLI's own, or 0 when this program ended it after its last
// message.
import { spawn } from 'node:child_process';

const [script, ...args] = process.argv.slice(2);
const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
let ended = false;
let pending = '';
let timer;
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  pending += chunk.toString('utf8');
  const lines = pending.split('\n');
  pending = lines.pop();
  for (const line of lines) {
    let m;
    try { m = JSON.parse(line); } catch { continue; }
    // The turn's last message: the assistant's, with no tool call.
    if (m?.role === 'assistant' && !m.tool_calls?.length) {
      clearTimeout(timer);
      // What follows it, if anything, within a second, still passes.
      timer = setTimeout(() => { ended = true; child.kill('SIGTERM'); }, 1000);
    }
  }
});
child.on('exit', (code, signal) => {
  clearTimeout(timer);
  process.exitCode = ended ? 0 : (code ?? (signal ? 1 : 0));
});
