// Package keyflow is machine access under the base path: the signed-in
// user's API keys (GET and POST api-keys, POST api-keys/{id}/revoke and
// api-keys/{id}/rotate), the reading of a key a request carries (for the
// Middleware), and the service tokens (POST token, GET jwks).
//
// Keys are managed with a session only: a key cannot make, rotate or
// revoke keys. Every POST made with a session cookie is checked by the
// Host (same origin, CSRF token) before it changes anything. Making or
// rotating a key also needs a sign-in within FreshAge: a key outlives
// the session that made it, so a stolen session cookie alone must not
// be able to mint one.
package keyflow

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	apikey "github.com/gatehouse-auth/gatehouse/internal/keycore"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/permission"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// Config is what the routes need: the handler's configuration and
// collaborators.
type Config struct {
	// Keys is gatehouse.Config.MachineAccess, as given.
	Keys apikey.Config
	// Adapter must be an apikey.Store (and a servicetoken.KeyStore when
	// Keys.Tokens is set).
	Adapter adapter.Adapter
	// Secret is the app's secrets, newest first: they seal the signing
	// keys.
	Secret []string
	// Limits makes the per-key limit when Keys.RateLimit is nil.
	Limits limit.Backend
	// Site checks POSTs made with a session cookie (same origin, CSRF
	// token) and resolves the base URL, the tokens' issuer.
	Site *site.Site
	// CurrentUser returns the id of the user signed in with r's session
	// cookie, "" for none, and when they signed in (zero when unknown);
	// an error when the store cannot be read.
	CurrentUser func(ctx context.Context, r *http.Request) (string, time.Time, error)
	// FreshAge is how recent the sign-in must be to make or rotate a key
	// (gatehouse.Config.Session.FreshAge).
	FreshAge time.Duration
	// Admit, when not nil, refuses the user of a key who may not act now
	// (banned, with bans on: Config.Admin): an *autherr.Error, of type
	// AdapterError when the store could not say.
	Admit  func(ctx context.Context, userID string) error
	Logger *slog.Logger
	// Event, when not nil, is told of keys made, rotated and revoked.
	Event func(ctx context.Context, e apikey.Event)
}

// Flow serves the routes.
type Flow struct {
	cfg    Config
	store  apikey.Store
	limit  limit.Limiter
	signer *servicetoken.Signer // nil when tokens are off
}

