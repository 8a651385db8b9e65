package keyflow

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	apikey "github.com/gatehouse-auth/gatehouse/internal/keycore"
	"github.com/gatehouse-auth/gatehouse/permission"
)

// listed is a key as the routes show it: never its secret nor its hash.
type listed struct {
	ID             string     `json:"id"`
	Name           string     `json:"name"`
	Start          string     `json:"start"` // the key's first characters: prefix_id
	OrganizationID string     `json:"organizationId,omitempty"`
	Permissions    []string   `json:"permissions"`
	Expires        *time.Time `json:"expires,omitempty"`
	CreatedAt      time.Time  `json:"createdAt"`
	LastUsedAt     *time.Time `json:"lastUsedAt,omitempty"`
	RevokedAt      *time.Time `json:"revokedAt,omitempty"`
}

func (f *Flow) listed(k apikey.Key) listed {
	opt := func(t time.Time) *time.Time {
		if t.IsZero() {
			return nil
		}
		return &t
	}
	return listed{ID: k.ID, Name: k.Name, Start: f.cfg.Keys.Prefix + "_" + k.ID, OrganizationID: k.OrganizationID,
		Permissions: k.Permissions.Strings(), Expires: opt(k.Expires), CreatedAt: k.CreatedAt,
		LastUsedAt: opt(k.LastUsedAt), RevokedAt: opt(k.RevokedAt)}
}

// List answers GET {base}/api-keys: the signed-in user's keys, newest
// first, revoked ones included; a browser (Accept: text/html) gets the
// keys page.
func (f *Flow) List(w http.ResponseWriter, r *http.Request) {
	if httpx.AcceptsHTML(r) {
		f.page(w, r)
		return
	}
	userID, _, ok := f.owner(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	keys, err := f.store.ListAPIKeys(ctx, userID)
	if err != nil {
		f.cfg.Logger.Error("gatehouse: listing API keys failed", "step", "api-keys", "err", err)
		storeDown(w)
		return
	}
	out := make([]listed, len(keys))
	for i, k := range keys {
		out[i] = f.listed(k)
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"keys": out})
}

// made is the answer to a create or a rotation: the key, this once.
type made struct {
	Key string `json:"key"`
	listed
}

