package main

import (
	"bytes"
	"strings"
	"testing"
)

// result is what one run of the command gave.
type result struct {
	code           int
	stdout, stderr string
}

// runCLI runs the command in-process with args and an environment
// made of vars alone.
func runCLI(t *testing.T, vars map[string]string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), args, func(k string) string { return vars[k] }, &stdout, &stderr)
	return result{code, stdout.String(), stderr.String()}
}

// want fails the test unless r has exit code code and its stdout holds
// every string of out.
func (r result) want(t *testing.T, code int, out ...string) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
	for _, s := range out {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("stdout lacks %q:\n%s\nstderr:\n%s", s, r.stdout, r.stderr)
		}
	}
}

// never fails the test if r's output shows any of secrets.
func (r result) never(t *testing.T, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(r.stdout, s) || strings.Contains(r.stderr, s) {
			t.Errorf("the output shows the secret %q:\n%s\n%s", s, r.stdout, r.stderr)
		}
	}
}

func TestUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		code int
		in   string // where the text must appear: "stdout" or "stderr"
		text string
	}{
		{nil, exitUsage, "stderr", "Usage: gatehouse <command>"},
		{[]string{"help"}, exitOK, "stdout", "Exit status: 0 done, 1 failed or a problem found, 2 usage error."},
		{[]string{"-h"}, exitOK, "stdout", "migrate"},
		{[]string{"frobnicate"}, exitUsage, "stderr", `unknown command "frobnicate"`},
		{[]string{"secret", "-h"}, exitOK, "stderr", "-env-file"},
		{[]string{"migrate", "-h"}, exitOK, "stderr", "-database-url"},
		{[]string{"providers", "-h"}, exitOK, "stderr", "AUTH_REDIRECT_PROXY_URL"},
		{[]string{"check", "-h"}, exitOK, "stderr", "-timeout"},
		{[]string{"secret", "-h"}, exitOK, "stderr", "Exit status: 0 done, 1 failed or a problem found, 2 usage error."},
		{[]string{"check", "-no-such-flag"}, exitUsage, "stderr", "flag provided but not defined"},
		{[]string{"check", "extra"}, exitUsage, "stderr", `unexpected argument "extra"`},
		{[]string{"check", "-timeout", "0s"}, exitUsage, "stderr", "-timeout must be positive"},
	} {
		r := runCLI(t, nil, tc.args...)
		out := r.stdout
		if tc.in == "stderr" {
			out = r.stderr
		}
		if r.code != tc.code || !strings.Contains(out, tc.text) {
			t.Errorf("gatehouse %q: exit %d, %s %q; want exit %d and %q", tc.args, r.code, tc.in, out, tc.code, tc.text)
		}
	}
}
