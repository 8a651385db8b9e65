package gatehouse

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// signInResult is what a provider flow proved: who, through which
// account, with which profile.
type signInResult struct {
	user       profile.User
	account    *account.Account
	profile    any
	fullTokens account.TokenSet
	// allowDangerousLinking is the provider's AllowDangerousEmailAccountLinking.
	allowDangerousLinking bool
}

// finishSignIn runs the SignIn callback, finds, creates or links the user
// (with an adapter), issues a fresh session and redirects.
func (h *Handler) finishSignIn(w http.ResponseWriter, r *http.Request, b *base, res signInResult) error {
	ctx := r.Context()
	prov := res.account.Provider
	if p, ok := h.oauth[prov]; ok {
		res.allowDangerousLinking = p.cfg.AllowDangerousEmailAccountLinking
	}
	if cb := h.cfg.Callbacks.SignIn; cb != nil {
		allow, to, err := cb(ctx, SignInParams{User: res.user, Account: res.account, Profile: res.profile, Request: r})
		if err != nil {
			return asError(err, AccessDenied, "signin_callback", prov, "signIn callback")
		}
		if !allow {
			return &Error{Type: AccessDenied, Code: "signin_callback", Provider: prov, Step: "signIn callback", Err: errors.New("the SignIn callback refused")}
		}
		if to != "" {
			if safe := h.callbackURL(b, to, r); safe != "" {
				b.cookies.set(w, b.cookies.callbackURL, safe, time.Time{})
			}
		}
	}

	user, isNew := res.user, false
	if h.cfg.Adapter == nil {
		// No database: the id is the provider's subject, scoped by the
		// provider so two providers' subjects never collide (ASVS 6.8.1).
		// It is stable across sign-ins, unlike Auth.js's random UUIDs.
		user.ID = prov + ":" + res.user.ID
	} else {
		stored, created, err := h.linkUser(ctx, r, b, res)
		if err != nil {
			return err
		}
		user, isNew = stored, created
	}

	if err := h.issueSession(ctx, w, r, b, user, res, isNew); err != nil {
		return err
	}
	if ev := h.cfg.Events.SignIn; ev != nil {
		ev(ctx, user, res.account, isNew)
	}
	target := h.callbackURL(b, cookieValue(r, b.cookies.callbackURL), r)
	if isNew && h.cfg.Pages.NewUser != "" {
		target = h.cfg.Pages.NewUser + "?callbackUrl=" + urlQueryEscape(target)
	}
	h.redirect(w, r, target)
	return nil
}

