package generator

import (
	"io"
	"os"
)

// invocation is one run of the command: where it runs and prints, and a
// hook into the stages for tests. Tests give their directory here instead
// of changing the process's, so they run in parallel.
type invocation struct {
	dir            string // working directory; the process's when empty
	stdout, stderr io.Writer
	hook           func(stage string) // see Config.hook
}

// workDir is the directory the command runs in.
func (inv invocation) workDir() (string, error) {
	if inv.dir != "" {
		return inv.dir, nil
	}
	return os.Getwd()
}
