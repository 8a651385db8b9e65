package flowtest_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// fatalTB is a testing.TB whose Fatal and Fatalf record the message and
// end the goroutine, as testing's do, without failing the test.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatal(args ...any) { f.msg = fmt.Sprint(args...); runtime.Goexit() }

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// fatal runs do with a fatalTB in a goroutine of its own and returns the
// message it failed with, "" when it did not.
func fatal(t *testing.T, do func(tb testing.TB)) string {
	tb := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		do(tb)
	}()
	<-done
	return tb.msg
}

func request() (*httptest.ResponseRecorder, *http.Request) {
	return httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil)
}

func TestFailures(t *testing.T) {
	var f flowtest.Failures
	if msg := fatal(t, func(tb testing.TB) { f.LastFail(tb) }); msg == "" {
		t.Error("LastFail with no failure did not fail the test")
	}
	first := autherr.New(autherr.AccessDenied, "first", "github", "callback", nil)
	second := autherr.New(autherr.Verification, "second", "", "", nil)
	for _, e := range []*autherr.Error{first, second} {
		w, r := request()
		f.Fail(w, r, e)
		if w.Code != http.StatusBadRequest {
			t.Errorf("Fail answered %d, want 400", w.Code)
		}
	}
	if got := f.LastFail(t); got != second {
		t.Errorf("LastFail = %v, want %v", got, second)
	}
	if !slices.Equal(f.Failed, []*autherr.Error{first, second}) {
		t.Errorf("Failed = %v", f.Failed)
	}
}

func TestThrottles(t *testing.T) {
	var h flowtest.Throttles
	for _, wait := range []time.Duration{time.Second, time.Minute} {
		w, r := request()
		h.TooManyAttempts(w, r, "key", wait)
		if w.Code != http.StatusTooManyRequests {
			t.Errorf("TooManyAttempts answered %d, want 429", w.Code)
		}
	}
	if !slices.Equal(h.TooMany, []time.Duration{time.Second, time.Minute}) {
		t.Errorf("TooMany = %v", h.TooMany)
	}
}

func TestFinishes(t *testing.T) {
	var h flowtest.Finishes
	w, r := request()
	res := signin.Result{User: profile.User{ID: "u1"}, CallbackURL: "/next"}
	if err := h.FinishSignIn(w, r, res); err != nil {
		t.Fatal(err)
	}
	if len(h.Finished) != 1 || h.Finished[0].User.ID != "u1" || h.Finished[0].CallbackURL != "/next" {
		t.Errorf("Finished = %+v", h.Finished)
	}
	if w.Body.Len() != 0 || w.Code != http.StatusOK {
		t.Errorf("FinishSignIn wrote %d %q; want nothing", w.Code, w.Body)
	}
}

func TestPages(t *testing.T) {
	var h flowtest.Pages
	w, r := request()
	h.Render(w, r, http.StatusForbidden, "page")
	if w.Code != http.StatusForbidden || !slices.Equal(h.Rendered, []flowtest.Rendered{{http.StatusForbidden, "page"}}) {
		t.Errorf("Render: status %d, Rendered %+v", w.Code, h.Rendered)
	}
	if got, want := h.Text(r, "signin.with", "GitHub"), pages.Text("en", "signin.with", "GitHub"); got != want || !strings.Contains(got, "GitHub") || got == "signin.with" {
		t.Errorf("Text = %q, want the English %q", got, want)
	}
}

func TestAsAuthErr(t *testing.T) {
	e := autherr.New(autherr.AccessDenied, "code", "", "", nil)
	if got := flowtest.AsAuthErr(t, fmt.Errorf("wrapped: %w", e)); got != e {
		t.Errorf("AsAuthErr = %v, want %v", got, e)
	}
	if msg := fatal(t, func(tb testing.TB) { flowtest.AsAuthErr(tb, errors.New("plain")) }); !strings.Contains(msg, "plain") {
		t.Errorf("AsAuthErr of a plain error failed with %q; want a failure naming it", msg)
	}
}

// TestOutbox: messages sent at once are all kept, once; Take forgets
// them. Run with -race.
func TestOutbox(t *testing.T) {
	var o flowtest.Outbox[int]
	const senders, each = 8, 100
	var wg sync.WaitGroup
	var taken []int
	var mu sync.Mutex
	for s := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := o.Send(t.Context(), s*each+i); err != nil {
					t.Error(err)
				}
				if i%10 == 0 {
					got := o.Take()
					mu.Lock()
					taken = append(taken, got...)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	taken = append(taken, o.Take()...)
	slices.Sort(taken)
	if len(taken) != senders*each {
		t.Fatalf("%d messages taken, want %d", len(taken), senders*each)
	}
	for i, m := range taken {
		if m != i {
			t.Fatalf("message %d is %d: lost or repeated", i, m)
		}
	}
	if got := o.Take(); len(got) != 0 {
		t.Errorf("Take after Take = %v, want nothing", got)
	}
}
