package gatehouse

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/admin"
	"github.com/gatehouse-auth/gatehouse/apikey"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/oauthflow"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/organization"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/email"
	"github.com/gatehouse-auth/gatehouse/providers/passkey"
	"github.com/gatehouse-auth/gatehouse/providers/yandex"
	"github.com/gatehouse-auth/gatehouse/selfservice"
	"github.com/gatehouse-auth/gatehouse/twofactor"
)

// set gives v a non-zero value of its type, or reports false.
func set(t *testing.T, v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(7)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.String:
		v.SetString("x")
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k := reflect.New(v.Type().Key()).Elem()
		set(t, k)
		m.SetMapIndex(k, reflect.New(v.Type().Elem()).Elem())
		v.Set(m)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
	case reflect.Func:
		v.Set(reflect.MakeFunc(v.Type(), func(args []reflect.Value) []reflect.Value {
			out := make([]reflect.Value, v.Type().NumOut())
			for i := range out {
				out[i] = reflect.Zero(v.Type().Out(i))
			}
			return out
		}))
	case reflect.Interface:
		switch {
		case v.Type().Name() == "Adapter":
			v.Set(reflect.ValueOf(memory.New()))
		case v.Type() == reflect.TypeFor[limit.Limiter]():
			v.Set(reflect.ValueOf(limit.None{}))
		case v.Type() == reflect.TypeFor[limit.Backend]():
			v.Set(reflect.ValueOf(limit.InMemory{}))
		case v.Type() == reflect.TypeFor[TwoFactor]():
			v.Set(reflect.ValueOf(twofactor.SignIn{}))
		case v.Type() == reflect.TypeFor[SelfService]():
			v.Set(reflect.ValueOf(selfservice.Routes{}))
		case v.Type() == reflect.TypeFor[Organizations]():
			v.Set(reflect.ValueOf(organization.Enable(organization.Config{})))
		case v.Type() == reflect.TypeFor[Admin]():
			v.Set(reflect.ValueOf(admin.Enable(admin.Config{})))
		case v.Type() == reflect.TypeFor[MachineAccess]():
			v.Set(reflect.ValueOf(apikey.Enable(apikey.Config{})))
		default:
			return false
		}
	default:
		return false
	}
	return true
}

// key is keyOf for a test: cfg's key, failing the test when cfg is not
// cacheable.
func key(t *testing.T, cfg Config) configKey {
	t.Helper()
	k, ok := keyOf(&cfg)
	if !ok {
		t.Fatal("the Config is not cacheable")
	}
	return k
}

// TestConfigKeyCoversEveryField: every field of Config, nested ones
// included, changes Auth's cache key, so that two Configs that differ in
// any field get two Handlers. A field added to Config and not to
// configKey fails here.
func TestConfigKeyCoversEveryField(t *testing.T) {
	base := key(t, Config{})
	var walk func(path []int, typ reflect.Type, name string)
	walk = func(path []int, typ reflect.Type, name string) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			if !f.IsExported() {
				continue
			}
			p := append(append([]int{}, path...), i)
			fname := name + "." + f.Name
			if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeFor[time.Time]() {
				walk(p, f.Type, fname)
				continue
			}
			var c Config
			if !set(t, reflect.ValueOf(&c).Elem().FieldByIndex(p)) {
				t.Errorf("%s (%s): no test value: add one to set", fname, f.Type)
				continue
			}
			if key(t, c) == base {
				t.Errorf("Config%s does not change the cache key", fname)
			}
		}
	}
	walk(nil, reflect.TypeFor[Config](), "")
}

