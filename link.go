package gatehouse

import (
	"cmp"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/sessioncookie"
	"github.com/gatehouse-auth/gatehouse/pages"
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
	// callbackURL, when set, is where to go afterwards (e-mail links and
	// credentials forms carry it); else the callback-url cookie says.
	callbackURL string
	// persist, when set, stores the sign-in instead of the linking rules
	// of linkUser (passkeys, passkey.go); it returns the stored user and
	// whether it is new.
	persist func(ctx context.Context) (profile.User, bool, error)
	// unbound marks a sign-in that proves who the user is but not that
	// this browser session started it (credentials, e-mail links, passkey
	// authentication): it never links into a signed-in user, nor replaces
	// that user's session with another's (link.go checkSameUser).
	unbound bool
}

// finishSignIn runs the SignIn callback, finds, creates or links the user
// (with an adapter), issues a fresh session and redirects.
func (h *Handler) finishSignIn(w http.ResponseWriter, r *http.Request, b *base, res signInResult) error {
	ctx := r.Context()
	prov := res.account.Provider
	if p, ok := h.oauthProvider(prov); ok {
		res.allowDangerousLinking = p.Config().AllowDangerousEmailAccountLinking
	}
	if cb := h.cfg.Callbacks.SignIn; cb != nil {
		allow, to, err := cb(ctx, SignInParams{User: res.user, Account: res.account, Profile: res.profile, Request: r})
		if err != nil {
			return autherr.Wrap(err, AccessDenied, "signin_callback", prov, "signIn callback")
		}
		if !allow {
			return autherr.New(AccessDenied, "signin_callback", prov, "signIn callback", errors.New("the SignIn callback refused"))
		}
		if to != "" {
			if safe := h.callbackURL(b, to, r); safe != "" {
				b.cookies.Set(w, b.cookies.CallbackURL, safe, time.Time{})
				res.callbackURL = safe
			}
		}
	}

	if res.unbound {
		if err := h.checkSameUser(ctx, r, b, res); err != nil {
			return err
		}
	}
	// Every adapter call below is bounded: a stalled database fails the
	// sign-in (AdapterError, 503) instead of holding the request.
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	user, isNew := res.user, false
	if h.cfg.Adapter == nil {
		// No database: the id is the provider's subject, scoped by the
		// provider so two providers' subjects never collide (ASVS 6.8.1).
		// It is stable across sign-ins, unlike Auth.js's random UUIDs.
		user.ID = prov + ":" + res.user.ID
	} else if res.persist != nil {
		stored, created, err := res.persist(ctx)
		if err != nil {
			return err
		}
		user, isNew = stored, created
	} else {
		link := h.linkUser
		if res.account.Type == account.TypeEmail {
			link = func(ctx context.Context, _ *http.Request, _ *base, res signInResult) (profile.User, bool, error) {
				return h.linker().EmailUser(ctx, res.account.Provider, res.user)
			}
		}
		stored, created, err := link(ctx, r, b, res)
		if err != nil {
			return err
		}
		user, isNew = stored, created
	}

	if err := h.issueSession(ctx, w, r, b, user, res, isNew); err != nil {
		return err
	}
	if ev := h.cfg.Events.SignIn; ev != nil {
		ev(r.Context(), user, res.account, isNew)
	}
	target := h.callbackURL(b, cmp.Or(res.callbackURL, sessioncookie.Value(r, b.cookies.CallbackURL)), r)
	if isNew && h.cfg.Pages.NewUser != "" {
		target = h.cfg.Pages.NewUser + "?callbackUrl=" + urlQueryEscape(target)
	}
	h.redirect(w, r, target)
	return nil
}

// linkUser applies the linking rules (internal/accountlink) to res, for
// the user signed in on r, if any.
func (h *Handler) linkUser(ctx context.Context, r *http.Request, b *base, res signInResult) (profile.User, bool, error) {
	current, err := h.currentUserID(ctx, r, b)
	if err != nil {
		return profile.User{}, false, autherr.New(AdapterError, "adapter", res.account.Provider, "session", err)
	}
	return h.linker().Link(ctx, accountlink.SignIn{User: res.user, Account: *res.account, Profile: res.profile,
		AllowDangerousLinking: res.allowDangerousLinking, Current: current})
}

// linker is the account linking of h's adapter and events.
func (h *Handler) linker() accountlink.Linker {
	return accountlink.Linker{Adapter: h.cfg.Adapter, CreateUser: h.cfg.Events.CreateUser,
		LinkAccount: h.cfg.Events.LinkAccount, UnlinkAccount: h.cfg.Events.UnlinkAccount}
}

