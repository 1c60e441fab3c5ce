// Package grok drives Grok CLI (npm @vibe-kit/grok-cli) as an MCP client
// under test: grok -p PROMPT (headless) with the fake as its OpenAI Chat
// Completions base URL (-u), the run's servers in the working folder's
// .grok/settings.json. Headless, it prints the turn's messages as JSON
// lines once the turn ends, then does not exit while its MCP servers run
// (its code returns from the prompt without exiting); the adapter runs it
// under a small Node.js program of ours (headless.mjs) that ends it once it
// has printed the turn's last message.
package grok
