package otelgatehouse_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/admin"
	"github.com/gatehouse-auth/gatehouse/apikey"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/otelgatehouse"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// telemetry is an in-memory meter and tracer provider.
type telemetry struct {
	reader *sdkmetric.ManualReader
	spans  *tracetest.InMemoryExporter
	opts   []otelgatehouse.Option
}

func newTelemetry(t *testing.T) *telemetry {
	reader := sdkmetric.NewManualReader()
	spans := tracetest.NewInMemoryExporter()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	t.Cleanup(func() {
		mp.Shutdown(context.Background())
		tp.Shutdown(context.Background())
	})
	return &telemetry{reader: reader, spans: spans,
		opts: []otelgatehouse.Option{otelgatehouse.WithMeterProvider(mp), otelgatehouse.WithTracerProvider(tp)}}
}

// counts returns the data points of the counter name, keyed by their
// attributes written "k=v,k=v" (sorted by key).
func (tm *telemetry) counts(t *testing.T, name string) map[string]int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := tm.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			sum, ok := m.Data.(metricdata.Sum[int64])
			if !ok || !sum.IsMonotonic {
				t.Fatalf("%s is a %T, not a counter", name, m.Data)
			}
			for _, dp := range sum.DataPoints {
				got[dp.Attributes.Encoded(attribute.DefaultEncoder())] += dp.Value
			}
		}
	}
	return got
}

func equalCounts(t *testing.T, name string, got, want map[string]int64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s = %v, want %v", name, got, want)
		return
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", name, got, want)
			return
		}
	}
}

// site is an application with one provider, "corp" (an in-process OpenID
// provider), instrumented, whose own Events record what they are told.
type site struct {
	op      *authtest.Server
	app     *httptest.Server
	signIns []*account.Account
	fails   []*gatehouse.Error
}

func startSite(t *testing.T, tm *telemetry) *site {
	s := &site{op: authtest.NewServer(authtest.Options{AutoApprove: true})}
	t.Cleanup(s.op.Close)
	app := httptest.NewUnstartedServer(nil)
	cfg := gatehouse.Config{
		Secret: []string{"example-secret-example-secret-0123456789"},
		URL:    "http://" + app.Listener.Addr().String() + "/auth",
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{
			ID: "corp", Name: "Corp", Type: providers.TypeOIDC, Issuer: s.op.Issuer(),
			ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
			// A query that must not reach a span.
			Userinfo: providers.UserinfoEndpoint[profile.Claims]{URL: s.op.Issuer() + "/userinfo?probe=query-secret"},
		}},
		Callbacks: gatehouse.Callbacks{JWT: gatehouse.KeepTokens(nil)},
		Logger:    slog.New(slog.DiscardHandler),
		Events: gatehouse.Events{
			SignIn: func(_ context.Context, _ profile.User, acct *account.Account, _ bool) {
				s.signIns = append(s.signIns, acct)
			},
			Failure: func(_ context.Context, err *gatehouse.Error) { s.fails = append(s.fails, err) },
		},
	}
	auth, err := gatehouse.New(otelgatehouse.Instrument(cfg, tm.opts...))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/auth/", auth)
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "home") })
	app.Config.Handler = mux
	app.Start()
	t.Cleanup(app.Close)
	s.app = app
	return s
}

// browser returns a client with a cookie jar and the CSRF token it holds.
func (s *site) browser(t *testing.T) (*http.Client, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	resp, err := browser.Get(s.app.URL + "/auth/csrf")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var csrf struct{ CSRFToken string }
	if err := json.NewDecoder(resp.Body).Decode(&csrf); err != nil {
		t.Fatal(err)
	}
	return browser, csrf.CSRFToken
}