// New checks cfg, fills its defaults and returns the routes.
func New(cfg Config) (*Flow, error) {
	AddMessages()
	k := &cfg.Keys
	if k.Prefix == "" {
		k.Prefix = apikey.DefaultPrefix
	}
	if !apikey.ValidPrefix(k.Prefix) {
		return nil, fmt.Errorf("prefix %q: want 1 to 16 of a-z and 0-9", k.Prefix)
	}
	if k.MaxKeys <= 0 {
		k.MaxKeys = apikey.DefaultMaxKeys
	}
	if k.MaxLifetime < 0 || k.RotationOverlap < 0 {
		return nil, errors.New("MaxLifetime and RotationOverlap cannot be negative")
	}
	if cfg.FreshAge <= 0 {
		// None would refuse every creation and rotation.
		return nil, errors.New("FreshAge must be positive")
	}
	f := &Flow{cfg: cfg, limit: k.RateLimit}
	if f.limit == nil {
		f.limit = cfg.Limits.Limiter("api-key", apikey.DefaultRateLimit, time.Minute)
	}
	var ok bool
	if f.store, ok = cfg.Adapter.(apikey.Store); !ok || !adapter.Supports[apikey.Store](cfg.Adapter) {
		return nil, errors.New("the Adapter does not store API keys (apikey.Store)")
	}
	if k.Tokens != nil {
		ks, ok := cfg.Adapter.(servicetoken.KeyStore)
		if !ok || !adapter.Supports[servicetoken.KeyStore](cfg.Adapter) {
			return nil, errors.New("the Adapter does not store signing keys (servicetoken.KeyStore)")
		}
		var err error
		if f.signer, err = servicetoken.NewSigner(*k.Tokens, ks, cfg.Secret); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// Signer returns the service token signer, nil when tokens are off.
func (f *Flow) Signer() *servicetoken.Signer { return f.signer }

// Result is what Authenticate found in a request carrying a key.
type Result = plugin.KeyResult

// token returns the key r carries: in "Authorization: Bearer <key>" when
// the token has the key prefix (other bearer tokens are sessions'), or
// in Config.Keys.Header. A Bearer request whose header is malformed
// (cookies.BearerToken) but holds the key prefix carries a key that does
// not parse, "": the request is judged by it, anonymous, never by its
// cookies.
func (f *Flow) token(r *http.Request) (string, bool) {
	if values := r.Header["Authorization"]; len(values) > 0 {
		t, ok := cookies.BearerToken(values)
		if ok && apikey.Looks(f.cfg.Keys.Prefix, t) {
			return t, true
		}
		if ok && t == "" {
			for _, v := range values {
				if strings.Contains(v, f.cfg.Keys.Prefix+"_") {
					return "", true
				}
			}
		}
	}
	if h := f.cfg.Keys.Header; h != "" {
		if t := r.Header.Get(h); t != "" {
			return t, true
		}
	}
	return "", false
}

// Carries reports whether r carries a key, well-formed or not
// (Authenticate's ok), reading nothing else.
func (f *Flow) Carries(r *http.Request) bool {
	_, ok := f.token(r)
	return ok
}

// Authenticate reads the key r carries, and reports false when it carries
// none. A key that is malformed, unknown, wrong, revoked or expired, or
// whose user is gone, yields no Principal: the request is anonymous, as
// with a bearer session token that does not open. The store is read on
// every request (nothing is cached), so a revocation or a deleted user
// stops the key at once on every instance.
func (f *Flow) Authenticate(r *http.Request) (Result, bool) {
	raw, ok := f.token(r)
	if !ok {
		return Result{}, false
	}
	id, secret, err := apikey.Parse(f.cfg.Keys.Prefix, raw)
	if err != nil {
		return Result{}, true
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	k, err := f.store.APIKey(ctx, id)
	switch {
	case errors.Is(err, adapter.ErrNotFound):
		return Result{}, true
	case err != nil:
		f.cfg.Logger.Error("gatehouse: reading an API key failed", "step", "api-key", "err", err)
		return Result{Err: fmt.Errorf("%w: %w", sessions.ErrStoreUnavailable, err)}, true
	}
	now := time.Now()
	if err := k.Check(secret, now); err != nil {
		f.cfg.Logger.Info("gatehouse: an API key was refused", "step", "api-key", "key", k.ID, "err", err)
		return Result{}, true
	}
	if f.cfg.Admit != nil {
		// A banned user's keys stop with their sessions, on every
		// instance at its next request: the ban is read from the store.
		if err := f.cfg.Admit(ctx, k.UserID); err != nil {
			var ae *autherr.Error
			if errors.As(err, &ae) && ae.Type == autherr.AdapterError {
				return Result{Err: fmt.Errorf("%w: %w", sessions.ErrStoreUnavailable, err)}, true
			}
			f.cfg.Logger.Info("gatehouse: an API key of a user who may not sign in was refused", "step", "api-key", "key", k.ID)
			return Result{}, true
		}
	}
	if wait, err := f.limit.Reserve(ctx, id); err != nil {
		f.cfg.Logger.Error("gatehouse: the API key rate limit failed", "step", "api-key", "err", err)
		return Result{Err: fmt.Errorf("%w: %w", sessions.ErrStoreUnavailable, err)}, true
	} else if wait > 0 {
		return Result{Wait: wait}, true
	}
	held, err := f.holds(ctx, k.UserID, k.OrganizationID)
	if err != nil {
		return Result{Err: fmt.Errorf("%w: %w", sessions.ErrStoreUnavailable, err)}, true
	}
	if k.OrganizationID != "" && len(held) == 0 {
		// Its user holds nothing in the organization any more: not a
		// member. The key must not go on speaking for it.
		f.cfg.Logger.Info("gatehouse: an API key of an organization its user left was refused", "step", "api-key", "key", k.ID)
		return Result{}, true
	}
	if now.Sub(k.LastUsedAt) >= apikey.TouchInterval {
		if err := f.store.TouchAPIKey(ctx, k.ID, now); err != nil {
			f.cfg.Logger.Warn("gatehouse: recording an API key's use failed", "step", "api-key", "err", err)
		}
	}
	return Result{Principal: &apikey.Principal{KeyID: k.ID, KeyName: k.Name, UserID: k.UserID,
		OrganizationID: k.OrganizationID, Permissions: held.Intersect(k.Permissions)}}, true
}

// holds returns what userID holds in organizationID (Config.Keys.Permissions).
func (f *Flow) holds(ctx context.Context, userID, organizationID string) (permission.Set, error) {
	if f.cfg.Keys.Permissions == nil {
		return nil, nil
	}
	set, err := f.cfg.Keys.Permissions(ctx, userID, organizationID)
	if err != nil {
		f.cfg.Logger.Error("gatehouse: the Permissions function failed", "step", "api-key", "err", err)
	}
	return set, err
}

// fail answers a JSON error.
func fail(w http.ResponseWriter, status int, code string) {
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, status, map[string]string{"error": code})
}

// owner returns the user signed in with r's session cookie and when
// they signed in, or answers 401 (nobody) or 503 (the store is down).
func (f *Flow) owner(w http.ResponseWriter, r *http.Request) (string, time.Time, bool) {
	w.Header().Set("Cache-Control", "no-store")
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	id, at, err := f.cfg.CurrentUser(ctx, r)
	switch {
	case err != nil:
		f.cfg.Logger.Error("gatehouse: reading the session failed", "step", "api-keys", "err", err)
		storeDown(w)
		return "", time.Time{}, false
	case id == "":
		fail(w, http.StatusUnauthorized, string(autherr.SessionRequired))
		return "", time.Time{}, false
	}
	return id, at, true
}

// fresh reports whether a sign-in at at is within FreshAge. An unknown
// time (zero) is not fresh.
func (f *Flow) fresh(at time.Time) bool {
	return !at.IsZero() && time.Since(at) <= f.cfg.FreshAge
}

func storeDown(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "5")
	fail(w, http.StatusServiceUnavailable, string(autherr.AdapterError))
}

// post checks a POST made with a session cookie, answering 403 when it
// fails.
func (f *Flow) post(w http.ResponseWriter, r *http.Request) (url.Values, bool) {
	form, e := f.cfg.Site.CheckPost(r, "api-keys")
	if e != nil {
		w.Header().Set("Cache-Control", "no-store")
		httpx.WriteJSON(w, http.StatusForbidden, map[string]string{"error": string(e.Type), "code": e.Code})
		return nil, false
	}
	return form, true
}

// ownerPost is post, then owner: the form of a POST made with a session
// cookie and the user signed in with it, or false after answering.
func (f *Flow) ownerPost(w http.ResponseWriter, r *http.Request) (url.Values, string, bool) {
	form, ok := f.post(w, r)
	if !ok {
		return nil, "", false
	}
	userID, _, ok := f.owner(w, r)
	return form, userID, ok
}

// freshOwnerPost is ownerPost for the changes that hand out a secret
// (making and rotating a key): the user must also have signed in within
// FreshAge, or is answered 403 fresh_sign_in, as the other changes a
// stolen session cookie must not make on its own. A key goes on working
// after the user's sessions are revoked or their password is changed,
// so the cookie alone must not be enough to mint one. Revoking needs no
// fresh sign-in: it only takes power away.
func (f *Flow) freshOwnerPost(w http.ResponseWriter, r *http.Request) (url.Values, string, bool) {
	form, ok := f.post(w, r)
	if !ok {
		return nil, "", false
	}
	userID, at, ok := f.owner(w, r)
	if !ok {
		return nil, "", false
	}
	if !f.fresh(at) {
		f.cfg.Logger.Info("gatehouse: an API key change needs a fresh sign-in", "step", "api-keys", "user", userID)
		httpx.WriteJSON(w, http.StatusForbidden, map[string]string{"error": string(autherr.SessionRequired), "code": "fresh_sign_in"})
		return nil, "", false
	}
	return form, userID, true
}

// fields splits a space- or comma-separated list.
func fields(s string) []string {
	return strings.FieldsFunc(s, func(c rune) bool { return c == ' ' || c == ',' })
}

// FromEnv returns the routes of c for the Handler e describes
// (apikey.Enable).
func FromEnv(c apikey.Config, e *plugin.FeatureEnv) (*Flow, error) {
	fs := e.Finisher.Site
	return New(Config{Keys: c, Adapter: e.Adapter, Secret: e.Secret, Limits: e.Limits, Site: fs.Site,
		CurrentUser: fs.CurrentUser, FreshAge: e.FreshAge, Logger: e.Logger, Event: e.Events.APIKey,
		Admit: func(ctx context.Context, userID string) error { return fs.Sessions.Admit(ctx, userID, "api-key") }})
}

// Routes returns the routes under the base path: the keys' (a browser
// gets the keys page, pages.go), and the service tokens' and their RFC
// 8414 metadata when Keys.Tokens is set.
func (f *Flow) Routes() []plugin.Route {
	rs := []plugin.Route{{Method: http.MethodGet, Pattern: "/api-keys", Handler: f.List},
		{Method: http.MethodPost, Pattern: "/api-keys", Handler: f.form(f.Create)},
		{Method: http.MethodPost, Pattern: "/api-keys/{id}/revoke", Handler: f.form(f.Revoke)},
		{Method: http.MethodPost, Pattern: "/api-keys/{id}/rotate", Handler: f.form(f.Rotate)}}
	if f.signer != nil {
		rs = append(rs, plugin.Route{Method: http.MethodPost, Pattern: "/token", Handler: f.Token},
			plugin.Route{Method: http.MethodGet, Pattern: "/jwks", Handler: f.JWKS},
			plugin.Route{Method: http.MethodGet, Pattern: "/.well-known/oauth-authorization-server", Handler: f.Metadata})
	}
	return rs
}
