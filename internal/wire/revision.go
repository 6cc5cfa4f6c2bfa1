package wire

// Revision is an MCP protocol revision, named by its date.
//
// Revisions compare in time order as strings, so feature checks are plain
// comparisons against the revision that introduced the feature.
type Revision string

// The protocol revisions mcpgen serves, oldest first.
const (
	Rev20241105 Revision = "2024-11-05"
	Rev20250326 Revision = "2025-03-26"
	Rev20250618 Revision = "2025-06-18"
	Rev20251125 Revision = "2025-11-25"
	Rev20260728 Revision = "2026-07-28"
)

// LatestRevision is the newest revision mcpgen serves.
const LatestRevision = Rev20260728

// revisions is the table of supported revisions, newest first. Its length
// is a constant, so arrays kept per revision are sized from it.
var revisions = [...]Revision{Rev20260728, Rev20251125, Rev20250618, Rev20250326, Rev20241105}

// Revisions lists every supported revision, newest first, as servers
// advertise them.
var Revisions = revisions[:]

// NumRevisions is the number of supported revisions: the length of an
// array kept per revision and indexed by [Revision.Index].
const NumRevisions = len(revisions)

// Index is r's place in [Revisions], 0 being the latest. A revision that
// is not supported takes the latest's place, as servers answer it.
func (r Revision) Index() int {
	for i, s := range revisions {
		if r == s {
			return i
		}
	}
	return 0
}

// Supported reports whether r is one of [Revisions].
func (r Revision) Supported() bool {
	for _, s := range Revisions {
		if r == s {
			return true
		}
	}
	return false
}

// HasAnnotations reports whether tool annotations (title and hints) exist in r.
func (r Revision) HasAnnotations() bool { return r >= Rev20250326 }

// HasAudio reports whether audio content blocks exist in r.
func (r Revision) HasAudio() bool { return r >= Rev20250326 }

// HasCompletions reports whether r has the completions capability.
func (r Revision) HasCompletions() bool { return r >= Rev20250326 }

// HasStructuredOutput reports whether r has a top-level tool title,
// outputSchema, structuredContent and resource_link content.
func (r Revision) HasStructuredOutput() bool { return r >= Rev20250618 }

// HasIcons reports whether r has icons on tools and servers and the server
// description and website URL.
func (r Revision) HasIcons() bool { return r >= Rev20251125 }

// HasTasks reports whether r has tasks in the core protocol: the tasks
// capability and execution.taskSupport on tools. Only 2025-11-25 does;
// 2026-07-28 moved tasks to an extension.
func (r Revision) HasTasks() bool { return r == Rev20251125 }

// Stateless reports whether r is of the 2026-07-28 era: no initialize, no
// sessions, the revision and client capabilities carried by every request.
func (r Revision) Stateless() bool { return r >= Rev20260728 }
