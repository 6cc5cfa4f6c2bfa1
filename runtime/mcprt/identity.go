package mcprt

// Identity is how a server describes itself and which optional capabilities
// it switches on. A switch is published only when the identity enables it and
// the negotiated protocol revision has it, so enabling one against an older
// revision changes nothing on the wire.
type Identity struct {
	Name         string // published in serverInfo
	Version      string // published in serverInfo
	Title        string // human-readable name, omitted when empty
	Description  string // what the server offers, omitted when empty (2025-11-25 on)
	Instructions string // guidance for the client on using the server, omitted when empty
	WebsiteURL   string // omitted when empty (2025-11-25 on)
	Icons        []Icon // omitted when empty (2025-11-25 on)

	// PageSize is the number of entries per page of list results. Zero or
	// less sends every entry in one page.
	PageSize int

	// EnableLogging publishes the logging capability: clients may set a level
	// and receive log messages from handlers.
	EnableLogging bool
	// EnableCompletions publishes the completions capability.
	EnableCompletions bool
	// EnableElicitation lets handlers ask the client for input, where the
	// client declared the elicitation capability.
	EnableElicitation bool
	// EnableSampling lets handlers ask the client to sample a model, where
	// the client declared the sampling capability.
	EnableSampling bool
	// EnableTasks publishes the tasks capability where the revision has it.
	EnableTasks bool
	// EnableToolNotifications publishes tools.listChanged and sends
	// notifications/tools/list_changed when tools are added or removed
	// after start.
	EnableToolNotifications bool
	// EnablePromptNotifications publishes prompts.listChanged and sends
	// notifications/prompts/list_changed when prompts are added or
	// removed after start.
	EnablePromptNotifications bool
	// EnableResourceNotifications publishes resources.listChanged and
	// sends notifications/resources/list_changed when resources are added
	// or removed after start.
	EnableResourceNotifications bool
	// EnableResourceSubscriptions publishes resources.subscribe: clients
	// may subscribe to a resource and are told when it changes.
	EnableResourceSubscriptions bool
}
