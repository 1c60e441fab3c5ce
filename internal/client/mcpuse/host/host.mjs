// mcp-use as an app embeds it, written as mcp-use's README shows
// (TypeScript, "Use MCP Agent"): MCPClient.fromDict with the servers (a
// command and its args, or a URL), a ChatOpenAI model, new MCPAgent({llm,
// client}) with its defaults (5 model calls at most, its own system
// prompt), agent.run with the prompt, the client's sessions closed.
// instrlab gives it the servers, the prompt and the model in the JSON file
// named by its first argument, and reads the JSON lines it prints.
import { readFileSync } from 'node:fs';
import { ChatOpenAI } from '@langchain/openai';
import { MCPAgent, MCPClient } from 'mcp-use';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const say = (event) => process.stdout.write(JSON.stringify(event) + '\n');

const mcpServers = {};
for (const s of config.servers) {
  mcpServers[s.name] = s.url ? { url: s.url } : { command: s.command, args: s.args, env: s.env };
}
const client = MCPClient.fromDict({ mcpServers });
const llm = new ChatOpenAI({ modelName: config.model });
// maxSteps is the agent's default (5) unless the row names turns.
const agent = new MCPAgent({ llm, client, maxSteps: config.maxSteps });
let failure = '';
try {
  // The sessions first, in config order, as agent.run would create them
  // itself (it finds these and uses them): so the host can say which
  // server connected. The first that fails throws, and its message says
  // which.
  try {
    await client.createAllSessions();
  } catch (err) {
    const sessions = client.getAllActiveSessions();
    for (const s of config.servers) {
      if (!sessions[s.name]) say({ event: 'server', server: s.name, status: 'failed', error: String(err?.message ?? err) });
    }
    throw err;
  }
  const sessions = client.getAllActiveSessions();
  for (const s of config.servers) {
    say({ event: 'server', server: s.name, status: 'connected', tools: sessions[s.name].connector.tools?.length ?? 0 });
  }
  const result = await agent.run(config.prompt);
  say({ event: 'result', text: typeof result === 'string' ? result : JSON.stringify(result), model: config.model });
} catch (err) {
  failure = String(err?.message ?? err);
  say({ event: 'error', error: failure });
  process.exitCode = 1;
} finally {
  await agent.close().catch(() => {});
}
// Last on stderr, after the servers (which share it) have closed: what
// ended the run.
if (failure) process.stderr.write(failure + '\n');
