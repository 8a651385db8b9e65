package logclip

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"testing"
)

type nilErr struct{}

func (*nilErr) Error() string { panic("called on nil") }

// TestClipHandlerTypedNil: a typed nil error logged through the clipping
// handler prints as <nil>, as slog's own handlers do, and does not panic.
// Failed before: clipAttr called Error on it.
func TestClipHandlerTypedNil(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(Handler{slog.NewTextHandler(&buf, nil)})
	var e *nilErr
	l.Error("x", "err", error(e), "long", strings.Repeat("a", 400), "plain", errors.New("short"))
	out := buf.String()
	if !strings.Contains(out, "err=<nil>") || !strings.Contains(out, "…(400 bytes)") || !strings.Contains(out, "plain=short") {
		t.Fatalf("log: %s", out)
	}
}

// TestScrub: a sender's error that repeats the link, the token or the
// address keeps none of them, as written or query-escaped.
func TestScrub(t *testing.T) {
	const token, addr = "tok+en/1", "ada@example.com"
	link := "https://app.test/auth/x?" + url.Values{"token": {token}, "email": {addr}}.Encode()
	err := fmt.Errorf("smtp: 550 rejected %s for %s (token %s, %s)", link, addr, token, url.QueryEscape(addr))
	got := Scrub(err, link, "[link]", token, "[token]", addr, "[email]").Error()
	for _, secret := range []string{token, url.QueryEscape(token), addr, url.QueryEscape(addr), "app.test/auth/x"} {
		if strings.Contains(got, secret) {
			t.Errorf("%q is left in %q", secret, got)
		}
	}
	if want := "smtp: 550 rejected [link] for [email] (token [token], [email])"; got != want {
		t.Errorf("Scrub = %q, want %q", got, want)
	}
	if Scrub(nil, token, "[token]") != nil {
		t.Error("Scrub(nil) is not nil")
	}
}