// currentUserID returns the id of the stored user signed in on r, or ""
// when nobody is (no session, an expired or unknown one, or a user who no
// longer exists). A failing adapter is an error, not "nobody": linking a
// new account must not fall back to creating a user because the session
// could not be read.
func (h *Handler) currentUserID(ctx context.Context, r *http.Request, b *base) (string, error) {
	raw, _ := sessioncookie.ReadChunked(r, b.cookies.Session)
	if raw == "" {
		return "", nil
	}
	if h.cfg.Session.Strategy == StrategyDatabase {
		s, u, err := h.cfg.Adapter.GetSessionAndUser(ctx, hashToken(raw))
		switch {
		case errors.Is(err, adapter.ErrNotFound):
			return "", nil
		case err != nil:
			return "", err
		case time.Now().After(s.Expires):
			return "", nil
		}
		return u.ID, nil
	}
	t, err := h.sessions[b.cookies.Secure].Decode(raw, time.Now())
	if err != nil {
		return "", nil
	}
	if h.cfg.Adapter == nil {
		return t.Subject, nil
	}
	// JWT strategy with an adapter: the subject is a stored user's id
	// (Auth.js: jwt.decode then getUser).
	u, err := h.cfg.Adapter.GetUser(ctx, t.Subject)
	switch {
	case errors.Is(err, adapter.ErrNotFound):
		return "", nil
	case err != nil:
		return "", err
	}
	return u.ID, nil
}

// Binding a sign-in to the browser that started it.
//
// An attacker who controls a browser can start a sign-in with their own
// provider account, stop before the callback, plant their check cookie
// in a victim's browser (cookie tossing from a plain-http page or a
// sibling subdomain) and send the victim to the callback URL. Without a
// binding the victim's signed-in user would get the attacker's provider
// account linked, or a signed-out victim would be signed in as the
// attacker (login CSRF; RFC 9700 §4.7, OAuth 2.0 Security BCP).
//
// So the check cookie records who started the flow (checks.Transaction's
// Binding): a digest of the session the browser held, and a digest of the
// browser's CSRF cookie, a secret only that browser has. The attacker can
// write cookies into the victim's browser but cannot read them, so a
// planted check cookie carries the attacker's digests, not the victim's.
// On https the cookies are also __Host- cookies, which no other origin can
// write at all.

// bindingLen is the length of one digest of a binding: 96 bits, base64url
// (16 characters). The digests only need to be unguessable for a value
// the attacker cannot read (a session token, a CSRF cookie: 256 bits).
const bindingLen = 16

// binding returns the browser binding of r: the digest of its session
// identity, then the digest of its CSRF cookie. The cookie is taken as it
// is: a forged one cannot pass the CSRF check that every sign-in start
// makes, and its digest matches only the same cookie.
func (h *Handler) binding(r *http.Request, b *base) string {
	var out [2 * bindingLen]byte
	h.sessionDigest(out[:bindingLen], r, b)
	digest(out[bindingLen:], "gatehouse browser\x00", sessioncookie.Value(r, b.cookies.CSRF))
	return string(out[:])
}

// digest writes the base64url of the first 96 bits of SHA-256 over label
// and parts into dst, without allocating for values of usual size.
func digest(dst []byte, label string, parts ...string) {
	var buf [512]byte
	in := append(buf[:0], label...)
	for _, p := range parts {
		in = append(append(in, p...), 0)
	}
	sum := sha256.Sum256(in)
	base64.RawURLEncoding.Encode(dst, sum[:12])
}

// sessionDigest writes the digest of the session r's cookie holds into
// dst: of the token for a database session; for a JWT session of its jti
// and subject, which stay the same when the cookie is re-sealed to roll
// its expiry; of "no session" when there is none (or none readable).
// Nothing is read from the database.
func (h *Handler) sessionDigest(dst []byte, r *http.Request, b *base) {
	raw := sessioncookie.ChunkedValue(r, b.cookies.Session)
	switch {
	case raw == "":
	case h.cfg.Session.Strategy == StrategyDatabase:
		digest(dst, "gatehouse session database\x00", raw)
		return
	default:
		if t, err := h.sessions[b.cookies.Secure].Decode(raw, time.Now()); err == nil {
			digest(dst, "gatehouse session jwt\x00", t.ID, t.Subject)
			return
		}
	}
	digest(dst, "gatehouse no session\x00")
}