// signIn posts the sign-in form with csrfToken and follows the redirects
// (to the provider and back); it returns the last page's path.
func (s *site) signIn(t *testing.T, browser *http.Client, csrfToken string) string {
	t.Helper()
	resp, err := browser.PostForm(s.app.URL+"/auth/signin/corp", url.Values{"csrfToken": {csrfToken}, "callbackUrl": {"/"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.Request.URL.Path
}

func TestSignIn(t *testing.T) {
	tm := newTelemetry(t)
	s := startSite(t, tm)
	browser, csrf := s.browser(t)
	if path := s.signIn(t, browser, csrf); path != "/" {
		t.Fatalf("the sign-in ended at %s, want /", path)
	}

	if len(s.signIns) != 1 || s.signIns[0] == nil || s.signIns[0].AccessToken == "" {
		t.Fatalf("the application's own Events.SignIn was told %v, want one account with tokens", s.signIns)
	}
	equalCounts(t, "gatehouse.signins", tm.counts(t, "gatehouse.signins"), map[string]int64{"new_user=false,provider=corp": 1})
	equalCounts(t, "gatehouse.failures", tm.counts(t, "gatehouse.failures"), nil)

	// A span for each provider call, with no query, token or secret.
	acct := s.signIns[0]
	secrets := []string{"query-secret", "probe", acct.AccessToken, acct.IDToken, authtest.DefaultClientSecret}
	if acct.RefreshToken != "" {
		secrets = append(secrets, acct.RefreshToken)
	}
	for _, r := range s.op.Requests() {
		if code := r.Form.Get("code"); code != "" {
			secrets = append(secrets, code)
		}
	}
	host := strings.TrimPrefix(s.op.Issuer(), "http://")
	names := map[string]bool{}
	for _, span := range tm.spans.GetSpans() {
		names[span.Name] = true
		texts := []string{span.Name, span.Status.Description}
		for _, kv := range span.Attributes {
			texts = append(texts, string(kv.Key)+"="+kv.Value.String())
			if kv.Key == "url.full" && strings.Contains(kv.Value.AsString(), "?") {
				t.Errorf("span %q: url.full = %s, with a query", span.Name, kv.Value.AsString())
			}
		}
		for _, text := range texts {
			for _, secret := range secrets {
				if strings.Contains(text, secret) {
					t.Errorf("span %q records %q", span.Name, text)
				}
			}
			if strings.Contains(strings.ToLower(text), "authorization") {
				t.Errorf("span %q records a header: %q", span.Name, text)
			}
		}
	}
	for _, want := range []string{
		"gatehouse GET " + host + "/.well-known/openid-configuration",
		"gatehouse POST " + host + "/token",
		"gatehouse GET " + host + "/userinfo",
		"gatehouse GET " + host + "/jwks",
	} {
		if !names[want] {
			t.Errorf("no span %q in %v", want, names)
		}
	}

	// The provider was called as without the instrumentation: the query
	// and the access token did reach the userinfo endpoint.
	var userinfo int
	for _, r := range s.op.Requests() {
		if r.Endpoint != authtest.EndpointUserinfo {
			continue
		}
		userinfo++
		if r.Query.Get("probe") != "query-secret" || !strings.Contains(r.Header.Get("Authorization"), acct.AccessToken) {
			t.Errorf("userinfo received query %v and Authorization %q", r.Query, r.Header.Get("Authorization"))
		}
	}
	if userinfo != 1 {
		t.Errorf("userinfo called %d times, want 1", userinfo)
	}
}

func TestForgedCSRF(t *testing.T) {
	tm := newTelemetry(t)
	s := startSite(t, tm)
	browser, _ := s.browser(t)
	s.signIn(t, browser, "forged")

	if len(s.fails) != 1 || s.fails[0].Type != gatehouse.MissingCSRF {
		t.Fatalf("the application's own Events.Failure was told %v, want one MissingCSRF", s.fails)
	}
	equalCounts(t, "gatehouse.failures", tm.counts(t, "gatehouse.failures"), map[string]int64{"code=csrf,provider=corp,type=MissingCSRF": 1})
	equalCounts(t, "gatehouse.signins", tm.counts(t, "gatehouse.signins"), nil)
	equalCounts(t, "gatehouse.rate_limited", tm.counts(t, "gatehouse.rate_limited"), nil)
}

// The counters of each event, and the application's own Events called
// with the same arguments.
func TestEvents(t *testing.T) {
	refused := errors.New("invalid_grant")
	tests := []struct {
		name string
		fire func(gatehouse.Events)
		want map[string]map[string]int64
		own  int // calls of the application's own Events
	}{{
		name: "sign-in of a new user",
		fire: func(ev gatehouse.Events) {
			ev.SignIn(context.Background(), profile.User{}, &account.Account{Provider: "corp"}, true)
		},
		want: map[string]map[string]int64{"gatehouse.signins": {"new_user=true,provider=corp": 1}},
		own:  1,
	}, {
		name: "sign-in without an account",
		fire: func(ev gatehouse.Events) { ev.SignIn(context.Background(), profile.User{}, nil, false) },
		want: map[string]map[string]int64{"gatehouse.signins": {"new_user=false,provider=": 1}},
		own:  1,
	}, {
		name: "refreshes",
		fire: func(ev gatehouse.Events) {
			ev.Refresh(context.Background(), "corp", nil)
			ev.Refresh(context.Background(), "corp", nil)
			ev.Refresh(context.Background(), "corp", refused)
		},
		want: map[string]map[string]int64{"gatehouse.refreshes": {"outcome=ok,provider=corp": 2, "outcome=error,provider=corp": 1}},
		own:  3,
	}, {
		name: "rate limit: the seconds left out of the code",
		fire: func(ev gatehouse.Events) {
			ev.Failure(context.Background(), &gatehouse.Error{Type: gatehouse.TooManyRequests, Code: "retry_after_30", Provider: "mail", Step: "limit"})
			ev.Failure(context.Background(), &gatehouse.Error{Type: gatehouse.TooManyRequests, Code: "retry_after_29", Provider: "mail", Step: "limit"})
			// A summary of 40 more refusals in the window.
			ev.Failure(context.Background(), &gatehouse.Error{Type: gatehouse.TooManyRequests, Code: "retry_after_28", Provider: "mail", Step: "limit", Repeats: 40})
		},
		want: map[string]map[string]int64{
			"gatehouse.failures":     {"code=retry_after,provider=mail,type=TooManyRequests": 42},
			"gatehouse.rate_limited": {"provider=mail": 42},
		},
		own: 3,
	}, {
		name: "a provider's error codes: registered ones kept, others bounded",
		fire: func(ev gatehouse.Events) {
			for _, code := range []string{"access_denied", "made_up_by_a_browser", "login_required"} {
				ev.Failure(context.Background(), &gatehouse.Error{Type: gatehouse.OAuthCallbackError, Code: code, Provider: "corp", Step: "authorization"})
			}
			ev.Failure(context.Background(), &gatehouse.Error{Type: gatehouse.TokenExchangeFailed, Code: "invalid_grant", Provider: "corp", Step: "token"})
		},
		want: map[string]map[string]int64{"gatehouse.failures": {
			"code=access_denied,provider=corp,type=OAuthCallbackError":  1,
			"code=provider_error,provider=corp,type=OAuthCallbackError": 1,
			"code=login_required,provider=corp,type=OAuthCallbackError": 1,
			"code=invalid_grant,provider=corp,type=TokenExchangeFailed": 1,
		}},
		own: 4,
	}, {
		name: "a nil failure: told, not counted",
		fire: func(ev gatehouse.Events) { ev.Failure(context.Background(), nil) },
		want: map[string]map[string]int64{},
		own:  1,
	}, {
		name: "administrator actions, by action",
		fire: func(ev gatehouse.Events) {
			ev.Admin(context.Background(), admin.Event{Action: admin.ActionBan, ActorID: "a", TargetID: "u1"})
			ev.Admin(context.Background(), admin.Event{Action: admin.ActionBan, ActorID: "a", TargetID: "u2"})
			ev.Admin(context.Background(), admin.Event{Action: admin.ActionImpersonate, ActorID: "a", TargetID: "u3"})
		},
		want: map[string]map[string]int64{"gatehouse.admin_actions": {"action=ban": 2, "action=impersonate": 1}},
		own:  3,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tm := newTelemetry(t)
			var own []string
			record := func(event string) { own = append(own, event) }
			cfg := otelgatehouse.Instrument(gatehouse.Config{Events: gatehouse.Events{
				SignIn:  func(context.Context, profile.User, *account.Account, bool) { record("signin") },
				Failure: func(context.Context, *gatehouse.Error) { record("failure") },
				Refresh: func(context.Context, string, error) { record("refresh") },
				Admin:   func(context.Context, admin.Event) { record("admin") },
			}}, tm.opts...)
			tt.fire(cfg.Events)
			for _, name := range []string{"gatehouse.signins", "gatehouse.failures", "gatehouse.refreshes", "gatehouse.rate_limited", "gatehouse.admin_actions"} {
				equalCounts(t, name, tm.counts(t, name), tt.want[name])
			}
			if len(own) != tt.own {
				t.Errorf("the application's own Events were called %d times (%v), want %d", len(own), own, tt.own)
			}
		})
	}
}

// Events left nil stay nil-safe: Instrument adds its own.
func TestEventsWithoutOwn(t *testing.T) {
	tm := newTelemetry(t)
	ev := otelgatehouse.Instrument(gatehouse.Config{}, tm.opts...).Events
	ev.SignIn(context.Background(), profile.User{}, &account.Account{Provider: "corp"}, false)
	ev.Failure(context.Background(), &gatehouse.Error{Type: gatehouse.MissingCSRF, Code: "csrf"})
	ev.Refresh(context.Background(), "corp", nil)
	equalCounts(t, "gatehouse.signins", tm.counts(t, "gatehouse.signins"), map[string]int64{"new_user=false,provider=corp": 1})
	equalCounts(t, "gatehouse.failures", tm.counts(t, "gatehouse.failures"), map[string]int64{"code=csrf,provider=,type=MissingCSRF": 1})
	equalCounts(t, "gatehouse.refreshes", tm.counts(t, "gatehouse.refreshes"), map[string]int64{"outcome=ok,provider=corp": 1})
}

// Events.APIKey counts by change, and the application's own is called.
func TestAPIKeyEvents(t *testing.T) {
	tm := newTelemetry(t)
	own := 0
	ev := otelgatehouse.Instrument(gatehouse.Config{Events: gatehouse.Events{
		APIKey: func(context.Context, apikey.Event) { own++ },
	}}, tm.opts...).Events
	for _, c := range []apikey.Change{apikey.Created, apikey.Created, apikey.Revoked} {
		ev.APIKey(context.Background(), apikey.Event{Change: c, KeyID: "k"})
	}
	equalCounts(t, "gatehouse.api_keys", tm.counts(t, "gatehouse.api_keys"), map[string]int64{"change=created": 2, "change=revoked": 1})
	if own != 3 {
		t.Errorf("the application's own APIKey was called %d times; want 3", own)
	}
}

// The client: the given one's timeout and redirect policy kept, or the
// library's defaults; the query, fragment, user info and Authorization
// header kept out of the span but sent.
func TestHTTPClient(t *testing.T) {
	var got *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		if r.URL.Path == "/moved" {
			http.Redirect(w, r, "/", http.StatusFound)
			return
		}
		if r.URL.Path == "/large" {
			w.Write(make([]byte, providers.MaxResponseBytes+1))
		}
	}))
	defer srv.Close()

	tm := newTelemetry(t)
	noJar := func(*http.Request, []*http.Request) error { return errors.New("no") }
	given := &http.Client{Timeout: 3 * time.Second, CheckRedirect: noJar}
	c := otelgatehouse.Instrument(gatehouse.Config{HTTPClient: given}, tm.opts...).HTTPClient
	if c == given || c.Timeout != 3*time.Second || c.CheckRedirect == nil || given.Transport != nil {
		t.Fatalf("the given client was not copied with its timeout and redirect policy: %+v", c)
	}
	u, _ := url.Parse(srv.URL + "/userinfo?access_token=tok-in-query#frag")
	u.User = url.UserPassword("id", "pw-in-url")
	req, _ := http.NewRequest(http.MethodGet, u.String(), nil)
	req.Header.Set("Authorization", "Bearer tok-in-header")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got.URL.RawQuery != "access_token=tok-in-query" || got.Header.Get("Authorization") != "Bearer tok-in-header" {
		t.Errorf("the server received %q and Authorization %q", got.URL.RawQuery, got.Header.Get("Authorization"))
	}
	if req.URL.RawQuery == "" || req.URL.User == nil {
		t.Errorf("the caller's request was changed: %v", req.URL)
	}
	spans := tm.spans.GetSpans()
	if len(spans) != 1 {
		t.Fatalf("%d spans, want 1", len(spans))
	}
	for _, kv := range spans[0].Attributes {
		v := kv.Value.String()
		for _, secret := range []string{"tok-in-query", "tok-in-header", "pw-in-url", "frag", "?"} {
			if strings.Contains(v, secret) {
				t.Errorf("span attribute %s = %q", kv.Key, v)
			}
		}
		if kv.Key == "url.full" && v != srv.URL+"/userinfo" {
			t.Errorf("url.full = %q, want %q", v, srv.URL+"/userinfo")
		}
	}
	if want := "gatehouse GET " + strings.TrimPrefix(srv.URL, "http://") + "/userinfo"; spans[0].Name != want {
		t.Errorf("span name %q, want %q", spans[0].Name, want)
	}

	// Without a client: the library's defaults.
	c = otelgatehouse.Instrument(gatehouse.Config{}, tm.opts...).HTTPClient
	if c == nil || c.Timeout != 10*time.Second {
		t.Fatalf("default client %+v, want a 10 s timeout", c)
	}
	resp, err = c.Get(srv.URL + "/moved")
	if err != nil || resp.StatusCode != http.StatusFound {
		t.Errorf("a redirect answered %v, %v; want it returned, not followed", resp, err)
	} else {
		resp.Body.Close()
	}
	resp, err = c.Get(srv.URL + "/large")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.ReadAll(resp.Body); err == nil {
		t.Errorf("an answer over %d bytes was read whole", providers.MaxResponseBytes)
	}
}
