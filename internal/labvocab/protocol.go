package labvocab

// ProtocolAddedTool is the tool protocol_list_changed adds to the server
// while it is called, announced by notifications/tools/list_changed.
const ProtocolAddedTool = "protocol_added"

// ProtocolListChanged is the tool of lab.SurfaceProtocol that adds
// ProtocolAddedTool when called.
const ProtocolListChanged = "protocol_list_changed"

// The tools of lab.SurfaceProtocol that ask the client while they run.
const (
	ProtocolElicitForm = "protocol_elicit_form"
	ProtocolElicitURL  = "protocol_elicit_url"
	ProtocolSample     = "protocol_sample"
	ProtocolRoots      = "protocol_roots"
)

// An Ask is a tool of lab.SurfaceProtocol that asks, and the feature it
// asks for.
type Ask struct{ Tool, Feature string }

// ProtocolAsks are the asking tools, in the order the protocol-asks row
// calls them, each alone in a turn of its own: roots/list, which the
// 2026-07-28 protocol deprecates, last.
var ProtocolAsks = []Ask{{ProtocolElicitForm, FeatureElicitForm}, {ProtocolElicitURL, FeatureElicitURL},
	{ProtocolSample, FeatureSampling}, {ProtocolRoots, FeatureRoots}}

// ProtocolAppOnly is the tool of lab.SurfaceProtocol that MCP Apps visibility
// marks as for the app alone: a client that knows it does not offer it to
// the model.
const ProtocolAppOnly = "protocol_app_only"

// ProtocolHeader is the tool of lab.SurfaceProtocol whose input schema has
// KeywordHeader.
const ProtocolHeader = "protocol_header"

// ProtocolTask is the tool of lab.SurfaceProtocol whose definition says
// it must be called as a task (execution.taskSupport "required", the
// 2025-11-25 protocol's tasks), on a server that declares task-augmented
// tools/call.
const ProtocolTask = "protocol_task"

// ProtocolResourceUpdated is the tool of lab.SurfaceProtocol that changes
// the resource ProtocolResourceURI and announces it
// (notifications/resources/updated) to a client that subscribed to it
// (resources/subscribe).
const ProtocolResourceUpdated = "protocol_resource_updated"

// ProtocolResourceURI is the resource of lab.SurfaceProtocol that
// ProtocolResourceUpdated changes; ProtocolResource its name.
const (
	ProtocolResourceURI = "lab://protocol/status"
	ProtocolResource    = "protocol_status"
)

// KeywordHeader is the keyword of an input schema's property that binds
// it to an HTTP header of the call (SEP-2243).
const KeywordHeader = "x-mcp-header"

// The _meta key of MCP Apps (SEP-1865) that holds a tool's visibility.
const MetaUI = "ui"

// The features of the protocol group, as the analysis (surface.ProtocolLines)
// and the profiles (profiles.Protocol) name them, in their order
// (ProtocolFeatures).
const (
	FeatureDeclared    = "declared" // the capabilities of the client's initialize
	FeatureElicitForm  = "elicitation form"
	FeatureElicitURL   = "elicitation url"
	FeatureSampling    = "sampling"
	FeatureRoots       = "roots/list"
	FeatureLog         = "log message"
	FeatureProgress    = "progress"
	FeatureListChanged = "tools/list_changed"
	FeatureAppOnly     = "app-only tool" // _meta.ui.visibility ["app"] (MCP Apps)
	FeatureHeader      = KeywordHeader
	FeatureTask        = "task-required tool" // execution.taskSupport "required" (2025-11-25 tasks)
	// FeatureResourceUpdated: a resource the client may subscribe to
	// (resources/subscribe), changed and announced while a tool runs.
	FeatureResourceUpdated = "resources/updated"
	// FeatureTurn is whether the client's turn ended (DoesTurnEnds) or
	// the run timed out (DoesTurnNeverEnds).
	FeatureTurn = "turn"
	// FeatureCalls is the one fact of a run that called none of the
	// protocol tools.
	FeatureCalls = "tool calls"
)