// TestConfigKeyRule: what configKey tells apart and what it does not, as
// Auth's doc says. A copy of a Config is the same Config; the same fields
// with slices of their own are another; two different functions are two
// Configs; two closures of one literal sharing the slices are one (the
// documented limit); a *bool by the value it points to.
func TestConfigKeyRule(t *testing.T) {
	provs := []providers.Provider{providers.OAuthConfig[profile.Claims]{ID: "dev"}}
	secret := []string{"s"}
	mk := func(to string) Config {
		return Config{Providers: provs, Secret: secret, Callbacks: Callbacks{Redirect: func(string, string) string { return to }}}
	}
	var made []Config
	for _, to := range []string{"/a", "/b"} {
		made = append(made, mk(to)) // two closures made at one place
	}
	a := made[0]
	b := a
	if key(t, a) != key(t, b) {
		t.Error("a copy of a Config has another key")
	}
	if key(t, a) != key(t, made[1]) {
		t.Error("closures of one literal over the shared slices: the documented rule says one key")
	}
	own := a
	own.Providers = slices.Clone(provs)
	if key(t, a) == key(t, own) {
		t.Error("a Config with a Providers slice of its own shares a key")
	}
	own = a
	own.Secret = slices.Clone(secret)
	if key(t, a) == key(t, own) {
		t.Error("a Config with a Secret slice of its own shares a key")
	}
	other := a
	other.Callbacks.Redirect = func(string, string) string { return "/other" }
	if key(t, a) == key(t, other) {
		t.Error("two different function literals share a key")
	}
	on1, on2, off := true, true, false
	x, y, z := a, a, a
	x.UseSecureCookies, y.UseSecureCookies, z.UseSecureCookies = &on1, &on2, &off
	if key(t, x) != key(t, y) || key(t, x) == key(t, z) || key(t, x) == key(t, a) {
		t.Error("UseSecureCookies is not keyed by the value it points to")
	}
	// An adapter == cannot compare: not cached, not a panic.
	type sliceAdapter struct {
		*memory.Adapter
		extra []string
	}
	a.Adapter = sliceAdapter{Adapter: memory.New(), extra: []string{"x"}}
	if _, ok := keyOf(&a); ok {
		t.Error("a Config with an uncomparable Adapter is cacheable")
	}
}

// TestAuthKeepsConfigsApart: Auth with two Configs that differ only in
// Pages.SignIn answers each with its own page. Failed before: the second
// got the first one's Handler, and its redirect.
func TestAuthKeepsConfigsApart(t *testing.T) {
	// One providers list and logger, as an application passes them.
	provs := []providers.Provider{providers.OAuthConfig[profile.Claims]{ID: "dev", Name: "Dev", Type: providers.TypeOIDC,
		Issuer: "http://127.0.0.1:1", ClientID: "c", ClientSecret: "s"}}
	secret := []string{"test-secret-test-secret-test-secret-0123"}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	mk := func(page string) Config {
		return Config{Secret: secret, URL: "http://localhost/auth",
			Logger: logger, Pages: Pages{SignIn: page}, Providers: provs}
	}
	for _, page := range []string{"/login-a", "/login-b", "/login-a"} {
		resp := Auth(httptest.NewRequest(http.MethodGet, "http://localhost/auth/signin", nil), mk(page))
		if loc := resp.Header.Get("Location"); !strings.HasPrefix(loc, page+"?") {
			t.Fatalf("Config with Pages.SignIn %s redirected to %q", page, loc)
		}
	}
}

