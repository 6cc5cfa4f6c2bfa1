//go:build !race

package mcpserver

// raceEnabled is true under the race detector, which changes what
// allocates (sync.Pool drops what it is given at random).
const raceEnabled = false
