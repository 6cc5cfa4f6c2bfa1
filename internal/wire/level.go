package wire

import "github.com/mcpgen/mcpgen/runtime/mcprt"

var levelRank = map[mcprt.LogLevel]int{
	mcprt.LevelDebug: 1, mcprt.LevelInfo: 2, mcprt.LevelNotice: 3, mcprt.LevelWarning: 4,
	mcprt.LevelError: 5, mcprt.LevelCritical: 6, mcprt.LevelAlert: 7, mcprt.LevelEmergency: 8,
}

// LevelRank orders the log levels: 1 for debug up to 8 for emergency, 0
// for a string that is not a level.
func LevelRank(l mcprt.LogLevel) int { return levelRank[l] }

// ValidLevel reports whether l is one of the eight log levels.
func ValidLevel(l mcprt.LogLevel) bool { return LevelRank(l) > 0 }
