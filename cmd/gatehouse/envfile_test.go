package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/authtest"
)

// TestEnvFileAfterSecretWrite follows the advice check gives: in a
// directory without settings check finds no secret, `secret -write` adds
// one to .env, and check then reads it from there.
func TestEnvFileAfterSecretWrite(t *testing.T) {
	t.Chdir(t.TempDir()) // not parallel: it changes the working directory
	vars := map[string]string{"AUTH_GITHUB_ID": "gh-id", "AUTH_GITHUB_SECRET": githubSecret}
	r := runCLI(t, vars, "check")
	r.want(t, exitProblem, "FAIL  AUTH_SECRET is not set (gatehouse secret -write adds one to .env)")

	runCLI(t, nil, "secret", "-write").want(t, exitOK, "Created .env (mode 0600)")
	body, err := os.ReadFile(".env")
	if err != nil {
		t.Fatal(err)
	}
	secret := envSecret(t, string(body))

	r = runCLI(t, vars, "check")
	r.want(t, exitOK, "settings\n  (from the environment, then .env)\n", "ok    AUTH_SECRET: 1 secret(s) of at least 32 bytes")
	r.never(t, secret)

	// Again: the secret is kept, and that is not a failure.
	runCLI(t, nil, "secret", "-write").want(t, exitOK, ".env already has an AUTH_SECRET; kept it.")
	if again, _ := os.ReadFile(".env"); string(again) != string(body) {
		t.Errorf("a second secret -write changed .env:\n%s", again)
	}
}

// TestEnvFileEnvironmentWins checks that a variable set in the
// environment wins over the env file, and that the file fills in the rest.
func TestEnvFileEnvironmentWins(t *testing.T) {
	t.Parallel()
	op := authtest.NewServer(authtest.Options{Issuer: "/realms/app"})
	defer op.Close()
	vars := checkEnv(op)
	path := writeEnvFile(t, "# from the file\n"+
		"export AUTH_SECRET='short'\n"+ // the environment's secret wins
		"AUTH_URL=https://file.example.com/auth\n"+ // so does its URL
		"AUTH_GITHUB_SECRET=\"from-the-file\"\n", 0o600)
	delete(vars, "AUTH_GITHUB_SECRET")
	r := runCLI(t, vars, "check", "-env-file", path)
	r.want(t, exitOK,
		"ok    AUTH_SECRET: 1 secret(s) of at least 32 bytes",
		"ok    client secret: AUTH_GITHUB_SECRET is set",
		"redirect URI to register: https://app.example.com/api/auth/callback/github")
	r.never(t, testSecret, "from-the-file")

	// providers reads it too.
	p := writeEnvFile(t, "AUTH_URL=https://file.example.com/base\n", 0o600)
	runCLI(t, nil, "providers", "-env-file", p, "github").want(t, exitOK, "https://file.example.com/base/callback/github")
	runCLI(t, map[string]string{"AUTH_URL": "https://env.example.com"}, "providers", "-env-file", p, "github").
		want(t, exitOK, "https://env.example.com/auth/callback/github")
}

// TestEnvFileMigrate checks that migrate takes DATABASE_URL from the env
// file when the environment has none.
func TestEnvFileMigrate(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "app.db")
	path := writeEnvFile(t, "DATABASE_URL="+db+"\n", 0o600)
	r := runCLI(t, nil, "migrate", "-env-file", path)
	r.want(t, exitOK, "migration(s) applied")
	wantApplied(t, r, migrationNames(t, "sqlite"))
	if _, err := os.Stat(db); err != nil {
		t.Errorf("no database at the env file's DATABASE_URL: %v", err)
	}
}

// TestEnvFileRefused checks that a malformed env file, or a missing one
// named with -env-file, stops the command with a usage error that names
// the line and never shows a value.
func TestEnvFileRefused(t *testing.T) {
	t.Parallel()
	const value = "hunter2-secret-value"
	bad := writeEnvFile(t, "A=1\n\nAUTH_SECRET='"+value+"\n", 0o600)
	missing := filepath.Join(t.TempDir(), "nothing.env")
	for _, cmd := range []string{"check", "providers", "migrate"} {
		r := runCLI(t, nil, cmd, "-env-file", bad)
		r.want(t, exitUsage)
		if want := bad + ":3: AUTH_SECRET: the single quote does not close on this line"; !strings.Contains(r.stderr, want) {
			t.Errorf("%s: stderr %q lacks %q", cmd, r.stderr, want)
		}
		r.never(t, value)

		r = runCLI(t, nil, cmd, "-env-file", missing)
		r.want(t, exitUsage)
		if !strings.Contains(r.stderr, "no such file") {
			t.Errorf("%s -env-file %s: stderr %q does not say it is missing", cmd, missing, r.stderr)
		}
	}
}