// TestAuthCacheLRU: Auth keeps the Handler of a reused Config, forgets
// the least recently used one first when full, and never more than its
// bound.
func TestAuthCacheLRU(t *testing.T) {
	c := newHandlerCache()
	provs := []providers.Provider{providers.OAuthConfig[profile.Claims]{ID: "dev", Name: "Dev", Type: providers.TypeOIDC,
		Issuer: "http://127.0.0.1:1", ClientID: "c", ClientSecret: "s"}}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfgs := make([]Config, handlerCacheSize+1)
	for i := range cfgs {
		cfgs[i] = Config{Secret: []string{"test-secret-test-secret-test-secret-0123"}, URL: "http://localhost/auth",
			Logger: logger, Providers: provs, Pages: Pages{SignIn: "/login-" + strconv.Itoa(i)}}
	}
	get := func(i int) *Handler {
		t.Helper()
		h, err := c.get(&cfgs[i])
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	var hs []*Handler
	for i := range handlerCacheSize {
		hs = append(hs, get(i))
	}
	if get(0) != hs[0] { // 0 is now the most recently used; 1 the least
		t.Fatal("a reused Config got a new Handler")
	}
	get(handlerCacheSize) // evicts 1
	if c.lru.Len() != handlerCacheSize {
		t.Fatalf("%d Handlers kept, want %d", c.lru.Len(), handlerCacheSize)
	}
	if get(0) != hs[0] || get(2) != hs[2] {
		t.Fatal("a recently used Handler was evicted")
	}
	if get(1) == hs[1] {
		t.Fatal("the least recently used Handler was kept")
	}
}

// TestAuthOverheadAllocs: Auth with a reused Config allocates at most 5
// times more than its Handler called directly with an in-memory writer.
func TestAuthOverheadAllocs(t *testing.T) {
	cfg := benchConfig()
	r := httptest.NewRequest(http.MethodGet, "http://localhost/auth/providers", nil)
	h, err := cachedHandlers().get(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	direct := testing.AllocsPerRun(100, func() {
		var w httpx.Response
		h.ServeHTTP(&w, r)
	})
	auth := testing.AllocsPerRun(100, func() { Auth(r, cfg) })
	if auth-direct > 5 {
		t.Fatalf("Auth allocates %v times a call, its Handler %v: %v more, want at most 5", auth, direct, auth-direct)
	}
}

// TestEnvDefaultsAtNew: a configured provider whose client id, secret or
// issuer is empty takes AUTH_<ID>_ID, _SECRET, _ISSUER at New, as Auth.js
// does; set values are kept; still missing, the error names the
// variable. Failed before: New answered "clientId is required".
func TestEnvDefaultsAtNew(t *testing.T) {
	env := map[string]string{"AUTH_YANDEX_ID": "env-id", "AUTH_YANDEX_SECRET": "env-secret", "AUTH_CORP_SSO_ISSUER": "https://sso.example"}
	cfg := Config{Secret: []string{"test-secret-test-secret-test-secret-0123"}, URL: "https://app.example/auth",
		Getenv: func(k string) string { return env[k] },
		Providers: []providers.Provider{
			yandex.New(providers.OAuthUserConfig[yandex.Profile]{}),
			providers.OAuthConfig[map[string]any]{ID: "corp-sso", Name: "Corp", Type: providers.TypeOIDC, ClientID: "own-id"},
		}}
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	y := h.flows["yandex"].(*oauthflow.Flow).Provider().Config()
	if y.ClientID != "env-id" || y.ClientSecret != "env-secret" {
		t.Fatalf("yandex: client %q secret %q, want the environment's", y.ClientID, y.ClientSecret)
	}
	c := h.flows["corp-sso"].(*oauthflow.Flow).Provider().Config()
	if c.ClientID != "own-id" || c.Issuer != "https://sso.example" {
		t.Fatalf("corp-sso: client %q issuer %q, want its own id and the environment's issuer", c.ClientID, c.Issuer)
	}

	cfg.Getenv = func(string) string { return "" }
	_, err = New(cfg)
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Provider != "yandex" || !strings.Contains(err.Error(), "AUTH_YANDEX_ID") {
		t.Fatalf("New without the variables: %v, want a ConfigError naming AUTH_YANDEX_ID", err)
	}
}

// TestEmailAPIKeyFromEnv: an HTTP API e-mail provider made without a key
// takes AUTH_<ID>_KEY at New, and sends with it; without it, New names the
// variable. Failed before: the provider was accepted and every send
// failed with "no API key".
func TestEmailAPIKeyFromEnv(t *testing.T) {
	var gotAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		w.Write([]byte(`{"id":"1"}`))
	}))
	t.Cleanup(srv.Close)
	env := map[string]string{"AUTH_RESEND_KEY": "re_from_env"}
	cfg := Config{Secret: []string{"test-secret-test-secret-test-secret-0123"}, URL: "https://app.example/auth",
		Adapter: memory.New(), Getenv: func(k string) string { return env[k] },
		Providers: []providers.Provider{email.Resend(email.Config{From: "Site <site@example.com>"}, email.API{URL: srv.URL})}}
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The flow sends a link (through Resend's API) for a typed address.
	w := httptest.NewRecorder()
	h.flows["resend"].SignIn(w, httptest.NewRequest(http.MethodPost, "/auth/signin/resend", nil), url.Values{"email": {"a@example.com"}})
	if loc := w.Header().Get("Location"); !strings.Contains(loc, "/verify-request") {
		t.Fatalf("sign-in answered %d, Location %q", w.Code, loc)
	}
	if gotAuth != "Bearer re_from_env" {
		t.Fatalf("sent with Authorization %q, want the key from AUTH_RESEND_KEY", gotAuth)
	}
	cfg.Getenv = func(string) string { return "" }
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "AUTH_RESEND_KEY") {
		t.Fatalf("New without a key: %v, want an error naming AUTH_RESEND_KEY", err)
	}
}

