// Package nodetest runs the Node.js programs of the interoperability
// tests (interop/authjs and interop/oidcprovider, with their modules
// pinned in their package-lock.json) for the tests of the root package,
// bearer and internal/keyflow.
package nodetest

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Need skips the test, or fails it when CI is set, when node is not
// installed or the Node module is not installed in dir (install says how
// to install it). what names the test in the message.
func Need(tb testing.TB, what, dir, module, install string) {
	tb.Helper()
	missing := ""
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node is not installed"
	} else if _, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(module), "package.json")); err != nil {
		missing = module + " is not installed (run: " + install + ")"
	}
	if missing == "" {
		return
	}
	if os.Getenv("CI") != "" {
		tb.Fatalf("%s: %s", what, missing)
	}
	tb.Skipf("%s skipped: %s", what, missing)
}

// Start starts node running script in dir, its standard error going to
// stderr, and returns the command with its standard input and output.
// When the test ends it closes the input (the programs end at the end of
// their input) and waits for the process, killing it after 10 seconds.
func Start(tb testing.TB, dir, script string, stderr io.Writer) (*exec.Cmd, io.WriteCloser, io.Reader) {
	tb.Helper()
	cmd := exec.Command("node", script)
	cmd.Dir = dir
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	return cmd, in, out
}
