package main

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/github"
)

// TestSecretPrints checks that secret prints a fresh 32-byte base64
// secret that gatehouse.New accepts outside Development mode.
func TestSecretPrints(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "secret")
	r.want(t, exitOK)
	secret := strings.TrimSuffix(r.stdout, "\n")
	raw, err := base64.StdEncoding.DecodeString(secret)
	if err != nil || len(raw) != 32 || strings.Contains(secret, "\n") {
		t.Fatalf("secret printed %q: want 32 bytes in base64 on one line (%d bytes, %v)", r.stdout, len(raw), err)
	}
	if again := runCLI(t, nil, "secret"); again.stdout == r.stdout {
		t.Errorf("two runs printed the same secret %q", r.stdout)
	}
	_, err = gatehouse.New(gatehouse.Config{
		Secret:    []string{secret},
		Providers: []providers.Provider{github.New(providers.OAuthUserConfig[github.Profile]{ClientID: "id", ClientSecret: "s"})},
	})
	if err != nil {
		t.Errorf("gatehouse.New refuses the printed secret: %v", err)
	}
}

// envSecret returns the value of the one AUTH_SECRET line of body.
func envSecret(t *testing.T, body string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^AUTH_SECRET=(.*)$`).FindAllStringSubmatch(body, -1)
	if len(m) != 1 {
		t.Fatalf("the env file has %d AUTH_SECRET lines, want 1:\n%s", len(m), body)
	}
	if raw, err := base64.StdEncoding.DecodeString(m[0][1]); err != nil || len(raw) != 32 {
		t.Fatalf("AUTH_SECRET=%q is not 32 bytes in base64", m[0][1])
	}
	return m[0][1]
}

func TestSecretWriteCreates(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), ".env")
	r := runCLI(t, nil, "secret", "-env-file", path)
	r.want(t, exitOK, "Created "+path+" (mode 0600)")
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	secret := envSecret(t, string(body))
	r.never(t, secret)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if m := info.Mode().Perm(); m != 0o600 {
		t.Errorf("new env file has mode %04o, want 0600", m)
	}
}

// writeEnvFile writes content to a .env file of the test's own, with the
// permission bits perm, and returns its path.
func writeEnvFile(t *testing.T, content string, perm os.FileMode) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".env")
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSecretWriteAppends(t *testing.T) {
	t.Parallel()
	// No final newline, and a variable whose name starts like ours.
	old := "DATABASE_URL=app.db\nAUTH_SECRET_OLD=x"
	path := writeEnvFile(t, old, 0o600)
	r := runCLI(t, nil, "secret", "-env-file", path)
	r.want(t, exitOK, "Added a new AUTH_SECRET to "+path)
	body, _ := os.ReadFile(path)
	secret := envSecret(t, string(body))
	r.never(t, secret)
	want := old + "\n# Added by `gatehouse secret`.\nAUTH_SECRET=" + secret + "\n"
	if string(body) != want {
		t.Errorf("env file is\n%q\nwant\n%q", body, want)
	}
}

// TestSecretKeepsExisting checks that a secret in use is never replaced
// without -force: replacing it ends every session.
func TestSecretKeepsExisting(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"AUTH_SECRET=oldSecret", "export AUTH_SECRET=oldSecret", "  AUTH_SECRET = oldSecret"} {
		old := "A=1\n" + line + "\nB=2\n"
		path := writeEnvFile(t, old, 0o600)
		r := runCLI(t, nil, "secret", "-env-file", path)
		r.want(t, exitOK, path+" already has an AUTH_SECRET; kept it. Use -force")
		r.never(t, "oldSecret")
		if body, _ := os.ReadFile(path); string(body) != old {
			t.Errorf("%q: the env file changed without -force:\n%s", line, body)
		}
	}
}

func TestSecretForceReplaces(t *testing.T) {
	t.Parallel()
	old := "A=1\nexport AUTH_SECRET=old1\nB=2\nAUTH_SECRET=old2\nAUTH_SECRET_1=keep"
	path := writeEnvFile(t, old, 0o640)
	r := runCLI(t, nil, "secret", "-write", "-env-file", path, "-force")
	r.want(t, exitOK, "Replaced AUTH_SECRET in "+path)
	body, _ := os.ReadFile(path)
	secret := envSecret(t, string(body))
	r.never(t, secret)
	if want := "A=1\nAUTH_SECRET=" + secret + "\nB=2\nAUTH_SECRET_1=keep"; string(body) != want {
		t.Errorf("env file is\n%q\nwant\n%q", body, want)
	}
	info, _ := os.Stat(path)
	if m := info.Mode().Perm(); m != 0o640 {
		t.Errorf("replaced env file has mode %04o, want the old 0640", m)
	}
	if !strings.Contains(r.stderr, "can be read by other users (mode 0640)") {
		t.Errorf("no warning about the group-readable env file: %q", r.stderr)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("the directory holds %d files after the replacement, want the env file alone", len(entries))
	}
}

func TestSecretUsage(t *testing.T) {
	t.Parallel()
	runCLI(t, nil, "secret", "-force").want(t, exitUsage)
	runCLI(t, nil, "secret", "extra").want(t, exitUsage)
}
