// Package logclip cuts what reaches the log: every string value, error
// text and message of a record to MaxValue bytes, so that values from a
// request or a provider cannot fill the log or smuggle a payload into it.
package logclip

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"reflect"
	"strings"
	"unicode/utf8"
)

// MaxValue is the longest attribute value a log line carries whole.
// Values that come from a request (a provider id in the path, a query
// value, a user agent, a provider's error text) can be as long as the
// request allows: cut, they cannot fill the log or smuggle a long
// payload into it.
const MaxValue = 300

// Handler wraps the configured logger's handler and cuts every string
// value, error text and message of a record to MaxValue bytes, with a
// marker saying how long it was. Control characters are the handler's to
// escape (slog's text and JSON handlers quote them).
type Handler struct{ slog.Handler }

// Handle cuts r's message and attributes, then passes the record on.
func (h Handler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, clip(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(clipAttr(a))
		return true
	})
	return h.Handler.Handle(ctx, out)
}

// WithAttrs cuts as, and keeps the result clipping.
func (h Handler) WithAttrs(as []slog.Attr) slog.Handler {
	cut := make([]slog.Attr, len(as))
	for i, a := range as {
		cut[i] = clipAttr(a)
	}
	return Handler{h.Handler.WithAttrs(cut)}
}

// WithGroup keeps the result clipping.
func (h Handler) WithGroup(name string) slog.Handler {
	return Handler{h.Handler.WithGroup(name)}
}

func clipAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, clip(v.String()))
	case slog.KindGroup:
		g := v.Group()
		cut := make([]any, len(g))
		for i, x := range g {
			cut[i] = clipAttr(x)
		}
		return slog.Group(a.Key, cut...)
	case slog.KindAny:
		if rv := reflect.ValueOf(v.Any()); rv.Kind() == reflect.Pointer && rv.IsNil() {
			return slog.String(a.Key, "<nil>") // a typed nil error or Stringer: as slog prints it, never a panic
		}
		switch x := v.Any().(type) {
		case error:
			return slog.String(a.Key, clip(x.Error()))
		case fmt.Stringer:
			return slog.String(a.Key, clip(x.String()))
		case []byte:
			return slog.String(a.Key, clip(string(x)))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

// clip returns s, or its first MaxValue bytes (whole characters) and
// the length it had.
func clip(s string) string {
	if len(s) <= MaxValue {
		return s
	}
	n := MaxValue
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s…(%d bytes)", s[:n], len(s))
}

// Wrap returns l with its handler wrapped in a Handler (once: a logger
// already clipping is returned as it is).
func Wrap(l *slog.Logger) *slog.Logger {
	if _, clipped := l.Handler().(Handler); clipped {
		return l
	}
	return slog.New(Handler{l.Handler()})
}

// Scrub returns err with each secret of pairs (secret, label, secret,
// label, …) replaced by its label in its text, as written and
// query-escaped: a mail sender's error may repeat the link, the token or
// the address it was given, none of which may reach the log. Empty
// secrets are skipped; a nil err stays nil. Put a secret that contains
// another (a link holding its token) first.
func Scrub(err error, pairs ...string) error {
	if err == nil {
		return nil
	}
	var old []string
	for i := 0; i+1 < len(pairs); i += 2 {
		if s := pairs[i]; s != "" {
			old = append(old, s, pairs[i+1])
			if q := url.QueryEscape(s); q != s {
				old = append(old, q, pairs[i+1])
			}
		}
	}
	return errors.New(strings.NewReplacer(old...).Replace(err.Error()))
}
