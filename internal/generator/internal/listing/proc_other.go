//go:build !unix

package listing

import "os/exec"

func ownGroup(*exec.Cmd) {}

func kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
