package gatehouse

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
	"weak"

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/configkey"
	"github.com/gatehouse-auth/gatehouse/internal/emailflow"
	"github.com/gatehouse-auth/gatehouse/internal/oauthflow"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/email"
	"github.com/gatehouse-auth/gatehouse/providers/yandex"
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
		default:
			return false
		}
	default:
		return false
	}
	return true
}

// TestConfigKeyCoversEveryField: every field of Config, nested ones
// included, changes Auth's cache key. Failed before: Pages, Callbacks,
// Events, Theme, Logger, ClockSkew, ProviderTimeout, ProviderSignOut (and
// more) did not, so a second Config got the first one's Handler.
func TestConfigKeyCoversEveryField(t *testing.T) {
	base := configkey.Of(Config{})
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
			if configkey.Of(c) == base {
				t.Errorf("Config%s does not change the cache key", fname)
			}
		}
	}
	walk(nil, reflect.TypeFor[Config](), "")
}

// TestConfigKeyClosures: two closures of one function literal over
// different variables are two configurations; the same Config value
// passed again is one.
func TestConfigKeyClosures(t *testing.T) {
	mk := func(to string) Config {
		return Config{Callbacks: Callbacks{Redirect: func(string, string) string { return to }}}
	}
	a, b := mk("/a"), mk("/b")
	if configkey.Of(a) == configkey.Of(b) {
		t.Fatal("two closures over different values share a key")
	}
	if k1, k2 := configkey.Of(a), configkey.Of(a); k1 != k2 {
		t.Fatal("the same Config gives two keys")
	}
}

// TestAuthKeepsConfigsApart: Auth with two Configs that differ only in
// Pages.SignIn answers each with its own page. Failed before: the second
// got the first one's Handler, and its redirect.
func TestAuthKeepsConfigsApart(t *testing.T) {
	// One providers list and logger, as an application passes them.
	provs := []providers.Provider{providers.OAuthConfig[profile.Claims]{ID: "dev", Name: "Dev", Type: providers.TypeOIDC,
		Issuer: "http://127.0.0.1:1", ClientID: "c", ClientSecret: "s"}}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	mk := func(page string) Config {
		return Config{Secret: []string{"test-secret-test-secret-test-secret-0123"}, URL: "http://localhost/auth",
			Logger: logger, Pages: Pages{SignIn: page}, Providers: provs}
	}
	for _, page := range []string{"/login-a", "/login-b", "/login-a"} {
		resp := Auth(httptest.NewRequest(http.MethodGet, "http://localhost/auth/signin", nil), mk(page))
		if loc := resp.Header.Get("Location"); !strings.HasPrefix(loc, page+"?") {
			t.Fatalf("Config with Pages.SignIn %s redirected to %q", page, loc)
		}
	}
}

// TestConfigKeyValuesStayAlive: what configKey identifies by address (an
// HTTPClient, a Logger) stays reachable while its key is in the cache.
// Failed before: New keeps a copy of the client and a wrapped logger, so
// the Config's own were collected, and a new client or logger allocated
// at the same address (the key holds only the address) would have found
// this Handler, with the first Config's client and logger.
func TestConfigKeyValuesStayAlive(t *testing.T) {
	cache := configkey.NewCache[Config, *Handler](4)
	client := &http.Client{Timeout: time.Second}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	wc, wl := weak.Make(client), weak.Make(logger)
	if _, err := cache.Get(Config{Secret: []string{"test-secret-test-secret-test-secret-0123"}, URL: "http://localhost/auth",
		HTTPClient: client, Logger: logger,
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{ID: "dev", Name: "Dev", Type: providers.TypeOIDC,
			Issuer: "http://127.0.0.1:1", ClientID: "c", ClientSecret: "s"}}}, New); err != nil {
		t.Fatal(err)
	}
	client, logger = nil, nil
	runtime.GC()
	runtime.GC()
	if wc.Value() == nil {
		t.Error("the HTTPClient of a cached Config was collected while its address is in the key")
	}
	if wl.Value() == nil {
		t.Error("the Logger of a cached Config was collected while its address is in the key")
	}
	runtime.KeepAlive(cache)
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
	p := h.flows["resend"].(*emailflow.Flow).Email()
	if err := p.SendVerificationRequest(context.Background(), email.VerificationRequest{Identifier: "a@example.com", URL: "https://app.example/x", Provider: p}); err != nil {
		t.Fatal(err)
	}
	if gotAuth != "Bearer re_from_env" {
		t.Fatalf("sent with Authorization %q, want the key from AUTH_RESEND_KEY", gotAuth)
	}
	cfg.Getenv = func(string) string { return "" }
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "AUTH_RESEND_KEY") {
		t.Fatalf("New without a key: %v, want an error naming AUTH_RESEND_KEY", err)
	}
}
