package gatehouse

import (
	"log/slog"
	"net/http"
	"reflect"
	"sync"
	"time"

	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// handlerCacheSize bounds the Handlers Auth keeps.
const handlerCacheSize = 16

// configKey tells Configs apart for Auth's cache, cheaply and without
// reading any memory the language does not let a program read: it is a
// comparable value built field by field from a Config, so that a lookup
// is one map access. What each field is compared by:
//
//   - the Providers, Secret and TrustedProxies slices: by identity, the address of the
//     first element and the length (a copy of the Config shares them; a
//     Config built anew, with slice literals of its own, does not);
//   - strings, booleans, durations and the structs made of them (Session,
//     Pages, Theme): by value; UseSecureCookies by the value it points to;
//   - HTTPClient and Logger: by pointer;
//   - Adapter, RateLimit, Limits and the two-factor limiters: with ==, so a
//     pointer by identity and a comparable struct by value (a value ==
//     cannot compare makes the Config uncacheable: see keyOf);
//   - functions (Callbacks, Events, ClientIP, Getenv): by code pointer
//     (reflect.Value.Pointer), so two closures made by one function
//     literal at one place, or two method values of one method, are the
//     same function here (the compiler may copy a literal into each place
//     its function is inlined; the rule does not count on it).
//
// The key holds values, Go pointers and code addresses: the pointers (and
// the interface values) keep what they identify alive, and code is never
// freed, so no address in a key can be given to another value while the
// key is in the cache. TestConfigKeyCoversEveryField checks that
// every field of Config changes the key.
type configKey struct {
	providers  *providers.Provider
	nProviders int
	secret     *string
	nSecret    int

	url, basePath, redirectProxyURL                        string
	trustHost, authJSCookieNames, providerSignOut, develop bool
	secureCookies                                          int8 // 0: nil, 1: false, 2: true
	session                                                SessionConfig
	twoFactorEnabled                                       bool
	twoFactorIssuer                                        string
	pages                                                  Pages
	theme                                                  pages.Theme
	providerTimeout, clockSkew                             time.Duration
	httpClient                                             *http.Client
	logger                                                 *slog.Logger

	adapter, rateLimit, perPending, perUser, limits any

	trustedProxies  *string
	nTrustedProxies int
	clientIPHeader  string

	funcs [18]uintptr // Callbacks, Events, ClientIP, Getenv: code pointers
}

// keyOf returns cfg's key, and false when cfg cannot be cached: one of
// its interface values (Adapter, a limiter) is of a type == cannot compare
// (a struct holding a slice, a map or a function), which would make the
// map lookup panic.
func keyOf(cfg *Config) (configKey, bool) {
	k := configKey{
		providers: first(cfg.Providers), nProviders: len(cfg.Providers),
		secret: first(cfg.Secret), nSecret: len(cfg.Secret),
		url: cfg.URL, basePath: cfg.BasePath, redirectProxyURL: cfg.RedirectProxyURL,
		trustHost: cfg.TrustHost, authJSCookieNames: cfg.AuthJSCookieNames, providerSignOut: cfg.ProviderSignOut, develop: cfg.Development,
		session: cfg.Session, twoFactorEnabled: cfg.TwoFactor.Enabled, twoFactorIssuer: cfg.TwoFactor.Issuer,
		pages: cfg.Pages, theme: cfg.Theme, providerTimeout: cfg.ProviderTimeout, clockSkew: cfg.ClockSkew,
		httpClient: cfg.HTTPClient, logger: cfg.Logger,
		adapter: cfg.Adapter, rateLimit: cfg.RateLimit, perPending: cfg.TwoFactor.PerPending, perUser: cfg.TwoFactor.PerUser,
		limits:         cfg.Limits,
		trustedProxies: first(cfg.TrustedProxies), nTrustedProxies: len(cfg.TrustedProxies), clientIPHeader: cfg.ClientIPHeader,
	}
	if s := cfg.UseSecureCookies; s != nil {
		k.secureCookies = 1
		if *s {
			k.secureCookies = 2
		}
	}
	c, e := &cfg.Callbacks, &cfg.Events
	for i, f := range [...]any{c.SignIn, c.Redirect, c.JWT, c.Session,
		e.SignIn, e.SignOut, e.CreateUser, e.LinkAccount, e.UnlinkAccount, e.RevokeSessions, e.TwoFactor,
		e.PasswordReset, e.PasswordChange, e.Session, e.Failure, e.Refresh,
		cfg.ClientIP, cfg.Getenv} {
		k.funcs[i] = reflect.ValueOf(f).Pointer() // 0 for a nil function
	}
	for _, v := range [...]any{k.adapter, k.rateLimit, k.perPending, k.perUser, k.limits} {
		if v != nil && !reflect.ValueOf(v).Comparable() {
			return k, false
		}
	}
	return k, true
}

// first returns the address of s's first element, nil when s is empty.
func first[T any](s []T) *T {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

// handlerCache is Auth's cache: at most handlerCacheSize Handlers by
// configKey, the least recently used evicted first (an exact LRU: each
// entry carries the tick of its last use, and a full cache drops the
// smallest, a linear scan of 16 entries when a Handler is built).
type handlerCache struct {
	mu      sync.Mutex // held while a Handler is built: one build at a time
	m       map[configKey]*cachedHandler
	tick    uint64
	evicted bool // a warning was logged
}

type cachedHandler struct {
	h    *Handler
	used uint64 // the tick of its last use
}

// get returns the Handler for cfg, built with New on first use. A failed
// build is not kept.
func (c *handlerCache) get(cfg *Config) (*Handler, error) {
	k, ok := keyOf(cfg)
	if !ok {
		return New(*cfg) // uncacheable: see keyOf
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tick++
	if e, ok := c.m[k]; ok {
		e.used = c.tick
		return e.h, nil
	}
	h, err := New(*cfg)
	if err != nil {
		return nil, err
	}
	if len(c.m) >= handlerCacheSize {
		var oldest configKey
		var least uint64 = ^uint64(0)
		for key, e := range c.m {
			if e.used < least {
				oldest, least = key, e.used
			}
		}
		delete(c.m, oldest)
		if !c.evicted {
			c.evicted = true
			h.cfg.Logger.Warn("gatehouse: Auth has built more Handlers than it keeps; pass the same Config value on every call (see Auth), or use New",
				"kept", handlerCacheSize)
		}
	}
	c.m[k] = &cachedHandler{h: h, used: c.tick}
	return h, nil
}
