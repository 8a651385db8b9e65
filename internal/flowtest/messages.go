package flowtest

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/catalog"
	"github.com/gatehouse-auth/gatehouse/pages"
)

// MessagesComplete checks a feature's catalogue: its German has exactly
// the English keys, each with the same fmt verbs (catalog.Check).
func MessagesComplete(t *testing.T, english, german map[string]string) {
	t.Helper()
	for _, p := range catalog.Check(english, german) {
		t.Error(p)
	}
}

// freshProcess names the environment variable that tells a test binary
// started by AddsMessages which test it runs.
const freshProcess = "GATEHOUSE_FLOWTEST_FRESH"

// AddsMessages checks that configure, what turns a feature on (its
// constructor or route builder), adds the feature's messages to the
// pages' catalogue before any page is shown: each of keys has no message
// before configure runs, and an English and a German one after. The catalogue
// is the process's and keeps what was added, so the check runs in a new
// process of the test binary that runs the calling test alone, from the
// core catalogue. The caller is a top-level test that does nothing else.
func AddsMessages(t *testing.T, configure func(), keys ...string) {
	t.Helper()
	if os.Getenv(freshProcess) != t.Name() {
		cmd := exec.Command(os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), freshProcess+"="+t.Name())
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
			t.Fatalf("%s in a new process: %v\n%s", t.Name(), err, out)
		}
		return
	}
	for _, key := range keys {
		if got := pages.Text("de", key); got != key {
			t.Fatalf("%s has a message before the feature is configured: %q", key, got)
		}
	}
	configure()
	for _, key := range keys {
		en, de := pages.Text("en", key), pages.Text("de", key)
		if en == key || de == key || en == de {
			t.Errorf("after configuring, %s is %q in English and %q in German", key, en, de)
		}
	}
}
