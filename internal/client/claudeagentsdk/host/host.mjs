// The Claude Agent SDK as an app embeds it, written as its MCP guide shows
// (platform.claude.com, "MCP in the SDK"): query() with the prompt and
// options.mcpServers (each {command, args, env}, or {type: 'http', url}),
// the servers' tools allowed (allowedTools: mcp__NAME__*; none in an
// approval arm), the messages read until the result. The model is the
// SDK's default unless the row names one. instrlab gives it the servers,
// the prompt and the model in the JSON file named by its first argument,
// and reads the JSON lines it prints.
import { readFileSync } from 'node:fs';
import { query } from '@anthropic-ai/claude-agent-sdk';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const say = (event) => process.stdout.write(JSON.stringify(event) + '\n');

const mcpServers = {};
for (const s of config.servers) {
  mcpServers[s.name] = s.url ? { type: 'http', url: s.url } : { command: s.command, args: s.args, env: s.env };
}
// An approval arm (config.approval) allows no tool beforehand: "default"
// leaves the SDK's default permission mode, "plan" sets its plan mode.
const options = {
  mcpServers,
  allowedTools: config.approval ? [] : config.servers.map((s) => `mcp__${s.name}__*`),
  ...(config.approval === 'plan' ? { permissionMode: 'plan' } : {}),
  ...(config.model ? { model: config.model } : {}),
  ...(config.maxSteps ? { maxTurns: config.maxSteps } : {}),
};
let failure = '';
let said = false;
try {
  for await (const message of query({ prompt: config.prompt, options })) {
    if (message.type === 'system' && message.subtype === 'init') {
      // The SDK's own word on each server, as Claude Code's init event.
      for (const s of message.mcp_servers ?? []) say({ event: 'server', server: s.name, status: s.status });
    } else if (message.type === 'result') {
      said = true;
      if (message.subtype === 'success') say({ event: 'result', text: message.result, model: Object.keys(message.modelUsage ?? {})[0] ?? '' });
      else failure = message.subtype;
    }
  }
  if (!said) failure = 'no result message';
} catch (err) {
  failure = String(err?.message ?? err);
}
if (failure) {
  say({ event: 'error', error: failure });
  process.stderr.write(failure + '\n');
  process.exitCode = 1;
}
