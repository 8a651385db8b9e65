package plugin_test

import (
	"debug/buildinfo"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// heavy are the modules that only what plugs in from its own package
// needs: passkeys (go-webauthn and what it brings), e-mail (the SMTP
// client), two-factor sign-in (TOTP, QR codes, sealed pending state).
var heavy = []string{
	"github.com/go-webauthn/webauthn",
	"github.com/go-webauthn/x",
	"github.com/google/go-tpm",
	"github.com/fxamacker/cbor/v2",
	"github.com/tinylib/msgp",
	"github.com/wneessen/go-mail",
	"github.com/pquerna/otp",
	"github.com/boombuler/barcode",
	"github.com/gorilla/securecookie",
}

// maxStripped bounds the GitHub-only site's binary built without symbols
// and debug information (-ldflags=-s -w), as it is shipped.
const maxStripped = 13_000_000

// TestPayForWhatYouUse builds a site that configures GitHub alone
// (testdata/githubonly) and reads what it links: none of the modules
// that only passkeys and e-mail need, and a binary under maxStripped.
// It fails if the root package imports a provider kind's package again.
func TestPayForWhatYouUse(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	build := func(name string, flags ...string) string {
		t.Helper()
		out := filepath.Join(dir, name)
		args := append(append([]string{"build", "-o", out}, flags...), "github.com/gatehouse-auth/gatehouse/testdata/githubonly")
		cmd := exec.Command(gobin, args...)
		cmd.Dir = filepath.Join("..", "..")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, b)
		}
		return out
	}
	plain := build("githubonly")
	info, err := buildinfo.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, d := range info.Deps {
		linked[d.Path] = true
	}
	if !linked["github.com/go-jose/go-jose/v4"] {
		t.Fatalf("the build info lists no go-jose: %v", info.Deps)
	}
	for _, m := range heavy {
		if linked[m] {
			t.Errorf("a GitHub-only site links %s", m)
		}
	}
	stripped := build("githubonly-stripped", "-ldflags=-s -w")
	for _, f := range []string{plain, stripped} {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %.1f MB", filepath.Base(f), float64(fi.Size())/1e6)
		if f == stripped && fi.Size() > maxStripped {
			t.Errorf("the GitHub-only site's stripped binary is %d bytes, over %d", fi.Size(), maxStripped)
		}
	}
}
