//go:build !unix

package check

import "os/exec"

// ownGroup leaves cmd as it is: there are no process groups to start it in.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills cmd's process.
func killGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
