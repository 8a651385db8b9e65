package passwordaccount

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/password"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// fakeHost records what the flow asks of the handler. user is the
// signed-in user's id; refuse makes CheckPost fail.
type fakeHost struct {
	user      string
	refuse    bool
	signedOut int
	endOthers []string
	ended     int // what EndOthers returns
}

func (*fakeHost) CSRFToken(http.ResponseWriter, *http.Request) string { return "token" }

func (h *fakeHost) CheckPost(r *http.Request, step string) (url.Values, *autherr.Error) {
	if h.refuse {
		return nil, autherr.New(autherr.MissingCSRF, "csrf", "", step, errors.New("refused"))
	}
	if err := r.ParseForm(); err != nil {
		return nil, autherr.New(autherr.MissingCSRF, "form", "", step, err)
	}
	return r.PostForm, nil
}

func (*fakeHost) Fail(w http.ResponseWriter, _ *http.Request, _ *autherr.Error) {
	w.WriteHeader(http.StatusBadRequest)
}

func (*fakeHost) Render(w http.ResponseWriter, _ *http.Request, status int, _ any) {
	w.WriteHeader(status)
}
func (*fakeHost) Lang(r *http.Request) pages.Language { return pages.RequestLanguage(r) }

func (*fakeHost) Text(_ *http.Request, key string, args ...any) string {
	return pages.Text("en", key, args...)
}

func (*fakeHost) URL(_ *http.Request, parts ...string) string {
	return "https://app.test/auth/" + strings.Join(parts, "/")
}

func (*fakeHost) Origin(*http.Request) string { return "https://app.test" }

func (*fakeHost) CallbackURL(_ *http.Request, raw string) string { return raw }

func (h *fakeHost) CurrentUserID(context.Context, *http.Request) (string, error) { return h.user, nil }

func (*fakeHost) FinishSignIn(http.ResponseWriter, *http.Request, signin.Result) error { return nil }

func (*fakeHost) CSRFOK(_ *http.Request, submitted string) bool { return submitted == "token" }

func (*fakeHost) KeepTyped(http.ResponseWriter, *http.Request, string, string, string) {}

func (*fakeHost) RateLimited(http.ResponseWriter, *http.Request, string) bool { return false }

func (*fakeHost) TooManyAttempts(w http.ResponseWriter, _ *http.Request, _ string, _ time.Duration) {
	w.WriteHeader(http.StatusTooManyRequests)
}

func (h *fakeHost) SignOutHere(http.ResponseWriter, *http.Request) { h.signedOut++ }

func (h *fakeHost) EndOthers(_ context.Context, _ *http.Request, userID string) (int, error) {
	h.endOthers = append(h.endOthers, userID)
	return h.ended, nil
}

// flowFixture is a flow over a memory store, with a signed-up, verified user.
type flowFixture struct {
	flow *flow
	host *fakeHost
	svc  *Service
	sent chan Message // the Service's messages
	user profile.User
	saw  map[string]int // events told, on the request's goroutine
}

func newFlowFixture(t *testing.T) *flowFixture {
	t.Helper()
	hasher, err := password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 0)
	if err != nil {
		t.Fatal(err)
	}
	fx := &flowFixture{host: &fakeHost{}, sent: make(chan Message, 8), saw: map[string]int{}}
	send := func(_ context.Context, m Message) error { fx.sent <- m; return nil }
	c, err := Config{Hasher: hasher, Send: send, AllowUnverified: true}.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	fx.svc, err = NewService(c, memory.New(), Options{Secrets: []string{"a secret of thirty-two bytes or more!"}})
	if err != nil {
		t.Fatal(err)
	}
	told := func(name string) func(context.Context, profile.User) {
		return func(context.Context, profile.User) { fx.saw[name]++ }
	}
	fx.flow = newFlow(fx.svc, flowConfig{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Events: flowEvents{
		PasswordReset: told("reset"), PasswordChange: told("change"),
		RevokeSessions: func(_ context.Context, _ profile.User, n int) { fx.saw["revoke"] += n },
	}}, fx.host)
	ctx := context.Background()
	if err := fx.svc.SignUp(ctx, "ada@example.com", "correct horse battery", "Ada", Links{}); err != nil {
		t.Fatal(err)
	}
	fx.take() // the sign-up is stored in the background, as its mail is sent
	if fx.user, err = fx.svc.SignIn(ctx, "ada@example.com", "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	return fx
}

// take waits for the Service's mails and returns them.
func (fx *flowFixture) take() []Message {
	fx.svc.Wait()
	var out []Message
	for len(fx.sent) > 0 {
		out = append(out, <-fx.sent)
	}
	return out
}

// post sends a JSON client's POST to {base}/password/{action}.
func (fx *flowFixture) post(action string, form url.Values) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "https://app.test/auth/password/"+action, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	fx.flow.Route(w, r)
	return w
}

func TestActions(t *testing.T) {
	got := strings.Join(actions(), " ")
	if got != "sign-up verify forgot reset change" {
		t.Fatalf("actions() = %q", got)
	}
}

// A POST the Host refuses (cross-site, no CSRF token) changes nothing.
func TestRefusedPost(t *testing.T) {
	fx := newFlowFixture(t)
	fx.host.refuse = true
	for _, action := range []string{"sign-up", "forgot", "reset", "change"} {
		w := fx.post(action, url.Values{"email": {"ada@example.com"}})
		if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "MissingCSRF") {
			t.Errorf("%s: %d %s, want 403 MissingCSRF", action, w.Code, w.Body)
		}
	}
	if sent := fx.take(); len(sent) != 0 {
		t.Errorf("sent %d messages after refused POSTs", len(sent))
	}
}

