package labvocab

// TextMethods are the methods whose replies carry a server's own texts
// (instructions, tool and prompt descriptions). The lab and the proxy keep
// these replies whole in the log's Body, so that an analysis can recover
// the texts of any server, or of a lab serving a file, from the log alone.
var TextMethods = []string{"initialize", "server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list"}

// CallMethods are the methods whose requests and replies, errors
// included, the lab and the proxy keep whole in the log's Body: a tool
// call's name and arguments, and the result the server sent, which an
// analysis locates in the model request that follows; and a resource the
// client read, or a prompt it got, for the model (a client's own resource
// tools), whose texts are located the same way.
var CallMethods = []string{"tools/call", "resources/read", "prompts/get"}

// AskMethods are the requests a server sends a client: the lab and the
// proxy keep them, and the client's answers, whole in the log's Body. An
// answer the log cannot name (the lab's own log of HTTP, where the answer
// comes in a request of its own) has no method: such answers are kept too.
var AskMethods = []string{"elicitation/create", "sampling/createMessage", "roots/list"}

// NoticeMethods are the notifications whose texts a client may show the
// model, kept whole in the log's Body.
var NoticeMethods = []string{"notifications/message", "notifications/progress"}

// Cancelled is the notification by which either side ends a request it
// made (its params: the requestId and a reason): the lab and the proxy
// keep it whole, so that an analysis tells which call a client gave up
// on and why.
const Cancelled = "notifications/cancelled"