// linkUser applies the linking rules (spec §2.3, §5.5; authjs.md §7.3).
func (h *Handler) linkUser(ctx context.Context, r *http.Request, b *base, res signInResult) (profile.User, bool, error) {
	a := h.cfg.Adapter
	acct := *res.account
	prov := acct.Provider
	fail := func(t ErrorType, code string, err error) (profile.User, bool, error) {
		return profile.User{}, false, &Error{Type: t, Code: code, Provider: prov, Step: "link", Err: err}
	}
	adapterFail := func(err error) (profile.User, bool, error) { return fail(AdapterError, "adapter", err) }
	current := h.currentUserID(ctx, r, b)

	found, err := a.GetUserByAccount(ctx, prov, acct.ProviderAccountID)
	switch {
	case err == nil:
		if current != "" && current != found.ID {
			return fail(OAuthAccountNotLinked, "linked_to_other_user", errors.New("this account is already linked to another user"))
		}
		acct.UserID = found.ID
		// Keep the stored tokens current: Auth.js never updates them.
		if err := a.UpdateAccount(ctx, acct); err != nil {
			return adapterFail(err)
		}
		return toProfile(found), false, nil
	case !errors.Is(err, adapter.ErrNotFound):
		return adapterFail(err)
	}

	// A new account. Signed in: link it to the current user, the only safe
	// way to link.
	if current != "" {
		acct.UserID = current
		if err := a.LinkAccount(ctx, acct); err != nil {
			return adapterFail(err)
		}
		u, err := a.GetUser(ctx, current)
		if err != nil {
			return adapterFail(err)
		}
		if ev := h.cfg.Events.LinkAccount; ev != nil {
			ev(ctx, toProfile(u), acct)
		}
		return toProfile(u), false, nil
	}
	if res.user.Email != "" {
		existing, err := a.GetUserByEmail(ctx, res.user.Email)
		switch {
		case err == nil && res.allowDangerousLinking:
			acct.UserID = existing.ID
			if err := a.LinkAccount(ctx, acct); err != nil {
				return adapterFail(err)
			}
			if ev := h.cfg.Events.LinkAccount; ev != nil {
				ev(ctx, toProfile(existing), acct)
			}
			return toProfile(existing), false, nil
		case err == nil:
			return fail(OAuthAccountNotLinked, "email_in_use", errors.New("another account already uses this e-mail address"))
		case !errors.Is(err, adapter.ErrNotFound):
			return adapterFail(err)
		}
	}
	// A new user, created with its account in one transaction.
	nu := adapter.User{Name: res.user.Name, Email: res.user.Email, Image: res.user.Image, EmailVerified: res.user.EmailVerified}
	created, err := a.CreateUserWithAccount(ctx, nu, acct)
	if errors.Is(err, adapter.ErrConflict) {
		// A concurrent first sign-in of the same person won the race.
		if u, err2 := a.GetUserByAccount(ctx, prov, acct.ProviderAccountID); err2 == nil {
			return toProfile(u), false, nil
		}
		return fail(OAuthAccountNotLinked, "email_in_use", err)
	}
	if err != nil {
		return adapterFail(err)
	}
	acct.UserID = created.ID
	if ev := h.cfg.Events.CreateUser; ev != nil {
		ev(ctx, toProfile(created))
	}
	if ev := h.cfg.Events.LinkAccount; ev != nil {
		ev(ctx, toProfile(created), acct)
	}
	return toProfile(created), true, nil
}

func toProfile(u adapter.User) profile.User {
	return profile.User{ID: u.ID, Name: u.Name, Email: u.Email, Image: u.Image, EmailVerified: u.EmailVerified}
}

// currentUserID returns the id of the user signed in on r, or "".
func (h *Handler) currentUserID(ctx context.Context, r *http.Request, b *base) string {
	if h.cfg.Session.Strategy == StrategyDatabase {
		raw, _ := readChunked(r, b.cookies.session)
		if raw == "" {
			return ""
		}
		s, u, err := h.cfg.Adapter.GetSessionAndUser(ctx, hashToken(raw))
		if err != nil || time.Now().After(s.Expires) {
			return ""
		}
		return u.ID
	}
	raw, _ := readChunked(r, b.cookies.session)
	t, err := h.sessions[b.cookies.secure].decode(raw, time.Now())
	if err != nil {
		return ""
	}
	return t.Subject
}

// hashToken is how database session tokens are stored: a leaked table
// gives no usable session.
func hashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

// issueSession writes a new session for user: a new token every time, so a
// session id is never carried across a sign-in (ASVS 7.2.4).
func (h *Handler) issueSession(ctx context.Context, w http.ResponseWriter, r *http.Request, b *base, user profile.User, res signInResult, isNew bool) error {
	now := time.Now()
	expires := now.Add(h.cfg.Session.MaxAge)
	prov := res.account.Provider
	if h.cfg.Session.Strategy == StrategyDatabase {
		if old, _ := readChunked(r, b.cookies.session); old != "" {
			_, _ = h.cfg.Adapter.DeleteSession(ctx, hashToken(old))
		}
		raw := randomToken()
		if _, err := h.cfg.Adapter.CreateSession(ctx, adapter.Session{Token: hashToken(raw), UserID: user.ID, Expires: expires}); err != nil {
			return &Error{Type: AdapterError, Code: "adapter", Provider: prov, Step: "session", Err: err}
		}
		b.cookies.writeChunked(w, r, b.cookies.session, raw, expires)
		return nil
	}
	tok := Token{Subject: user.ID, Name: user.Name, Email: user.Email, Picture: user.Image,
		IssuedAt: now.Unix(), Expires: expires.Unix(), ID: randomHex(16), Provider: prov}
	if cb := h.cfg.Callbacks.JWT; cb != nil {
		trigger := "signIn"
		if isNew {
			trigger = "signUp"
		}
		out, err := cb(ctx, JWTParams{Token: tok, User: &user, Account: res.account, Profile: res.profile, Trigger: trigger, IsNewUser: isNew})
		if err != nil {
			return asError(err, CallbackRouteError, "jwt_callback", prov, "jwt callback")
		}
		if out == nil {
			return &Error{Type: AccessDenied, Code: "jwt_callback", Provider: prov, Step: "jwt callback", Err: errors.New("the JWT callback returned no token")}
		}
		tok = *out
		tok.IssuedAt, tok.Expires = now.Unix(), expires.Unix()
	}
	sealed, err := h.sessions[b.cookies.secure].encode(tok)
	if err != nil {
		return &Error{Type: Configuration, Code: "seal", Provider: prov, Step: "session", Err: err}
	}
	b.cookies.writeChunked(w, r, b.cookies.session, sealed, expires)
	return nil
}

