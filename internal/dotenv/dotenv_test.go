package dotenv

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	in := "\uFEFF# Added by `gatehouse secret`.\r\n" +
		"AUTH_SECRET=abc+/=\r\n" +
		"\n" +
		"   # indented comment\n" +
		"export DATABASE_URL=postgres://u:p@h/db?sslmode=disable\n" +
		"  SPACED = value with spaces   \n" +
		"COMMENTED=value # a comment\n" +
		"HASH=a#b\n" +
		"SINGLE='it is $HOME \\n # kept'\n" +
		"DOUBLE=\"line\\nnext \\\"q\\\" \\\\ \\$x\" # comment\n" +
		"EMPTY=\n" +
		"EMPTY_QUOTED=''\n" +
		"export=1\n" +
		"DUP=first\n" +
		"DUP=last\n" +
		"_x9=ok"
	got, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"AUTH_SECRET":  "abc+/=",
		"DATABASE_URL": "postgres://u:p@h/db?sslmode=disable",
		"SPACED":       "value with spaces",
		"COMMENTED":    "value",
		"HASH":         "a#b",
		"SINGLE":       `it is $HOME \n # kept`,
		"DOUBLE":       "line\nnext \"q\" \\ $x",
		"EMPTY":        "",
		"EMPTY_QUOTED": "",
		"export":       "1",
		"DUP":          "last",
		"_x9":          "ok",
	}
	if len(got) != len(want) {
		t.Errorf("got %d settings, want %d: %q", len(got), len(want), got)
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s = %q (set %v), want %q", k, g, ok, v)
		}
	}
}

// TestParseRefuses checks that each malformed line is refused with its
// line number, and that the message never shows the value.
func TestParseRefuses(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3tVALUE"
	for _, line := range []string{
		"JUST_A_NAME",
		"=" + secret,
		"9LIVES=" + secret,
		"BAD-NAME=" + secret,
		"KEY: " + secret,
		"KEY='" + secret,
		`KEY="` + secret,
		`KEY="` + secret + `"trailing`,
		`KEY='` + secret + `' more`,
		`KEY="\q` + secret + `"`,
		"KEY=" + secret + "\x00",
		"export " + secret,
	} {
		_, err := Parse(strings.NewReader("OK=1\n# comment\n" + line + "\nLATER=2\n"))
		var e *Error
		if !errors.As(err, &e) || e.Line != 3 {
			t.Errorf("%q: error %v, want one for line 3", line, err)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("%q: the error shows the value: %v", line, err)
		}
	}
}

func TestParseLongLine(t *testing.T) {
	t.Parallel()
	_, err := Parse(strings.NewReader("A=1\nB=" + strings.Repeat("x", maxLine+1) + "\n"))
	var e *Error
	if !errors.As(err, &e) || e.Line != 2 {
		t.Errorf("error %v, want one for line 2", err)
	}
}

func TestGetenv(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, ".env")
	if err := os.WriteFile(path, []byte("A=file\nB=file\nC=file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	real := map[string]string{"A": "real", "C": ""}
	get, err := Getenv(func(k string) string { return real[k] }, path, false)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"A": "real", "B": "file", "C": "file", "D": ""} {
		if got := get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}

	missing := filepath.Join(dir, "missing.env")
	if _, err := Getenv(get, missing, false); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a required missing file: error %v, want fs.ErrNotExist", err)
	}
	if g, err := Getenv(func(k string) string { return real[k] }, missing, true); err != nil || g("A") != "real" {
		t.Errorf("an optional missing file: error %v, A=%q", err, g("A"))
	}

	bad := filepath.Join(dir, "bad.env")
	if err := os.WriteFile(bad, []byte("A=1\nnot a line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Getenv(get, bad, true)
	if err == nil || err.Error() != bad+":2: expected NAME=value: no = after the name" {
		t.Errorf("a malformed file: error %v, want it to name the file and line 2", err)
	}
}