// checkBinding compares the binding recorded when a sign-in started
// with the browser finishing it. A different session is
// AccountLinkMismatch: the sign-in never links into, nor replaces, the
// session this browser holds. The same session in a different browser is
// InvalidCheck (browser_mismatch): a login CSRF attempt. A binding of one
// digest (passkey ceremonies, which are same-origin requests) names the
// session only.
func (h *Handler) checkBinding(r *http.Request, b *base, provider, recorded string) error {
	now := h.binding(r, b)
	if len(recorded) != bindingLen && len(recorded) != 2*bindingLen {
		return autherr.New(InvalidCheck, "browser_mismatch", provider, "binding", errors.New("the check cookie records no browser binding"))
	}
	if subtle.ConstantTimeCompare([]byte(recorded[:bindingLen]), []byte(now[:bindingLen])) != 1 {
		return autherr.New(AccountLinkMismatch, "session_mismatch", provider, "binding", errors.New("the sign-in was started by another session or browser; the current session is left as it was"))
	}
	if len(recorded) == 2*bindingLen && subtle.ConstantTimeCompare([]byte(recorded[bindingLen:]), []byte(now[bindingLen:])) != 1 {
		return autherr.New(InvalidCheck, "browser_mismatch", provider, "binding", errors.New("the sign-in was started in another browser"))
	}
	return nil
}

// checkSameUser guards a sign-in that proves who the user is but cannot
// prove it began in this browser session (credentials, e-mail links,
// passkey authentication): when a user is signed in, the sign-in must be
// for that same user. It never links a new account into the signed-in
// user and never silently replaces their session with someone else's.
// It reads only, before anything is created.
func (h *Handler) checkSameUser(ctx context.Context, r *http.Request, b *base, res signInResult) error {
	current, err := h.currentUserID(ctx, r, b)
	if err != nil {
		return autherr.New(AdapterError, "adapter", res.account.Provider, "session", err)
	}
	if current == "" {
		return nil
	}
	target, err := h.targetUserID(ctx, res)
	if err != nil {
		return autherr.New(AdapterError, "adapter", res.account.Provider, "session", err)
	}
	if target != current {
		return autherr.New(AccountLinkMismatch, "signed_in_as_other_user", res.account.Provider, "binding", errors.New("a sign-in for another user (or a new one) arrived while a user is signed in; nothing was linked and the session is left as it was"))
	}
	return nil
}

// targetUserID returns the id of the user res would sign in, "" when it
// would create one.
func (h *Handler) targetUserID(ctx context.Context, res signInResult) (string, error) {
	a := h.cfg.Adapter
	acct := res.account
	if a == nil {
		return acct.Provider + ":" + res.user.ID, nil
	}
	if acct.UserID != "" {
		return acct.UserID, nil
	}
	var u adapter.User
	var err error
	if acct.Type == account.TypeEmail {
		u, err = a.GetUserByEmail(ctx, res.user.Email)
	} else {
		u, err = a.GetUserByAccount(ctx, acct.Provider, acct.ProviderAccountID)
	}
	if errors.Is(err, adapter.ErrNotFound) {
		return "", nil
	}
	return u.ID, err
}

// accountsJSON answers GET {base}/accounts: the accounts linked to the
// signed-in user, by provider (never their tokens). To link another,
// sign in with it while signed in (bound to this session: finishSignIn).
func (h *Handler) accountsJSON(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	userID, ok := h.accountOwner(w, r, b)
	if !ok {
		return
	}
	ctx, cancel := withTimeout(r.Context())
	defer cancel()
	accts, err := h.cfg.Adapter.ListAccounts(ctx, userID)
	if err != nil {
		h.cfg.Logger.Error("gatehouse: listing accounts failed", "step", "accounts", "err", err)
		storeUnavailableJSON(w)
		return
	}
	type linked struct {
		Provider          string       `json:"provider"`
		Name              string       `json:"name,omitempty"`
		Type              account.Type `json:"type"`
		ProviderAccountID string       `json:"providerAccountId"`
	}
	out := make([]linked, 0, len(accts))
	for _, a := range accts {
		l := linked{Provider: a.Provider, Type: a.Type, ProviderAccountID: a.ProviderAccountID}
		if f, ok := h.flows[a.Provider]; ok {
			l.Name = f.info().Name
		}
		out = append(out, l)
	}
	writeJSON(w, http.StatusOK, out)
}

