// Google's Agent Development Kit for TypeScript as an app embeds it,
// written as ADK's MCP tools guide shows (google.github.io/adk-docs,
// "Model Context Protocol Tools", TypeScript): an LlmAgent with a model
// name, a name, an instruction and tools: [new MCPToolset(connection
// params)] per server, run as ADK's quickstart runs an agent in code (an
// InMemoryRunner, a session, runAsync with the prompt as the user's
// message). instrlab gives it the servers, the prompt and the model in the
// JSON file named by its first argument, and reads the JSON lines it
// prints.
import { readFileSync } from 'node:fs';
import { LlmAgent, MCPToolset, InMemoryRunner, LogLevel, setLogger } from '@google/adk';

// ADK's logger writes to stdout, which is the host's JSON lines: the host
// gives ADK a logger of the same lines on stderr (the run keeps both).
const line = (level) => (...messages) => process.stderr.write(`${level}: [ADK] ${new Date().toISOString()} ${messages.join(' ')}\n`);
setLogger({
  setLogLevel() {},
  log: (level, ...messages) => line(LogLevel[level] ?? String(level))(...messages),
  debug: () => {},
  info: line('INFO'),
  warn: line('WARN'),
  error: line('ERROR'),
});

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const say = (event) => process.stdout.write(JSON.stringify(event) + '\n');

const toolsets = config.servers.map((s) => new MCPToolset(s.url
  ? { type: 'StreamableHTTPConnectionParams', url: s.url }
  : { type: 'StdioConnectionParams', serverParams: { command: s.command, args: s.args, env: s.env } }));
// Each server's state, said after the run so that the guide's app is
// what the servers and the model see: ADK lists a toolset's tools when
// the agent asks the model, in a session of its own each time, and so
// does this.
async function sayServers() {
  for (const [i, s] of config.servers.entries()) {
    try {
      const tools = await toolsets[i].getTools();
      say({ event: 'server', server: s.name, status: 'connected', tools: tools.length });
    } catch (err) {
      say({ event: 'server', server: s.name, status: 'failed', error: String(err?.message ?? err) });
    }
  }
}
let failure = '';
let result;
try {
  const agent = new LlmAgent({
    model: config.model,
    name: 'assistant_agent',
    instruction: 'You are a helpful assistant.',
    tools: toolsets,
  });
  const runner = new InMemoryRunner({ agent, appName: 'instrlab_host' });
  const session = await runner.sessionService.createSession({ appName: 'instrlab_host', userId: 'user' });
  let text = '';
  let turns = 0;
  for await (const event of runner.runAsync({
    userId: 'user',
    sessionId: session.id,
    newMessage: { role: 'user', parts: [{ text: config.prompt }] },
    ...(config.maxSteps ? { runConfig: { maxLlmCalls: config.maxSteps } } : {}),
  })) {
    if (event.errorMessage) throw new Error(event.errorMessage);
    if (event.author === agent.name) turns++;
    const t = (event.content?.parts ?? []).map((p) => p.text ?? '').join('');
    if (t) text = t;
  }
  result = { event: 'result', text, model: config.model, steps: turns };
} catch (err) {
  failure = String(err?.message ?? err);
}
await sayServers();
if (result) say(result);
else {
  say({ event: 'error', error: failure });
  process.exitCode = 1;
}
await Promise.allSettled(toolsets.map((t) => t.close()));
if (failure) process.stderr.write(failure + '\n');
