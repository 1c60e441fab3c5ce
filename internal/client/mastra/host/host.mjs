// Mastra as an app embeds it, written as its MCP guide shows (mastra.ai,
// "MCP", shipped in @mastra/mcp's docs): an MCPClient with the servers (a
// command, or a URL), an Agent with its instructions, a model-router
// "openai/…" model and tools: await mcpClient.listTools(), then
// agent.generate(prompt) and disconnect(). instrlab gives it the servers,
// the prompt and the model in the JSON file named by its first argument,
// and reads the JSON lines it prints.
import { readFileSync } from 'node:fs';
import { Agent } from '@mastra/core/agent';
import { MCPClient } from '@mastra/mcp';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const say = (event) => process.stdout.write(JSON.stringify(event) + '\n');

const servers = {};
for (const s of config.servers) {
  servers[s.name] = s.url ? { url: new URL(s.url) } : { command: s.command, args: s.args, env: s.env };
  // Arm forward-instructions: the per-server option that appends a
  // server's instructions to the agent's system prompt (off by default).
  if (config.forwardInstructions) servers[s.name].forwardInstructions = true;
}
const mcpClient = new MCPClient({ id: 'instrlab-host', servers });
let failure = '';
try {
  let tools;
  try {
    tools = await mcpClient.listTools();
  } catch (err) {
    for (const s of config.servers) say({ event: 'server', server: s.name, status: 'failed', error: String(err?.message ?? err) });
    throw err;
  }
  // listTools names each tool SERVER_TOOL; a server it could not connect
  // is left out of them, which the count says.
  for (const s of config.servers) {
    const n = Object.keys(tools).filter((k) => k.startsWith(s.name + '_')).length;
    say({ event: 'server', server: s.name, status: 'connected', tools: n });
  }
  const agent = new Agent({
    id: 'assistant',
    name: 'Assistant',
    instructions: 'Use the available MCP tools to answer questions.\nInclude the source of any information you retrieve.',
    model: 'openai/' + config.model,
    tools,
  });
  const response = await agent.generate(config.prompt, { maxSteps: config.maxSteps });
  say({ event: 'result', text: response.text, model: response.response?.modelId ?? config.model, steps: response.steps?.length });
} catch (err) {
  failure = String(err?.message ?? err);
  say({ event: 'error', error: failure });
  process.exitCode = 1;
} finally {
  await mcpClient.disconnect().catch(() => {});
}
if (failure) process.stderr.write(failure + '\n');
