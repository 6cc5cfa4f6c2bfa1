//go:build unix

package listing

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that kill ends
// what it started too: npx runs the server as its child.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// kill ends cmd's process group.
func kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
