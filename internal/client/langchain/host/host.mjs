// LangChain.js as an app embeds it, written as @langchain/mcp-adapters'
// README shows ("Connect to one or more servers via MultiServerMCPClient"):
// a MultiServerMCPClient with the servers (stdio, or a URL) and its
// default options, getTools(), a ChatOpenAI model ("gpt-4o-mini",
// temperature 0), createAgent from langchain (its agent on LangGraph) with
// the model and the tools, invoke with the prompt as a user message, the
// client closed. (The README passes the model as llm; langchain 1.5.14's
// createAgent takes model.) instrlab gives it the servers, the prompt and
// the model in the JSON file named by its first argument, and reads the
// JSON lines it prints.
import { readFileSync } from 'node:fs';
import { createAgent } from 'langchain';
import { ChatOpenAI } from '@langchain/openai';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const say = (event) => process.stdout.write(JSON.stringify(event) + '\n');

const mcpServers = {};
for (const s of config.servers) {
  mcpServers[s.name] = s.url ? { url: s.url } : { transport: 'stdio', command: s.command, args: s.args, env: s.env };
}
// Arm standard-content-blocks: the option the README's example sets.
const client = new MultiServerMCPClient({
  mcpServers,
  ...(config.useStandardContentBlocks ? { useStandardContentBlocks: true } : {}),
});
let failure = '';
try {
  let tools;
  try {
    tools = await client.getTools();
  } catch (err) {
    // The client connects every server in getTools and, by default,
    // throws on the first that fails: which one, its message says.
    for (const s of config.servers) say({ event: 'server', server: s.name, status: 'failed', error: String(err?.message ?? err) });
    throw err;
  }
  for (const s of config.servers) {
    say({ event: 'server', server: s.name, status: 'connected', tools: tools.filter((t) => t.metadata?.serverName === s.name || !t.metadata?.serverName).length });
  }
  const model = new ChatOpenAI({ model: config.model, temperature: 0 });
  const agent = createAgent({ model, tools });
  const response = await agent.invoke(
    { messages: [{ role: 'user', content: config.prompt }] },
    // A model turn is two of LangGraph's steps (the model, then the
    // tools), and one more ends the graph: 12 turns are its default 25.
    { recursionLimit: 2 * config.maxSteps + 1 },
  );
  const last = response.messages.at(-1);
  const text = typeof last?.content === 'string' ? last.content : (last?.content ?? []).map((b) => b.text ?? '').join('');
  say({ event: 'result', text, model: last?.response_metadata?.model_name ?? config.model });
} catch (err) {
  failure = String(err?.message ?? err);
  say({ event: 'error', error: failure });
  process.exitCode = 1;
} finally {
  await client.close().catch(() => {});
}
// Last on stderr, after the servers (which share it) have closed: what
// ended the run.
if (failure) process.stderr.write(failure + '\n');
