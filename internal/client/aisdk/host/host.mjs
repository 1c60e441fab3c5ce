// The Vercel AI SDK as an app embeds it, written as its MCP recipe shows
// (ai-sdk.dev, "MCP Tools"): one MCP client per server, their tools merged,
// generateText with an OpenAI model and stopWhen: stepCountIs(5).
// instrlab gives it the servers, the prompt and the model in the JSON file
// named by its first argument, and reads the JSON lines it prints.
import { readFileSync } from 'node:fs';
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { generateText, stepCountIs } from 'ai';
import { openai } from '@ai-sdk/openai';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const say = (event) => process.stdout.write(JSON.stringify(event) + '\n');

const clients = [];
let failure = '';
try {
  let tools = {};
  const instructions = [];
  for (const server of config.servers) {
    try {
      const transport = server.url
        ? { type: 'http', url: server.url }
        : new Experimental_StdioMCPTransport({ command: server.command, args: server.args, env: server.env });
      const client = await createMCPClient({ transport });
      clients.push(client);
      const toolSet = await client.tools();
      // As the recipe merges them: a later server's tool replaces an
      // earlier one of the same name.
      tools = { ...tools, ...toolSet };
      if (client.instructions) instructions.push(client.instructions);
      say({ event: 'server', server: server.name, status: 'connected', tools: Object.keys(toolSet).length });
    } catch (err) {
      // The recipe connects outside any per-server catch: one server
      // that fails ends the app's request. Said, then so.
      say({ event: 'server', server: server.name, status: 'failed', error: String(err?.message ?? err) });
      throw err;
    }
  }
  const response = await generateText({
    model: openai(config.model),
    tools,
    // The recipe passes no system prompt: the servers' instructions reach
    // the model only where the app passes them (arm "instructions").
    ...(config.instructions && instructions.length ? { system: instructions.join('\n\n') } : {}),
    stopWhen: stepCountIs(config.maxSteps || 5),
    prompt: config.prompt,
  });
  say({ event: 'result', text: response.text, model: response.response?.modelId ?? config.model, steps: response.steps.length });
} catch (err) {
  failure = String(err?.message ?? err);
  say({ event: 'error', error: failure });
  process.exitCode = 1;
} finally {
  await Promise.allSettled(clients.map((c) => c.close()));
}
// Last on stderr, after the servers (which share it) have closed: what
// ended the run.
if (failure) process.stderr.write(failure + '\n');