// TestPasskeySignUpRefusesEmailProvider: an e-mail provider would sign the
// real owner of an address in to a user a stranger signed up with it.
func TestPasskeySignUpRefusesEmailProvider(t *testing.T) {
	for _, signUp := range []bool{true, false} {
		_, err := New(Config{Secret: []string{"test-secret-test-secret-test-secret-0123"}, URL: "https://app.test/auth", Adapter: memory.New(),
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Providers: []providers.Provider{
				email.Config{ID: "email", SendVerificationRequest: func(context.Context, email.VerificationRequest) error { return nil }},
				passkey.New(passkey.WebAuthnConfig{SignUp: signUp}),
			}})
		if signUp != (err != nil) || (err != nil && !strings.Contains(err.Error(), `e-mail provider "email"`)) {
			t.Errorf("SignUp %v: New = %v", signUp, err)
		}
	}
}

// FuzzCallbackParams: the callback's parameter reader never panics and
// never returns a parameter twice.
func FuzzCallbackParams(f *testing.F) {
	f.Add("GET", "code=a&state=b&iss=c", "")
	f.Add("POST", "", "code=a&code=b")
	f.Add("POST", "", "%zz=%")
	f.Fuzz(func(t *testing.T, method, query, body string) {
		if method != "GET" && method != "POST" {
			method = "GET"
		}
		r := httptest.NewRequest(method, "http://app/auth/callback/x", strings.NewReader(body))
		r.URL.RawQuery = query
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		v, err := httpx.CallbackParams(r)
		if err != nil {
			return
		}
		for k, vs := range v {
			if len(vs) != 1 {
				t.Fatalf("parameter %q returned %d times", k, len(vs))
			}
		}
		// decode(encode(v)) == v.
		if back, err := url.ParseQuery(v.Encode()); err != nil || !reflect.DeepEqual(back, v) && len(v) > 0 {
			t.Fatalf("parameters %v re-encode to %v (%v)", v, back, err)
		}
	})
}

