package probe

import (
	"encoding/json"
	"fmt"
	"slices"
)

// A handshake is what the first reply of an era says about the server.
type handshake struct {
	protocolVersion    string
	supportedVersions  []string
	serverInfo         *Implementation
	capabilities       []string
	toolsListChanged   bool
	resourcesSubscribe bool
	instructions       *string
	problems           []string
}

// metaServerInfo is where a 2026-07-28 result carries the server's identity.
const metaServerInfo = "io.modelcontextprotocol/serverInfo"

// parseInitialize decodes an InitializeResult. A reply that is not even an
// object is an error; missing or mistyped fields are problems.
func parseInitialize(result json.RawMessage) (handshake, error) {
	var r struct {
		ProtocolVersion json.RawMessage `json:"protocolVersion"`
		ServerInfo      json.RawMessage `json:"serverInfo"`
		Capabilities    json.RawMessage `json:"capabilities"`
		Instructions    json.RawMessage `json:"instructions"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return handshake{}, fmt.Errorf("initialize result is not an object: %w", err)
	}
	var h handshake
	h.protocolVersion = stringField(r.ProtocolVersion, "protocolVersion", true, &h.problems)
	h.serverInfo = implementation(r.ServerInfo, "serverInfo", &h.problems)
	h.capabilities = objectKeys(r.Capabilities, "capabilities", &h.problems)
	h.toolsListChanged, h.resourcesSubscribe = capabilityFlags(r.Capabilities)
	h.instructions = optionalString(r.Instructions, "instructions", &h.problems)
	return h, nil
}

// capabilityFlags reports whether capabilities declare tools.listChanged
// (the server may announce a change of its tools) and resources.subscribe
// (a client may subscribe to a resource, and the server announce its
// changes: notifications/resources/updated); each member is read on its
// own, so a malformed one costs only its flag.
func capabilityFlags(capabilities json.RawMessage) (listChanged, subscribe bool) {
	var c struct{ Tools, Resources json.RawMessage }
	if json.Unmarshal(capabilities, &c) != nil {
		return false, false
	}
	var t struct {
		ListChanged bool `json:"listChanged"`
	}
	var r struct {
		Subscribe bool `json:"subscribe"`
	}
	return json.Unmarshal(c.Tools, &t) == nil && t.ListChanged, json.Unmarshal(c.Resources, &r) == nil && r.Subscribe
}

// parseDiscover decodes a DiscoverResult.
func parseDiscover(result json.RawMessage) (handshake, error) {
	var r struct {
		SupportedVersions json.RawMessage            `json:"supportedVersions"`
		Capabilities      json.RawMessage            `json:"capabilities"`
		Instructions      json.RawMessage            `json:"instructions"`
		TTLMs             json.RawMessage            `json:"ttlMs"`
		CacheScope        json.RawMessage            `json:"cacheScope"`
		ResultType        json.RawMessage            `json:"resultType"`
		Meta              map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return handshake{}, fmt.Errorf("server/discover result is not an object: %w", err)
	}
	var h handshake
	if r.SupportedVersions == nil {
		h.problems = append(h.problems, "DiscoverResult has no supportedVersions")
	} else if err := json.Unmarshal(r.SupportedVersions, &h.supportedVersions); err != nil {
		h.problems = append(h.problems, "DiscoverResult supportedVersions is not a list of strings")
	}
	if len(h.supportedVersions) > 0 && !slices.Contains(h.supportedVersions, ModernVersion) {
		h.problems = append(h.problems, "DiscoverResult supportedVersions does not list "+ModernVersion)
	}
	h.capabilities = objectKeys(r.Capabilities, "capabilities", &h.problems)
	h.toolsListChanged, h.resourcesSubscribe = capabilityFlags(r.Capabilities)
	h.instructions = optionalString(r.Instructions, "instructions", &h.problems)
	cacheFields("DiscoverResult", r.TTLMs, r.CacheScope, &h.problems)
	if s := stringField(r.ResultType, "resultType", true, &h.problems); s != "" && s != "complete" {
		h.problems = append(h.problems, fmt.Sprintf("DiscoverResult resultType is %q, want \"complete\"", s))
	}
	if raw, ok := r.Meta[metaServerInfo]; ok {
		h.serverInfo = implementation(raw, "_meta serverInfo", &h.problems)
	} else {
		h.problems = append(h.problems, "DiscoverResult has no _meta[\""+metaServerInfo+"\"]")
	}
	return h, nil
}

// parseTools decodes a ListToolsResult page.
func parseTools(result json.RawMessage, modern bool) (tools []Tool, next string, problems []string, err error) {
	var r struct {
		Tools      []json.RawMessage `json:"tools"`
		NextCursor json.RawMessage   `json:"nextCursor"`
		TTLMs      json.RawMessage   `json:"ttlMs"`
		CacheScope json.RawMessage   `json:"cacheScope"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return nil, "", nil, fmt.Errorf("tools/list result is not an object with a tools list: %w", err)
	}
	for i, raw := range r.Tools {
		var t struct {
			Name        json.RawMessage `json:"name"`
			Description json.RawMessage `json:"description"`
			Meta        json.RawMessage `json:"_meta"`
			Input       json.RawMessage `json:"inputSchema"`
			Output      json.RawMessage `json:"outputSchema"`
			Annotations json.RawMessage `json:"annotations"`
			Execution   json.RawMessage `json:"execution"`
		}
		if json.Unmarshal(raw, &t) != nil {
			problems = append(problems, fmt.Sprintf("tools[%d] is not an object", i))
			continue
		}
		name := stringField(t.Name, fmt.Sprintf("tools[%d].name", i), true, &problems)
		desc := optionalString(t.Description, fmt.Sprintf("tools[%d].description", i), &problems)
		tool := Tool{Name: name, InputSchema: object(t.Input), OutputSchema: object(t.Output)}
		if object(t.Annotations) != nil {
			json.Unmarshal(t.Annotations, &tool.Annotations) // an object: cannot fail
		}
		var execution struct {
			TaskSupport string `json:"taskSupport"`
		}
		if object(t.Execution) != nil && json.Unmarshal(t.Execution, &execution) == nil {
			tool.TaskSupport = execution.TaskSupport
		}
		if t.Meta != nil && string(t.Meta) != "null" && json.Unmarshal(t.Meta, &tool.Meta) != nil {
			problems = append(problems, fmt.Sprintf("tools[%d]._meta is not an object", i))
		}
		if desc != nil {
			tool.Description = *desc
		}
		tools = append(tools, tool)
	}
	if r.NextCursor != nil && string(r.NextCursor) != "null" {
		next = stringField(r.NextCursor, "nextCursor", false, &problems)
	}
	if modern {
		cacheFields("ListToolsResult", r.TTLMs, r.CacheScope, &problems)
	}
	return tools, next, problems, nil
}