// Create answers POST {base}/api-keys {csrfToken, name, permissions,
// expiresIn, organizationId}: permissions space- or comma-separated (or
// repeated, as the page's checkboxes send them), no more than the user
// holds in the organization (permission.Grant); expiresIn in seconds (or
// expiresInDays, the page's, in days), capped by MaxLifetime. The answer
// (201) holds the key, shown this once. It needs a sign-in within
// FreshAge (freshOwnerPost): 403 fresh_sign_in otherwise.
func (f *Flow) Create(w http.ResponseWriter, r *http.Request) {
	form, userID, ok := f.freshOwnerPost(w, r)
	if !ok {
		return
	}
	name := form.Get("name")
	if apikey.CheckName(name) != nil {
		fail(w, http.StatusBadRequest, "invalid_name")
		return
	}
	want, err := permission.NewSet(fields(strings.Join(form["permissions"], " "))...)
	if err != nil {
		fail(w, http.StatusBadRequest, "invalid_permissions")
		return
	}
	now := time.Now()
	k := apikey.Key{Name: name, UserID: userID, OrganizationID: form.Get("organizationId"), Permissions: want, CreatedAt: now}
	if ttl, ok := f.expiry(form); !ok {
		fail(w, http.StatusBadRequest, "invalid_expiry")
		return
	} else if ttl > 0 {
		k.Expires = now.Add(ttl)
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	held, err := f.holds(ctx, userID, k.OrganizationID)
	if err != nil {
		storeDown(w)
		return
	}
	// Nobody hands out more than they hold; and a key speaks for an
	// organization only when its user holds something there (is a
	// member: Permissions answers nothing for anyone else).
	if permission.Grant(held, want) != nil || (k.OrganizationID != "" && len(held) == 0) {
		fail(w, http.StatusForbidden, "insufficient_permissions")
		return
	}
	var full string
	full, k.ID, k.Hash = apikey.New(f.cfg.Keys.Prefix)
	// The store counts the user's live keys and inserts in one step, so
	// MaxKeys holds across instances too.
	err = f.store.CreateAPIKey(ctx, k, f.cfg.Keys.MaxKeys)
	if !f.stored(w, err, apikey.ErrTooManyKeys, http.StatusConflict, "too_many_keys", "storing an API key") {
		return
	}
	f.cfg.Logger.Info("gatehouse: API key created", "step", "api-keys", "user", userID, "key", k.ID)
	f.event(r.Context(), apikey.Created, k)
	httpx.WriteJSON(w, http.StatusCreated, made{Key: full, listed: f.listed(k)})
}

// expiry reads the form's expiresIn (seconds), or its expiresInDays
// (the page's, in days): lifetime's answer. Both at once, or days that
// are not a number from 1 to 36500, are refused.
func (f *Flow) expiry(form url.Values) (time.Duration, bool) {
	days, secs := form.Get("expiresInDays"), form.Get("expiresIn")
	if days == "" {
		return f.lifetime(secs)
	}
	n, err := strconv.Atoi(days)
	if err != nil || n < 1 || n > 36500 || secs != "" {
		return 0, false
	}
	return f.lifetime(strconv.Itoa(n * 24 * 60 * 60))
}

// lifetime reads expiresIn (seconds): MaxLifetime when empty; ok false
// when it is not a positive number or exceeds MaxLifetime.
func (f *Flow) lifetime(s string) (time.Duration, bool) {
	max := f.cfg.Keys.MaxLifetime
	if s == "" {
		return max, true
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > int64(100*365*24*time.Hour/time.Second) {
		return 0, false
	}
	d := time.Duration(n) * time.Second
	return d, max == 0 || d <= max
}

// Revoke answers POST {base}/api-keys/{id}/revoke {csrfToken}: the key
// stops working at once, on every instance. 404 for a key that is not
// the user's, or revoked already.
func (f *Flow) Revoke(w http.ResponseWriter, r *http.Request) {
	f.change(w, r, apikey.Revoked)
}

// Rotate answers POST {base}/api-keys/{id}/rotate {csrfToken}: the key
// gets a new secret, shown in the answer this once; the old one stops at
// once, or after RotationOverlap. Like Create, it needs a sign-in within
// FreshAge: the new secret is a new credential.
func (f *Flow) Rotate(w http.ResponseWriter, r *http.Request) {
	f.change(w, r, apikey.Rotated)
}

func (f *Flow) change(w http.ResponseWriter, r *http.Request, c apikey.Change) {
	post := f.freshOwnerPost
	if c == apikey.Revoked {
		post = f.ownerPost
	}
	_, userID, ok := post(w, r)
	if !ok {
		return
	}
	id := r.PathValue("id")
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	now := time.Now()
	var full, hash string
	var err error
	if c == apikey.Revoked {
		err = f.store.RevokeAPIKey(ctx, userID, id, now)
	} else {
		full, hash = apikey.NewSecret(f.cfg.Keys.Prefix, id)
		err = f.store.RotateAPIKey(ctx, userID, id, hash, now.Add(f.cfg.Keys.RotationOverlap))
	}
	if !f.stored(w, err, adapter.ErrNotFound, http.StatusNotFound, "no_such_key", "changing an API key") {
		return
	}
	k, err := f.store.APIKey(ctx, id)
	if err != nil {
		storeDown(w)
		return
	}
	f.cfg.Logger.Info("gatehouse: API key "+string(c), "step", "api-keys", "user", userID, "key", id)
	f.event(r.Context(), c, k)
	if c == apikey.Revoked {
		httpx.WriteJSON(w, http.StatusOK, f.listed(k))
		return
	}
	httpx.WriteJSON(w, http.StatusOK, made{Key: full, listed: f.listed(k)})
}

// stored reports whether a store call that made a change succeeded;
// when not, it answers status with code for an error that is known, 503
// for another, logged as what failed.
func (f *Flow) stored(w http.ResponseWriter, err, known error, status int, code, what string) bool {
	switch {
	case err == nil:
		return true
	case errors.Is(err, known):
		fail(w, status, code)
	default:
		f.cfg.Logger.Error("gatehouse: "+what+" failed", "step", "api-keys", "err", err)
		storeDown(w)
	}
	return false
}

func (f *Flow) event(ctx context.Context, c apikey.Change, k apikey.Key) {
	if f.cfg.Event != nil {
		f.cfg.Event(ctx, apikey.Event{Change: c, KeyID: k.ID, Name: k.Name, UserID: k.UserID, OrganizationID: k.OrganizationID})
	}
}