// ProtocolFeatures lists the features in their order.
var ProtocolFeatures = []string{FeatureDeclared, FeatureElicitForm, FeatureElicitURL, FeatureSampling, FeatureRoots,
	FeatureLog, FeatureProgress, FeatureListChanged, FeatureResourceUpdated, FeatureAppOnly, FeatureHeader, FeatureTask, FeatureTurn, FeatureCalls}

// What a client does with a feature (profiles.ProtocolFact.Does), in words
// shared by several features; an answer to a request is the client's own
// (accept, decline, cancel, error CODE, result).
const (
	DoesNotDeclared = "not sent: not declared"
	// DoesInputRequired begins what a client does with an ask made in a
	// call's result (input_required, the 2026-07-28 protocol): the
	// client's answer in its retry follows, or "no answer" when it never
	// retried.
	DoesInputRequired = "in input_required: "
	DoesNoAnswer      = "no answer"
	DoesReaches       = "reaches the model"
	DoesNeverReaches  = "never reaches the model"
	DoesHidden        = "not offered to the model"
	DoesOffered       = "offered to the model"
	DoesRelists       = "lists the tools again" // and the server listed no new tool
	DoesRelistsWith   = "lists the tools again; the model has the new tool with the call's result"
	DoesRelistsLater  = "lists the tools again; the model has the new tool only after the call's result"
	DoesRelistsNever  = "lists the tools again; the model never has the new tool"
	DoesNoRelist      = "never lists the tools again"
	DoesRestarts      = "never lists the tools again: it starts the server anew for each call"
	// DoesInSchema follows the fate (surface.Kept, Dropped, Rewritten) of
	// x-mcp-header in a tool's input schema.
	DoesInSchema = " in the schema the model gets"
	// What a client does with a tool that must be called as a task: it
	// calls it as one (a task in the call's params), calls it as any
	// tool, or never calls it though the model did (its call ends in the
	// client); DoesHidden when it does not offer it.
	DoesCallsAsTask = "offered; called as a task"
	DoesCallsPlain  = "offered; called without a task"
	DoesNeverCalls  = "offered; the model's call never reaches the server"
	// What a client does with the task a server answers its call with
	// (the tasks extension, a client that declared it): asks for the
	// task's state (tasks/get) until it completes, asks but stops before,
	// or never asks.
	DoesTaskPolled = "given a task, polls tasks/get until it completes"
	DoesTaskPolls  = "given a task, polls tasks/get but stops before it completes"
	DoesTaskNoPoll = "given a task, never polls tasks/get"
	// DoesNotListening: the server sent no tools/list_changed, having no
	// session listening for it (over 2026-07-28 a client listens on a
	// subscriptions/listen stream).
	DoesNotListening = "not sent: the client was not listening (no subscriptions/listen stream open for it)"
	// What became of the client's turn (FeatureTurn): it ended, or it
	// never did, the run timed out (DoesTurnNeverEnds, then the asks of
	// the run that got no answer).
	DoesTurnEnds      = "ends"
	DoesTurnNeverEnds = "never ends: the run timed out"
	// What became of the client's turn after one ask alone (the
	// protocol-asks row, profiles.Protocol.Alone): the model got the
	// call's result and its turn went on; it ended without that result;
	// or it never ended.
	DoesAloneGoesOn    = "its turn goes on"
	DoesAloneEnds      = "its turn ends without the call's result"
	DoesAloneNeverEnds = "its turn " + DoesTurnNeverEnds
	// What a client does with a resource it may subscribe to, which the
	// server changes and announces (notifications/resources/updated) to
	// the sessions subscribed: it never subscribes (nothing is sent);
	// subscribes and reads the resource again after the notification,
	// its new text reaching the model or not; or subscribes and never
	// reads it again.
	DoesNoSubscribe        = "never subscribes"
	DoesRereadsReaches     = "subscribes; reads it again; its new text reaches the model"
	DoesRereadsNeverModel  = "subscribes; reads it again; its new text never reaches the model"
	DoesSubscribesNoReread = "subscribes; never reads it again"
)
