package nodetest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestNeedSkips: a module that is not installed skips the test.
func TestNeedSkips(t *testing.T) {
	if os.Getenv("CI") != "" {
		t.Skip("with CI set, Need fails the test instead")
	}
	skipped := false
	t.Run("missing", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Need(t, "nodetest", t.TempDir(), "no-such-module", "nothing")
	})
	if !skipped {
		t.Error("Need did not skip without the module")
	}
}

// TestStart: the program started in dir reads the input Start returns
// and writes to the output it returns.
func TestStart(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "echo.mjs"), []byte("process.stdin.pipe(process.stdout);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, in, out := Start(t, dir, "echo.mjs", os.Stderr)
	if _, err := in.Write([]byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "hello\n" {
		t.Errorf("node answered %q, %v", line, err)
	}
}