// object is raw when it is a JSON object, else nil.
func object(raw json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || m == nil {
		return nil
	}
	return raw
}

func cacheFields(what string, ttl, scope json.RawMessage, problems *[]string) {
	var n float64
	if ttl == nil {
		*problems = append(*problems, what+" has no ttlMs")
	} else if json.Unmarshal(ttl, &n) != nil || n < 0 {
		*problems = append(*problems, what+" ttlMs is not a non-negative number")
	}
	var s string
	if scope == nil {
		*problems = append(*problems, what+" has no cacheScope")
	} else if json.Unmarshal(scope, &s) != nil || (s != "public" && s != "private") {
		*problems = append(*problems, what+` cacheScope is not "public" or "private"`)
	}
}

func stringField(raw json.RawMessage, name string, required bool, problems *[]string) string {
	if raw == nil || string(raw) == "null" {
		if required {
			*problems = append(*problems, "missing "+name)
		}
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		*problems = append(*problems, name+" is not a string")
	}
	return s
}

func optionalString(raw json.RawMessage, name string, problems *[]string) *string {
	if raw == nil {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		*problems = append(*problems, name+" is not a string")
		return nil
	}
	return &s
}

func implementation(raw json.RawMessage, name string, problems *[]string) *Implementation {
	if raw == nil || string(raw) == "null" {
		*problems = append(*problems, "missing "+name)
		return nil
	}
	var r struct {
		Name    json.RawMessage `json:"name"`
		Version json.RawMessage `json:"version"`
	}
	if json.Unmarshal(raw, &r) != nil {
		*problems = append(*problems, name+" is not an object")
		return nil
	}
	return &Implementation{
		Name:    stringField(r.Name, name+".name", true, problems),
		Version: stringField(r.Version, name+".version", false, problems),
	}
}

func objectKeys(raw json.RawMessage, name string, problems *[]string) []string {
	if raw == nil || string(raw) == "null" {
		*problems = append(*problems, "missing "+name)
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		*problems = append(*problems, name+" is not an object")
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
