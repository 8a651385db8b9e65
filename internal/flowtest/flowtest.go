// Package flowtest holds what the tests of the sign-in flows give a flow
// as its host: recorders of what the flow asked the host to do (fail,
// throttle, finish a sign-in, render a page), to embed in a test's fake
// host, an Outbox for the messages it sends, and checks of the errors a
// flow returns.
package flowtest

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/pages"
)

// Failures records the failures a flow reports through Fail.
type Failures struct {
	Failed []*autherr.Error
}

// Fail records e and answers 400 Bad Request.
func (f *Failures) Fail(w http.ResponseWriter, _ *http.Request, e *autherr.Error) {
	f.Failed = append(f.Failed, e)
	w.WriteHeader(http.StatusBadRequest)
}

// LastFail returns the failure reported last, failing the test when
// there is none.
func (f *Failures) LastFail(t testing.TB) *autherr.Error {
	t.Helper()
	if len(f.Failed) == 0 {
		t.Fatal("no failure was reported")
	}
	return f.Failed[len(f.Failed)-1]
}

// Throttles records the waits a flow asks for through TooManyAttempts.
type Throttles struct {
	TooMany []time.Duration
}

// TooManyAttempts records wait and answers 429 Too Many Requests.
func (h *Throttles) TooManyAttempts(w http.ResponseWriter, _ *http.Request, _ string, wait time.Duration) {
	h.TooMany = append(h.TooMany, wait)
	w.WriteHeader(http.StatusTooManyRequests)
}

// Finishes records the sign-ins a flow finishes through FinishSignIn.
type Finishes struct {
	Finished []signin.Result
}

// FinishSignIn records res and succeeds, writing nothing.
func (h *Finishes) FinishSignIn(_ http.ResponseWriter, _ *http.Request, res signin.Result) error {
	h.Finished = append(h.Finished, res)
	return nil
}

// Rendered is a page a flow rendered, with its status.
type Rendered struct {
	Status int
	Page   any
}

// Pages records the pages a flow renders, and gives it the English
// messages the site would.
type Pages struct {
	Rendered []Rendered
}

// Render records page with status and writes the status.
func (h *Pages) Render(w http.ResponseWriter, _ *http.Request, status int, page any) {
	h.Rendered = append(h.Rendered, Rendered{status, page})
	w.WriteHeader(status)
}

// Text is the English message of key, as the site renders it.
func (h *Pages) Text(_ *http.Request, key string, args ...any) string {
	return pages.Text("en", key, args...)
}

// AsAuthErr returns err as the *autherr.Error it is, failing the test
// when it is not one.
func AsAuthErr(t testing.TB, err error) *autherr.Error {
	t.Helper()
	var e *autherr.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not an *autherr.Error", err)
	}
	return e
}

// Outbox keeps the messages of type M that a flow sends through Send,
// safe for concurrent use.
type Outbox[M any] struct {
	mu   sync.Mutex
	sent []M
}

// Send keeps m and succeeds.
func (o *Outbox[M]) Send(_ context.Context, m M) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent = append(o.sent, m)
	return nil
}

// Take returns the messages kept, and forgets them.
func (o *Outbox[M]) Take() []M {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := o.sent
	o.sent = nil
	return out
}