// readSession returns the session of r, or nil. An unreadable, expired or
// unknown session clears the cookie. The session's expiry is pushed
// forward at most once per UpdateAge, not on every request.
func (h *Handler) readSession(w http.ResponseWriter, r *http.Request, b *base) *Session {
	raw, _ := readChunked(r, b.cookies.session)
	if raw == "" {
		return nil
	}
	now := time.Now()
	maxAge, updateAge := h.cfg.Session.MaxAge, h.cfg.Session.UpdateAge
	if h.cfg.Session.Strategy == StrategyDatabase {
		ctx, cancel := withTimeout(r.Context())
		defer cancel()
		s, u, err := h.cfg.Adapter.GetSessionAndUser(ctx, hashToken(raw))
		if err != nil {
			if errors.Is(err, adapter.ErrNotFound) {
				b.cookies.clearChunked(w, r, b.cookies.session)
			} else {
				h.cfg.Logger.Error("gatehouse: reading a database session failed", "step", "session", "err", err)
			}
			return nil
		}
		if now.After(s.Expires) {
			_, _ = h.cfg.Adapter.DeleteSession(ctx, s.Token)
			b.cookies.clearChunked(w, r, b.cookies.session)
			return nil
		}
		if s.Expires.Add(-maxAge).Add(updateAge).Before(now) {
			if ns, err := h.cfg.Adapter.UpdateSession(ctx, s.Token, now.Add(maxAge)); err == nil {
				s = ns
				b.cookies.writeChunked(w, r, b.cookies.session, raw, s.Expires)
			}
		}
		sess := &Session{User: toProfile(u), Expires: s.Expires}
		return h.shapeSession(r.Context(), sess, nil, &u)
	}
	codec := h.sessions[b.cookies.secure]
	t, err := codec.decode(raw, now)
	if err != nil {
		b.cookies.clearChunked(w, r, b.cookies.session)
		return nil
	}
	if time.Unix(t.IssuedAt, 0).Add(updateAge).Before(now) {
		t.IssuedAt, t.Expires = now.Unix(), now.Add(maxAge).Unix()
		if sealed, err := codec.encode(t); err == nil {
			b.cookies.writeChunked(w, r, b.cookies.session, sealed, time.Unix(t.Expires, 0))
		}
	}
	sess := &Session{User: profile.User{ID: t.Subject, Name: t.Name, Email: t.Email, Image: t.Picture}, Expires: time.Unix(t.Expires, 0)}
	return h.shapeSession(r.Context(), sess, &t, nil)
}

func (h *Handler) shapeSession(ctx context.Context, s *Session, t *Token, u *adapter.User) *Session {
	cb := h.cfg.Callbacks.Session
	if cb == nil {
		return s
	}
	out, err := cb(ctx, SessionParams{Session: *s, Token: t, User: u})
	if err != nil || out == nil {
		if err != nil {
			h.cfg.Logger.Error("gatehouse: the Session callback failed", "err", err)
		}
		return nil
	}
	return out
}