// unlinkAccount answers POST {base}/accounts/unlink/{provider}
// {csrfToken}: the signed-in user's account at provider is removed,
// unless it is the last way to sign in (409 last_way).
func (h *Handler) unlinkAccount(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	prov := r.PathValue("provider")
	if _, ok := h.jsonPost(w, r, b); !ok {
		return
	}
	userID, ok := h.accountOwner(w, r, b)
	if !ok {
		return
	}
	ctx, cancel := withTimeout(r.Context())
	defer cancel()
	others, err := h.otherWays(ctx, userID)
	if err == nil {
		_, err = h.linker().Unlink(ctx, userID, prov, others)
	}
	switch {
	case errors.Is(err, adapter.ErrNotFound):
		writeJSON(w, http.StatusNotFound, map[string]string{"error": string(AccountNotLinked), "code": "not_linked"})
	case errors.Is(err, accountlink.ErrLastWay):
		writeJSON(w, http.StatusConflict, map[string]string{"error": string(AccountNotLinked), "code": "last_way"})
	case err != nil:
		h.cfg.Logger.Error("gatehouse: unlinking an account failed", "provider", prov, "step", "accounts", "err", err)
		storeUnavailableJSON(w)
	default:
		h.cfg.Logger.Info("gatehouse: account unlinked", "provider", prov, "user", userID)
		writeJSON(w, http.StatusOK, map[string]string{"unlinked": prov})
	}
}

// accountOwner returns the signed-in user's id for the account routes,
// or answers for them: 501 without an adapter, 401 when nobody is
// signed in, 503 when the store is down.
func (h *Handler) accountOwner(w http.ResponseWriter, r *http.Request, b *base) (string, bool) {
	w.Header().Set("Cache-Control", "no-store")
	if h.cfg.Adapter == nil {
		writeJSON(w, http.StatusNotImplemented, map[string]string{"error": string(Configuration), "code": "no_adapter"})
		return "", false
	}
	ctx, cancel := withTimeout(r.Context())
	defer cancel()
	id, err := h.currentUserID(ctx, r, b)
	switch {
	case err != nil:
		h.cfg.Logger.Error("gatehouse: reading the session failed", "step", "accounts", "err", err)
		storeUnavailableJSON(w)
		return "", false
	case id == "":
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": string(SessionRequired)})
		return "", false
	}
	return id, true
}

// otherWays counts the ways to sign in that are not linked accounts: the
// user's passkeys, and an e-mail provider for the user's address.
func (h *Handler) otherWays(ctx context.Context, userID string) (int, error) {
	n := 0
	for _, id := range h.order {
		switch f := h.flows[id].(type) {
		case *passkeyRuntime:
			keys, err := f.store.ListAuthenticatorsByUserID(ctx, userID)
			if err != nil {
				return 0, err
			}
			n += len(keys)
		case *emailRuntime:
			u, err := h.cfg.Adapter.GetUser(ctx, userID)
			if err != nil {
				return 0, err
			}
			if u.Email != "" {
				n++
			}
		}
	}
	return n, nil
}

// sessionID is how the session routes name a database session: derived
// from its stored hash, so that neither the token nor the hash leaves the
// server.
func sessionID(tokenHash string) string {
	sum := sha256.Sum256([]byte("gatehouse session id\x00" + tokenHash))
	return hex.EncodeToString(sum[:12])
}

// userSessions returns the signed-in user's id and sessions, and the hash
// of this browser's session token, or answers for the session routes
// (accountOwner's answers; 501 for JWT sessions or an adapter that
// cannot list).
func (h *Handler) userSessions(w http.ResponseWriter, r *http.Request, b *base) (string, []adapter.Session, string, bool) {
	lister, ok := h.cfg.Adapter.(adapter.SessionLister)
	if h.cfg.Session.Strategy != StrategyDatabase || !ok {
		w.Header().Set("Cache-Control", "no-store")
		writeJSON(w, http.StatusNotImplemented, map[string]string{"error": string(Configuration), "code": "not_listable",
			"reason": "JWT sessions live in their cookies and cannot be listed or ended one by one (rotate the secret to end them all); database sessions need an adapter.SessionLister"})
		return "", nil, "", false
	}
	userID, ok := h.accountOwner(w, r, b)
	if !ok {
		return "", nil, "", false
	}
	ctx, cancel := withTimeout(r.Context())
	defer cancel()
	list, err := lister.ListSessions(ctx, userID)
	if err != nil {
		h.cfg.Logger.Error("gatehouse: listing sessions failed", "step", "sessions", "err", err)
		storeUnavailableJSON(w)
		return "", nil, "", false
	}
	raw, _ := sessioncookie.ReadChunked(r, b.cookies.Session)
	return userID, list, hashToken(raw), true
}

