package adminflow

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/address"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Passwords is how the password-accounts provider hashes and checks a
// password, for the routes that set one (create, set-password); nil when
// no such provider is configured.
type Passwords struct {
	// Hash checks a password against the provider's Policy and hashes
	// it; refused names the rule it breaks ("too_short", "too_long",
	// "breached"), with no hash and no error.
	Hash func(ctx context.Context, pw string) (encoded, refused string, err error)
	// Normalize is the provider's NormalizeIdentifier: a user created with
	// a password is found by the address the sign-in form normalises.
	Normalize func(address string) (string, error)
	Store     adapter.PasswordStore
}

// hashing is a password-accounts provider (passwordaccount.Config) as
// these routes see it: how it hashes, checks and finds a password. An
// interface of plain functions, so that the routes link neither the
// provider's mail code nor package password (whose argon2 a program
// without password accounts does not need).
type hashing interface {
	Hashing() (hash func(ctx context.Context, pw string) (encoded, refused string, err error), normalize func(address string) (string, error), err error)
}

// passwordsOf returns the Passwords of the first password-accounts
// provider in list, prepared as the handler prepares it (the same
// Hasher, or argon2id with the password package's defaults when it has
// none), or nil when there is none or the adapter keeps no passwords.
func passwordsOf(list []providers.Provider, a adapter.Adapter) (*Passwords, error) {
	store, ok := a.(adapter.PasswordStore)
	if !ok || !adapter.Supports[adapter.PasswordStore](a) {
		return nil, nil
	}
	for _, p := range list {
		if h, ok := providers.Resolve(p).(hashing); ok {
			hash, normalize, err := h.Hashing()
			if err != nil {
				return nil, err
			}
			return &Passwords{Hash: hash, Normalize: normalize, Store: store}, nil
		}
	}
	return nil, nil
}

// maxName bounds a created user's name, in characters: the
// password-accounts provider's bound at sign-up (MaxNameLen).
const maxName = 100

// hash checks pw against the Policy and returns its encoded hash; a
// refusal is errBadRequest("password_" + the rule).
func (p *Passwords) hash(ctx context.Context, pw string) (string, error) {
	encoded, refused, err := p.Hash(ctx, pw)
	if refused != "" {
		return "", errBadRequest("password_" + refused)
	}
	return encoded, err
}

// CreateUser answers POST {base}/admin/users {csrfToken, email, name,
// role, password}: a new user with that address, unverified (the user
// proves it by signing in with a link or resetting the password; an
// administrator cannot vouch for it, or one with a stored role could
// make an address Config.Emails names count). password is taken only
// when the password-accounts provider is configured (400
// password_not_supported otherwise), and needs a fresh sign-in as every
// route that may make an administrator. 409 email_taken for a known
// address. Answers 201 with the user.
func (s *Routes) CreateUser(w http.ResponseWriter, r *http.Request) {
	if s.off(w, r) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	form, who, ok := s.checkPost(ctx, w, r, true)
	if !ok {
		return
	}
	now := time.Now()
	ev := admin.Event{Action: admin.ActionCreateUser, ActorID: who.id, At: now, IP: s.cfg.ClientIP(r), UserAgent: r.UserAgent()}
	u, err := s.create(ctx, form)
	var bad errBadRequest
	switch {
	case errors.As(err, &bad):
		fail(w, http.StatusBadRequest, autherr.Configuration, string(bad))
		return
	case errors.Is(err, adapter.ErrConflict):
		fail(w, http.StatusConflict, autherr.Configuration, "email_taken")
		return
	case err != nil:
		s.unavailable(w, "admin_create", err)
		return
	}
	ev.TargetID, ev.Role = u.ID, admin.Role(form.Get("role"))
	if ev.Role == "" {
		ev.Role = admin.RoleUser
	}
	if s.cfg.Event != nil {
		s.cfg.Event(r.Context(), ev)
	}
	httpx.WriteJSON(w, http.StatusCreated, s.shown(u, admin.Status{Role: ev.Role}, now))
}

