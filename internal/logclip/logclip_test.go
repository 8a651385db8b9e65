package logclip

import (
	"bytes"
	"errors"
	"log/slog"
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