// sessionsJSON answers GET {base}/sessions: the signed-in user's
// sessions, this browser's marked current.
func (h *Handler) sessionsJSON(w http.ResponseWriter, r *http.Request) {
	_, list, current, ok := h.userSessions(w, r, h.baseFor(r))
	if !ok {
		return
	}
	type listed struct {
		ID       string    `json:"id"`
		Provider string    `json:"provider,omitempty"`
		Expires  time.Time `json:"expires"`
		Current  bool      `json:"current"`
	}
	now := time.Now()
	out := make([]listed, 0, len(list))
	for _, s := range list {
		if now.After(s.Expires) {
			continue
		}
		out = append(out, listed{ID: sessionID(s.Token), Provider: s.Provider, Expires: s.Expires.UTC(), Current: s.Token == current})
	}
	if !wantsHTML(r) {
		writeJSON(w, http.StatusOK, out)
		return
	}
	// A browser: the built-in page, this browser's session first.
	b := h.baseFor(r)
	page := pages.Sessions{Theme: h.cfg.Theme, CSRFToken: h.csrfToken(w, r, b), HomeURL: b.origin + "/",
		RevokeURL: b.url("sessions", "revoke"), RevokeOthersURL: b.url("sessions", "revoke-others")}
	slices.SortStableFunc(out, func(x, y listed) int {
		switch {
		case x.Current == y.Current:
			return 0
		case x.Current:
			return -1
		}
		return 1
	})
	for _, s := range out {
		page.Sessions = append(page.Sessions, pages.SessionRow{ID: s.ID, Provider: s.Provider,
			Expires: s.Expires.Format("2006-01-02 15:04 UTC"), Current: s.Current})
	}
	h.render(w, http.StatusOK, page)
}

// wantsHTML reports whether r is a browser's navigation (a page or a
// form), which gets pages and redirects rather than JSON.
func wantsHTML(r *http.Request) bool { return strings.Contains(r.Header.Get("Accept"), "text/html") }

// revokeSessions answers POST {base}/sessions/revoke {csrfToken, id}
// (one session; this browser's signs it out) and POST
// {base}/sessions/revoke-others {csrfToken} (every session but this
// browser's).
func (h *Handler) revokeSessions(w http.ResponseWriter, r *http.Request) {
	b := h.baseFor(r)
	form, ok := h.jsonPost(w, r, b)
	if !ok {
		return
	}
	userID, list, current, ok := h.userSessions(w, r, b)
	if !ok {
		return
	}
	others := strings.HasSuffix(r.URL.Path, "/revoke-others")
	ctx, cancel := withTimeout(r.Context())
	defer cancel()
	n, signedOut := 0, false
	ends := func(s adapter.Session) bool {
		if others {
			return s.Token != current
		}
		return sessionID(s.Token) == form.Get("id")
	}
	for _, s := range list {
		if !ends(s) {
			continue
		}
		if _, err := h.cfg.Adapter.DeleteSession(ctx, s.Token); err != nil && !errors.Is(err, adapter.ErrNotFound) {
			h.cfg.Logger.Error("gatehouse: revoking a session failed", "step", "sessions", "err", err)
			storeUnavailableJSON(w)
			return
		}
		n++
		signedOut = signedOut || s.Token == current
	}
	if !others && n == 0 {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": string(SessionRequired), "code": "no_such_session"})
		return
	}
	if signedOut {
		b.cookies.ClearChunked(w, r, b.cookies.Session)
		h.clearCookieCache(w, r, b)
	}
	h.cfg.Logger.Info("gatehouse: sessions revoked", "step", "sessions", "user", userID, "sessions", n)
	if ev := h.cfg.Events.RevokeSessions; ev != nil && n > 0 {
		if u, err := h.cfg.Adapter.GetUser(ctx, userID); err == nil {
			ev(r.Context(), accountlink.ToProfile(u), n)
		}
	}
	if wantsHTML(r) && !signedOut {
		h.redirect(w, r, b.url("sessions")) // back to the page (303)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"revoked": n})
}

// jsonPost checks a state-changing POST of the JSON routes (accounts,
// sessions) as checkPost does, answering 403 when it fails. It returns the
// form.
func (h *Handler) jsonPost(w http.ResponseWriter, r *http.Request, b *base) (url.Values, bool) {
	form, err := h.checkPost(r, b, "accounts")
	if err != nil {
		writeJSON(w, http.StatusForbidden, map[string]string{"error": string(err.Type), "code": err.Code})
		return nil, false
	}
	return form, true
}