// Forgot answers the same for a known and an unknown address.
func TestForgotSameAnswer(t *testing.T) {
	fx := newFlowFixture(t)
	known := fx.post("forgot", url.Values{"email": {"ada@example.com"}})
	unknown := fx.post("forgot", url.Values{"email": {"nobody@example.com"}})
	if known.Code != http.StatusOK || known.Code != unknown.Code || known.Body.String() != unknown.Body.String() {
		t.Fatalf("known %d %s, unknown %d %s", known.Code, known.Body, unknown.Code, unknown.Body)
	}
	if sent := fx.take(); len(sent) != 1 || sent[0].To != "ada@example.com" {
		t.Fatalf("sent %+v, want one reset link to the known address", sent)
	}
}

// A reset signs this browser out and tells the events.
func TestResetSignsOut(t *testing.T) {
	fx := newFlowFixture(t)
	fx.post("forgot", url.Values{"email": {"ada@example.com"}})
	sent := fx.take()
	if len(sent) != 1 {
		t.Fatalf("sent %d messages, want 1", len(sent))
	}
	link, err := url.Parse(sent[0].URL)
	if err != nil {
		t.Fatal(err)
	}
	w := fx.post("reset", url.Values{"email": {"ada@example.com"}, "token": {link.Query().Get("token")}, "password": {"a brand new password"}})
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "password_reset") {
		t.Fatalf("reset: %d %s", w.Code, w.Body)
	}
	if fx.host.signedOut != 1 || fx.saw["reset"] != 1 {
		t.Fatalf("signed out %d times, reset told %d times; want 1 and 1", fx.host.signedOut, fx.saw["reset"])
	}
}

// A change ends the user's other sessions and tells the events; a wrong
// current password changes nothing.
func TestChangeEndsOthers(t *testing.T) {
	fx := newFlowFixture(t)
	fx.host.user, fx.host.ended = fx.user.ID, 2
	w := fx.post("change", url.Values{"currentPassword": {"wrong guess here"}, "newPassword": {"a brand new password"}})
	if w.Code != http.StatusBadRequest || len(fx.host.endOthers) != 0 || fx.saw["change"] != 0 {
		t.Fatalf("wrong password: %d %s, ended others %v", w.Code, w.Body, fx.host.endOthers)
	}
	w = fx.post("change", url.Values{"currentPassword": {"correct horse battery"}, "newPassword": {"a brand new password"}})
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "password_changed") {
		t.Fatalf("change: %d %s", w.Code, w.Body)
	}
	if len(fx.host.endOthers) != 1 || fx.host.endOthers[0] != fx.user.ID || fx.saw["change"] != 1 || fx.saw["revoke"] != 2 {
		t.Fatalf("ended others %v, events %v", fx.host.endOthers, fx.saw)
	}
}

// Nobody signed in: the change form and its POST answer 401.
func TestChangeNeedsSignIn(t *testing.T) {
	fx := newFlowFixture(t)
	if w := fx.post("change", url.Values{"currentPassword": {"correct horse battery"}, "newPassword": {"a brand new password"}}); w.Code != http.StatusUnauthorized {
		t.Fatalf("POST: %d %s, want 401", w.Code, w.Body)
	}
	w := httptest.NewRecorder()
	fx.flow.Route(w, httptest.NewRequest(http.MethodGet, "https://app.test/auth/password/change", nil))
	if w.Code != http.StatusUnauthorized {
		t.Fatalf("GET: %d %s, want 401", w.Code, w.Body)
	}
}

// Guesses of the current password from many addresses (a stolen session
// cookie used through a botnet) meet the per-user ceiling, as sign-in
// guesses do; a refused change reaches no password check.
func TestChangeGuessesLimitedPerUser(t *testing.T) {
	fx := newFlowFixture(t)
	fx.host.user = fx.user.ID
	fx.flow.cfg.PerIdentifier = limit.NewMemory(3, time.Minute)
	fx.flow.cfg.ClientIP = func(r *http.Request) string { return r.RemoteAddr }
	for i := range 4 {
		r := httptest.NewRequest(http.MethodPost, "https://app.test/auth/password/change",
			strings.NewReader(url.Values{"currentPassword": {"wrong guess here"}, "newPassword": {"a brand new password"}}.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.RemoteAddr = fmt.Sprintf("192.0.2.%d:1234", i+1) // a new address each time
		w := httptest.NewRecorder()
		fx.flow.Route(w, r)
		want := http.StatusBadRequest
		if i == 3 {
			want = http.StatusTooManyRequests
		}
		if w.Code != want {
			t.Fatalf("guess %d from a new address: %d %s, want %d", i+1, w.Code, w.Body, want)
		}
	}
}

// TestMessageLanguage: the reset link is sent in the language of the
// request's pages (the Host's Lang).
func TestMessageLanguage(t *testing.T) {
	fx := newFlowFixture(t)
	r := httptest.NewRequest(http.MethodPost, "https://app.test/auth/password/forgot", strings.NewReader("email=ada%40example.com"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Accept-Language", "de")
	fx.flow.Route(httptest.NewRecorder(), r)
	sent := fx.take()
	if len(sent) != 1 || sent[0].Language != "de" {
		t.Fatalf("sent %+v, want one message in German", sent)
	}
	if m, err := sent[0].Content(); err != nil || m.Subject != "Passwort zurücksetzen bei app.test" {
		t.Fatalf("subject %q, %v", m.Subject, err)
	}
}
