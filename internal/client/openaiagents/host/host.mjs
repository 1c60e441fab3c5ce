// The OpenAI Agents SDK as an app embeds it, written as its MCP guide
// shows (openai.github.io/openai-agents-js, "Model Context Protocol"): one
// MCPServerStdio (or MCPServerStreamableHttp) per server, connected, an
// Agent with them as mcpServers and the quickstart's instructions, run()
// with the prompt, the servers closed. The model is the SDK's default
// unless the row names one. instrlab gives it the servers, the prompt and
// the model in the JSON file named by its first argument, and reads the
// JSON lines it prints.
import { readFileSync } from 'node:fs';
import { Agent, run, MCPServerStdio, MCPServerStreamableHttp, getGlobalTraceProvider } from '@openai/agents';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const say = (event) => process.stdout.write(JSON.stringify(event) + '\n');

// Arm structured-content: the servers' option that gives the model a
// result's structuredContent when it has one.
const options = config.useStructuredContent ? { useStructuredContent: true } : {};
const servers = config.servers.map((s) =>
  s.url
    ? new MCPServerStreamableHttp({ name: s.name, url: s.url, ...options })
    : new MCPServerStdio({ name: s.name, command: s.command, args: s.args, env: s.env, ...options }),
);
let failure = '';
try {
  for (const [i, server] of servers.entries()) {
    try {
      await server.connect();
      say({ event: 'server', server: config.servers[i].name, status: 'connected' });
    } catch (err) {
      // As the guide's app: a server that cannot connect ends it.
      say({ event: 'server', server: config.servers[i].name, status: 'failed', error: String(err?.message ?? err) });
      throw err;
    }
  }
  const agent = new Agent({
    name: 'Assistant',
    instructions: 'You are a helpful assistant',
    mcpServers: servers,
    ...(config.model ? { model: config.model } : {}),
  });
  const result = await run(agent, config.prompt, { maxTurns: config.maxSteps });
  const last = result.rawResponses.at(-1);
  say({ event: 'result', text: String(result.finalOutput ?? ''), model: last?.providerData?.model ?? config.model ?? '' });
} catch (err) {
  failure = String(err?.message ?? err);
  say({ event: 'error', error: failure });
  process.exitCode = 1;
} finally {
  await Promise.allSettled(servers.map((s) => s.close()));
}
// Last on stderr, after the servers (which share it) have closed and the
// SDK's traces were flushed (as at its exit anyway): what ended the run.
if (failure) {
  await getGlobalTraceProvider().forceFlush();
  process.stderr.write(failure + '\n');
}