// create stores the user the form describes, with its role and password;
// a user whose role or password cannot be stored is deleted again.
func (s *Routes) create(ctx context.Context, form url.Values) (adapter.User, error) {
	role := admin.Role(form.Get("role"))
	if role != "" && !role.Valid() {
		return adapter.User{}, errBadRequest("invalid_role")
	}
	name := strings.TrimSpace(form.Get("name"))
	if utf8.RuneCountInString(name) > maxName {
		return adapter.User{}, errBadRequest("name_too_long")
	}
	normalize, pw := address.Normalize, form.Get("password")
	if pw != "" && s.cfg.Passwords == nil {
		return adapter.User{}, errBadRequest("password_not_supported")
	}
	if s.cfg.Passwords != nil {
		normalize = s.cfg.Passwords.Normalize
	}
	addr, err := normalize(form.Get("email"))
	if err != nil {
		return adapter.User{}, errBadRequest("invalid_email")
	}
	var encoded string
	if pw != "" {
		if encoded, err = s.cfg.Passwords.hash(ctx, pw); err != nil {
			return adapter.User{}, err
		}
	}
	u, err := s.cfg.Adapter.CreateUser(ctx, adapter.User{Email: addr, Name: name})
	if err != nil {
		return u, err
	}
	if role == admin.RoleAdmin {
		err = s.cfg.Store.SetUserRole(ctx, u.ID, role)
	}
	if err == nil && encoded != "" {
		err = s.cfg.Passwords.Store.SetPasswordHash(ctx, u.ID, encoded)
	}
	if err != nil {
		_ = s.cfg.Store.PurgeUser(ctx, u.ID) // no half-made user
		return adapter.User{}, err
	}
	return u, nil
}

// setPassword answers POST {base}/admin/users/{id}/set-password
// {csrfToken, password, keepSessions}: the user's password is replaced
// (or set, for a user who had none), hashed as the password-accounts
// provider hashes, after its Policy agrees. 404 without that provider.
// Then every session of the user ends, JWT sessions included, as
// revoke-sessions ends them: an administrator sets a password most often
// after an account was taken over, and a session the taker signed in
// with must not outlive the password it was signed in with. keepSessions
// ("1") keeps them.
func (s *Routes) setPassword(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Passwords == nil {
		s.cfg.NotFound(w, r)
		return
	}
	s.run(w, r, action{name: admin.ActionSetPassword, fresh: true,
		do: func(ctx context.Context, form url.Values, u adapter.User, e *admin.Event) error {
			encoded, err := s.cfg.Passwords.hash(ctx, form.Get("password"))
			if err != nil {
				return err
			}
			if err := s.cfg.Passwords.Store.SetPasswordHash(ctx, u.ID, encoded); err != nil {
				return err
			}
			if k := form.Get("keepSessions"); k == "1" || k == "true" {
				return nil
			}
			// After the new password is stored: a sign-in with the old one
			// that made a session before this point ends here, and none
			// can after it.
			if err := s.cfg.Store.RevokeSessions(ctx, u.ID, time.Now()); err != nil {
				return err
			}
			return s.endSessions(ctx, u.ID, e)
		}})
}

// sessionID is how the routes name a database session: derived from its
// stored hash, as the user's own session routes derive it, so that
// neither the token nor the hash leaves the server.
func sessionID(tokenHash string) string {
	sum := sha256.Sum256([]byte("gatehouse session id\x00" + tokenHash))
	return hex.EncodeToString(sum[:12])
}

// revokeSession answers POST {base}/admin/users/{id}/revoke-session
// {csrfToken, id}: the user's database session of that id (as the user's
// page lists it) ends. 404 no_such_session for another id; 404 with JWT
// sessions, which cannot be ended one by one (revoke-sessions ends them
// all).
func (s *Routes) revokeSession(w http.ResponseWriter, r *http.Request) {
	lister, ok := s.cfg.Adapter.(adapter.SessionLister)
	if !ok || !s.cfg.DatabaseSessions {
		s.cfg.NotFound(w, r)
		return
	}
	s.run(w, r, action{name: admin.ActionRevokeSession,
		do: func(ctx context.Context, form url.Values, u adapter.User, e *admin.Event) error {
			list, err := lister.ListSessions(ctx, u.ID)
			if err != nil {
				return err
			}
			for _, x := range list {
				if sessionID(x.Token) != form.Get("id") {
					continue
				}
				if _, err := s.cfg.Adapter.DeleteSession(ctx, x.Token); err != nil && !errors.Is(err, adapter.ErrNotFound) {
					return err
				}
				e.Sessions = 1
				return nil
			}
			return errNoSession
		}})
}

// errNoSession is a revoke-session of an id the user has no session of.
var errNoSession = errors.New("no_such_session")