// The providers list is encoded once per origin: without Config.URL,
// requests from two origins in turn each get their own origin's URLs, the
// same bytes json.Encoder writes for the list of that moment.
func TestProvidersListPerOrigin(t *testing.T) {
	h, err := New(Config{Secret: []string{"test-secret-test-secret-test-secret-0123"}, BasePath: "/auth",
		Providers: []providers.Provider{
			providers.OAuthConfig[profile.Claims]{ID: "dev", Name: "Dev <&>", Type: providers.TypeOIDC, Issuer: "http://127.0.0.1:1", ClientID: "c", ClientSecret: "s"},
			providers.OAuthConfig[profile.Claims]{ID: "gh", Name: "GitHub", Type: providers.TypeOAuth, ClientID: "c", ClientSecret: "s",
				Authorization: providers.AuthorizationEndpoint{URL: "https://gh.example/authorize"}, Token: providers.TokenEndpoint{URL: "https://gh.example/token"},
				Userinfo: providers.UserinfoEndpoint[profile.Claims]{URL: "https://gh.example/user"}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"a.example", "b.example:8080", "a.example", "a.example", "b.example:8080"} {
		r := httptest.NewRequest(http.MethodGet, "http://"+host+"/auth/providers", nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		want := httptest.NewRecorder()
		list := map[string]providers.AppProvider{}
		for _, p := range h.Providers(r) {
			list[p.ID] = p
		}
		httpx.WriteJSON(want, http.StatusOK, list)
		if w.Code != http.StatusOK || w.Body.String() != want.Body.String() || w.Header().Get("Content-Type") != "application/json" ||
			w.Header().Get("Cache-Control") != want.Header().Get("Cache-Control") {
			t.Fatalf("%s: %d %v %s\nwant %s", host, w.Code, w.Header(), w.Body, want.Body)
		}
		var got map[string]providers.AppProvider
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || got["gh"].SigninURL != "http://"+host+"/auth/signin/gh" {
			t.Fatalf("%s: %v %+v", host, err, got)
		}
	}
}

// The Middleware's context answers as context.WithValue would: its state
// under ctxKey, the parent's values and cancellation otherwise.
func TestStateContext(t *testing.T) {
	type other struct{}
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), other{}, "v"))
	c := &stateContext{Context: parent, st: reqState{csrfToken: "t"}}
	if st, ok := c.Value(ctxKey{}).(*reqState); !ok || st != &c.st || st.csrfToken != "t" {
		t.Fatalf("Value(ctxKey) = %v", c.Value(ctxKey{}))
	}
	if c.Value(other{}) != "v" {
		t.Fatal("the parent's value is lost")
	}
	inner := context.WithValue(c, ctxKey{}, &reqState{csrfToken: "inner"})
	if inner.Value(ctxKey{}).(*reqState).csrfToken != "inner" {
		t.Fatal("an inner state does not win")
	}
	child, stop := context.WithCancel(c)
	defer stop()
	cancel()
	<-child.Done()
	if c.Err() != context.Canceled || child.Err() != context.Canceled {
		t.Fatalf("cancellation: %v %v", c.Err(), child.Err())
	}
}

// benchConfig is a Config as an application keeps it: built once, with an
// OAuth provider of fixed endpoints (no discovery) and callbacks.
func benchConfig() Config {
	return Config{
		Secret: []string{"test-secret-test-secret-test-secret-0123"}, URL: "http://localhost/auth",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{ID: "p", Name: "P", Type: providers.TypeOAuth,
			ClientID: "client", ClientSecret: "secret",
			Authorization: providers.AuthorizationEndpoint{URL: "https://p.example/authorize"},
			Token:         providers.TokenEndpoint{URL: "https://p.example/token"},
			Userinfo:      providers.UserinfoEndpoint[profile.Claims]{URL: "https://p.example/me"}}},
		Callbacks: Callbacks{Redirect: func(url, _ string) string { return url }},
		Events:    Events{SignIn: nil, Session: func(_ context.Context, _ *Session) {}},
	}
}

// BenchmarkAuthOverhead: Auth(r, cfg) with a Config reused from call to
// call, against the Handler it finds called directly with an in-memory
// ResponseWriter. The difference is what Auth adds: finding the Handler
// and building the *http.Response.
func BenchmarkAuthOverhead(b *testing.B) {
	cfg := benchConfig()
	r := httptest.NewRequest(http.MethodGet, "http://localhost/auth/providers", nil)
	if res := Auth(r, cfg); res.StatusCode != http.StatusOK {
		b.Fatalf("Auth answered %d", res.StatusCode)
	}
	h, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Handler", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var w httpx.Response
			h.ServeHTTP(&w, r)
		}
	})
	b.Run("Auth", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Auth(r, cfg)
		}
	})
}
