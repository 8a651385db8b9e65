package site

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/admincore"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/logburst"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
)

// Site is the site as every route sees it: where a request comes from
// (the Resolver), the checks every state-changing request passes (same
// origin, the CSRF token, the rate limit), and the answers that tell a
// browser what happened (the built-in pages, failures, redirects). Its
// methods are keyed on the request, so that the flows outside the root
// package use them as they are (each flow's Host interface).
type Site struct {
	*Resolver
	// CSRF makes and checks the CSRF token of the signed double-submit
	// cookie (checks.CSRF).
	CSRF *checks.CSRF
	// Sealer seals the short-lived cookies of the site's own making (the
	// identifier KeepTyped keeps).
	Sealer *checks.Sealer
	// Impersonating, when not nil, names whom r's administrator sees the
	// site as, and reports false when r is no impersonation: every page
	// then shows a banner with the form that ends it.
	Impersonating func(r *http.Request) (user string, ok bool)
	// CrossOrigin refuses cross-origin state-changing requests
	// (checks.SameOrigin).
	CrossOrigin *http.CrossOriginProtection
	// RateLimit and ClientIP are Config's: the per-address limit of
	// sign-in starts, callbacks and passkey ceremonies.
	RateLimit limit.Limiter
	ClientIP  func(r *http.Request) string
	Logger    *slog.Logger
	Theme     pages.Theme
	// Language is Config.Language: the language tag of r's pages, "" to
	// go by its Accept-Language header (Lang).
	Language func(r *http.Request) string
	// Pages are the application's own routes for the built-in pages.
	Pages Pages
	// RedirectPolicy is Callbacks.Redirect: nil keeps the default
	// policy (checks.SafeRedirect).
	RedirectPolicy func(url, baseURL string) string
	// Failure is Events.Failure: told of the failures reported, a flood
	// of one kind as one report and one summary (Report).
	Failure func(ctx context.Context, err *autherr.Error)
	// MadeToken returns the CSRF token the Middleware made for r when it
	// set the cookie on r's response, "" for none: a response sets the
	// cookie once.
	MadeToken func(r *http.Request, b *Base) string

	// bursts keeps repeated failures of one kind to two log lines and
	// two Failure events per window (internal/logburst).
	bursts logburst.Limiter
	// tooMany holds the 429 page rendered once per base path: a refusal
	// must cost less than the work it refuses.
	tooManyMu sync.Mutex
	tooMany   map[string]*httpx.Response // by base path and language tag
}

// Pages are Config.Pages, field for field (the root converts one to the
// other): the application's own routes, "" for the built-in page.
type Pages struct {
	SignIn, SignOut, Error, VerifyRequest, NewUser string
	Accounts, Sessions, TwoFactorSetup, TwoFactor  string
	SignUp, ForgotPassword, ResetPassword          string
	ChangePassword, CheckEmail                     string
}

// Origin returns the origin r was sent to, scheme://host[:port].
func (s *Site) Origin(r *http.Request) string { return s.For(r).Origin }

// URL returns the absolute URL of route parts under the base path.
func (s *Site) URL(r *http.Request, parts ...string) string { return s.For(r).URL(parts...) }

// Cookies returns the cookie names of r's site.
func (s *Site) Cookies(r *http.Request) cookies.Names { return s.For(r).Cookies }

// Redirect answers with a redirect to target, or {url} for a client that
// asked with X-Auth-Return-Redirect (httpx.Redirect).
func (s *Site) Redirect(w http.ResponseWriter, r *http.Request, target string) {
	httpx.Redirect(w, r, target)
}

// Lang returns the language of r's pages: Language's answer when it
// has one and there are messages for it (or its base language), else the
// best match of r's Accept-Language header, else English.
func (s *Site) Lang(r *http.Request) pages.Language {
	if s.Language != nil {
		if tag := s.Language(r); tag != "" {
			if l := pages.LanguageFor(tag); l != pages.English || strings.EqualFold(tag, "en") || strings.HasPrefix(strings.ToLower(tag), "en-") {
				return l
			}
		}
	}
	return pages.RequestLanguage(r)
}

// Text returns the message key in the language of r's pages (pages.Text).
func (s *Site) Text(r *http.Request, key string, args ...any) string {
	return pages.Text(s.Lang(r).Tag, key, args...)
}

// Render writes a built-in page in the language of r's pages, or sends
// the browser to the application's own route for it (Replaced).
func (s *Site) Render(w http.ResponseWriter, r *http.Request, status int, page any) {
	if to := s.Pages.replaced(r, page); to != "" {
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	var banner *pages.Banner
	if s.Impersonating != nil {
		if user, ok := s.Impersonating(r); ok {
			banner = &pages.Banner{User: user, StopURL: s.URL(r, "admin", "stop-impersonating"), CSRFToken: s.CSRFToken(w, r)}
		}
	}
	if err := pages.RenderWithBanner(w, s.Lang(r), status, page, banner); err != nil {
		s.Logger.Error("gatehouse: rendering a page failed", "err", err)
	}
}

// SameOrigin refuses a state-changing request a browser sent from
// another origin (checks.SameOrigin).
func (s *Site) SameOrigin(r *http.Request) error {
	return checks.SameOrigin(s.CrossOrigin, r, s.For(r).Origin)
}

// CSRFOK reports whether submitted is the CSRF token of r's CSRF cookie
// (checks.CSRF: the signed double-submit cookie).
func (s *Site) CSRFOK(r *http.Request, submitted string) bool {
	return s.CSRF.Verify(cookies.Value(r, s.For(r).Cookies.CSRF), submitted)
}

// CSRFOf returns the CSRF token of r's cookie, "" for none.
func (s *Site) CSRFOf(r *http.Request) string {
	return s.CSRF.Token(cookies.Value(r, s.For(r).Cookies.CSRF))
}

// CSRFToken returns r's CSRF token, setting a new cookie when r has none
// of ours.
func (s *Site) CSRFToken(w http.ResponseWriter, r *http.Request) string {
	b := s.For(r)
	if t := s.CSRF.Token(cookies.Value(r, b.Cookies.CSRF)); t != "" {
		return t
	}
	if s.MadeToken != nil {
		if t := s.MadeToken(r, b); t != "" {
			return t
		}
	}
	t, c := s.CSRF.NewPair()
	b.Cookies.Set(w, b.Cookies.CSRF, c, time.Time{})
	return t
}

// CheckPost checks a state-changing form POST of the site's own pages
// (sign-out, the account and session routes): sent from this origin and
// carrying the CSRF token of this browser's cookie. It returns the form,
// or the error to report.
func (s *Site) CheckPost(r *http.Request, step string) (url.Values, *autherr.Error) {
	if err := s.SameOrigin(r); err != nil {
		return nil, autherr.CrossSite(step, "", err)
	}
	form, err := httpx.ReadForm(r)
	if err != nil || !s.CSRFOK(r, form.Get("csrfToken")) {
		return nil, autherr.New(autherr.MissingCSRF, "csrf", "", step, errors.New("CSRF token missing or wrong"))
	}
	return form, nil
}

// CallbackURL resolves where to send the browser after sign-in or
// sign-out: raw when it is same-origin (the Redirect callback or the
// default policy), else the origin's root. It never returns another
// origin's URL: a Redirect callback's answer is checked too.
//
// A same-origin raw is returned as it is, without an allocation: every
// sign-in start resolves one.
func (s *Site) CallbackURL(r *http.Request, raw string) string {
	origin := s.For(r).Origin
	if raw != "" {
		if s.RedirectPolicy != nil {
			raw = s.RedirectPolicy(raw, origin)
		}
		if safe := checks.SafeRedirect(raw, origin); safe != "" {
			return safe
		}
	}
	return origin + "/"
}

// Fail logs e with everything a developer needs, and sends the browser
// to the sign-in page (errors the user can fix by trying again) or the
// error page with ?error=<Type>&code=<Code>. Nothing of e.Err reaches the
// URL.
func (s *Site) Fail(w http.ResponseWriter, r *http.Request, e *autherr.Error) {
	s.Report(r.Context(), slog.LevelError, e.Code, e)
	switch e.Type {
	case autherr.MissingCSRF, autherr.InvalidCheck, autherr.AccountLinkMismatch, autherr.WebAuthnVerificationError:
		// A cookie that was there but read as missing may be a planted
		// duplicate: say so.
		s.WarnDuplicate(r)
	}
	b := s.For(r)
	q := url.Values{"error": {string(e.Type)}}
	if e.Code != "" {
		q.Set("code", e.Code)
	}
	if ban := s.sealBan(e); ban != "" {
		q.Set("ban", ban)
	}
	target := b.Path + "/error?" + q.Encode()
	if s.Pages.Error != "" {
		target = s.Pages.Error + "?" + q.Encode()
	}
	if e.Type.OnSignIn() {
		// Keep where the visitor was going, so that trying again from the
		// sign-in page lands there: the form's callbackUrl (credentials,
		// e-mail) or the one saved when an OAuth sign-in began. Auth.js
		// reads its callback-url cookie on the sign-in page to the same
		// end. CallbackURL keeps it same-origin; the home page, the
		// default, is left out, and the origin is dropped.
		if cb := cmp.Or(r.PostForm.Get("callbackUrl"), cookies.Value(r, b.Cookies.CallbackURL)); cb != "" {
			if path := strings.TrimPrefix(s.CallbackURL(r, cb), b.Origin); path != "/" {
				q.Set("callbackUrl", path)
			}
		}
		target = s.SignInPage(r, q)
	}
	httpx.Redirect(w, r, target)
}

// banSeal names the sealed ?ban= value of a banned user's error page.
const banSeal = "gatehouse-ban"

// sealBan returns, for a Banned error whose ban has an expiry or a
// reason its administrator chose to show (admin.Ban.ShowReason), the
// sealed ?ban= value that carries them to the error page; "" otherwise.
// Sealed, the reason is neither readable in the URL (logs, history) nor
// forgeable: nobody can make the site's error page show their text.
func (s *Site) sealBan(e *autherr.Error) string {
	var ban *admincore.Refusal
	if e.Type != autherr.Banned || !errors.As(e.Err, &ban) || (ban.Reason == "" && ban.Expires.IsZero()) {
		return ""
	}
	v := url.Values{"r": {ban.Reason}}
	if !ban.Expires.IsZero() {
		v.Set("e", strconv.FormatInt(ban.Expires.Unix(), 10))
	}
	sealed, err := s.Sealer.Seal(banSeal, "", v.Encode())
	if err != nil {
		return ""
	}
	return sealed
}

// openBan returns what sealBan sealed: the reason and the expiry as the
// error page shows them, "" when not there or not valid (forged, or
// older than checks.MaxAge).
func (s *Site) openBan(sealed string) (reason, until string) {
	opened, err := s.Sealer.Open(checks.State, banSeal, "", sealed)
	if sealed == "" || err != nil {
		return "", ""
	}
	v, _ := url.ParseQuery(opened)
	if sec, err := strconv.ParseInt(v.Get("e"), 10, 64); err == nil {
		until = time.Unix(sec, 0).UTC().Format("2006-01-02 15:04 UTC")
	}
	return v.Get("r"), until
}

// typedMax is the longest identifier KeepTyped keeps; a longer one is
// not kept.
const typedMax = 320

// KeepTyped keeps, for a minute, the identifier typed into the field of
// provider's credentials form, which was refused: the sign-in page it is sent to
// shows it again (TakeTyped). A cookie of its own, HttpOnly, holds it,
// so that it appears in no URL or log.
func (s *Site) KeepTyped(w http.ResponseWriter, r *http.Request, provider, field, identifier string) {
	if identifier == "" || len(identifier) > typedMax {
		return
	}
	c := s.For(r).Cookies
	// Sealed: the identifier is often an e-mail address, which another
	// script or a shared computer's cookie store should not read in clear.
	sealed, err := s.Sealer.Seal(c.Typed, provider, url.Values{"f": {field}, "v": {identifier}}.Encode())
	if err != nil {
		return
	}
	c.Set(w, c.Typed, provider+"."+sealed, time.Now().Add(time.Minute))
}

// TakeTyped returns what KeepTyped kept, and clears it: the provider, the
// field and the identifier typed into it, or "".
func (s *Site) TakeTyped(w http.ResponseWriter, r *http.Request) (provider, field, identifier string) {
	c := s.For(r).Cookies
	raw := cookies.Value(r, c.Typed)
	if raw == "" {
		return "", "", ""
	}
	c.Set(w, c.Typed, "", time.Unix(1, 0))
	i := strings.LastIndexByte(raw, '.') // base64url has no '.'
	if i < 0 {
		return "", "", ""
	}
	provider, sealed := raw[:i], raw[i+1:]
	opened, err := s.Sealer.Open(checks.State, c.Typed, provider, sealed)
	if err != nil {
		return "", "", ""
	}
	q, err := url.ParseQuery(opened)
	if err != nil || len(q.Get("v")) > typedMax {
		return "", "", ""
	}
	return provider, q.Get("f"), q.Get("v")
}

// Report logs e at level and tells Events.Failure, once per window for
// each kind (e's type, provider, step and kind, a code or ""): the first
// at once, the rest as one summary whose Repeats counts them
// (internal/logburst). A flood of refusals, or every request while the
// database is down, then writes a handful of lines, not one per request.
func (s *Site) Report(ctx context.Context, level slog.Level, kind string, e *autherr.Error) {
	key := string(e.Type) + "\x00" + kind + "\x00" + e.Provider + "\x00" + e.Step
	if s.bursts.Count(key) {
		return // counted into the window's summary
	}
	ctx = context.WithoutCancel(ctx) // the summary outlives the request
	s.bursts.Report(key, func(repeats int) {
		args := []any{"code", e.Code, "provider", e.Provider, "step", e.Step}
		if e.Err != nil {
			args = append(args, "err", e.Err)
		}
		if repeats > 0 {
			args = append(args, "repeats", repeats, "window", logburst.DefaultWindow.String())
		}
		s.Logger.Log(ctx, level, "gatehouse: "+string(e.Type), args...)
		if s.Failure != nil {
			f := *e
			f.Repeats = repeats
			s.Failure(ctx, &f)
		}
	})
}

// SignInPage is the URL of the sign-in page with the query q: the
// application's own (Pages.SignIn) or {base}/signin.
func (s *Site) SignInPage(r *http.Request, q url.Values) string {
	if s.Pages.SignIn != "" {
		return s.Pages.SignIn + "?" + q.Encode()
	}
	return s.For(r).Path + "/signin?" + q.Encode()
}

// WarnDuplicate logs, by name only, a security-relevant cookie the
// request carries twice (and so reads as none: cookies.Value).
func (s *Site) WarnDuplicate(r *http.Request) { LogDuplicate(s.Logger, r, s.For(r)) }

// LogDuplicate is WarnDuplicate for a request whose base is known.
func LogDuplicate(logger *slog.Logger, r *http.Request, b *Base) {
	if name := b.Cookies.Duplicate(r); name != "" {
		logger.Warn("gatehouse: the request carries two cookies named "+name+"; neither is used (a planted cookie?)", "step", "cookies")
	}
}

// RateLimited answers 429 with Retry-After, and reports true, when r's
// client address is over the RateLimit. A limiter that fails refuses
// (fail closed).
func (s *Site) RateLimited(w http.ResponseWriter, r *http.Request, provider string) bool {
	wait, err := s.RateLimit.Reserve(r.Context(), limit.IPKey(s.ClientIP(r))) // a limiter of its own: no prefix
	if err != nil {
		s.Report(r.Context(), slog.LevelError, "", autherr.New(autherr.TooManyRequests, "limiter_failed", provider, "limit",
			fmt.Errorf("the rate limiter failed; the request is refused: %w", err)))
		wait = time.Minute
	}
	if wait <= 0 {
		return false
	}
	s.TooManyAttempts(w, r, provider, wait)
	return true
}

// TooManyAttempts answers a refused attempt: 429 with Retry-After
// (RFC 6585 §4); {url} for a client that asked with
// X-Auth-Return-Redirect, the error page for a browser that asks for
// HTML (rendered once per base path), a short fixed text otherwise. A
// refusal must cost less than the work it refuses: no page is rendered
// and no line logged per refusal (Report).
func (s *Site) TooManyAttempts(w http.ResponseWriter, r *http.Request, provider string, wait time.Duration) {
	secs := int((wait + time.Second - 1) / time.Second)
	s.Report(r.Context(), slog.LevelWarn, "", autherr.New(autherr.TooManyRequests, "retry_after_"+strconv.Itoa(secs), provider, "limit", nil))
	h := w.Header()
	h.Set("Retry-After", strconv.Itoa(secs))
	if r.Header.Get("X-Auth-Return-Redirect") != "" {
		httpx.WriteJSON(w, http.StatusTooManyRequests, map[string]string{"url": s.SignInPage(r, url.Values{"error": {string(autherr.TooManyRequests)}})})
		return
	}
	if !httpx.AcceptsHTML(r) {
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, s.Text(r, "site.tooMany")+"\n")
		return
	}
	s.tooManyPage(s.For(r).Path, s.Lang(r)).WriteTo(w)
}

// tooManyPage returns the 429 page of base path p in lang, rendered on
// first use. Its links are paths, so one page serves every origin of the
// site.
func (s *Site) tooManyPage(p string, lang pages.Language) *httpx.Response {
	s.tooManyMu.Lock()
	defer s.tooManyMu.Unlock()
	key := p + "\x00" + lang.Tag
	if page, ok := s.tooMany[key]; ok {
		return page
	}
	page := &httpx.Response{}
	if err := pages.RenderIn(page, lang, http.StatusTooManyRequests, pages.Error{Theme: s.Theme, Type: string(autherr.TooManyRequests), SignInURL: p + "/signin", HomeURL: "/"}); err != nil {
		s.Logger.Error("gatehouse: rendering a page failed", "err", err)
	}
	if s.tooMany == nil || len(s.tooMany) >= 32 { // a handful of base paths and languages at most
		s.tooMany = map[string]*httpx.Response{}
	}
	s.tooMany[key] = page
	return page
}

// ErrorPage answers GET {base}/error: the built-in error page, or the
// application's.
func (s *Site) ErrorPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if s.Pages.Error != "" {
		http.Redirect(w, r, s.Pages.Error+"?"+q.Encode(), http.StatusFound)
		return
	}
	t := ErrorTypeParam(q.Get("error"))
	code := q.Get("code")
	if !autherr.PublicCode(code) {
		code = ""
	}
	status := pages.ErrorStatus(t)
	if status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "5") // the database: usually back within seconds
	}
	b := s.For(r)
	p := pages.Error{Theme: s.Theme, Type: t, Code: code, SignInURL: b.URL("signin"), HomeURL: b.Origin + "/"}
	if t == string(autherr.Banned) {
		p.BanReason, p.BanExpires = s.openBan(q.Get("ban"))
	}
	s.Render(w, r, status, p)
}

// VerifyRequestPage answers GET {base}/verify-request with the built-in
// "check your e-mail" page, the e-mail flows' (an application's own page,
// Pages.VerifyRequest, replaces the route: ForRoute).
func (s *Site) VerifyRequestPage(w http.ResponseWriter, r *http.Request) {
	b := s.For(r)
	s.Render(w, r, http.StatusOK, pages.VerifyRequest{Theme: s.Theme, HomeURL: b.Origin + "/", Host: b.Host})
}

// ErrorTypeParam keeps ?error= values to the shape of an error type, so
// that nothing an attacker puts in a link reaches a page as is.
func ErrorTypeParam(s string) string {
	if len(s) > 64 {
		return "Unknown"
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return "Unknown"
		}
	}
	return s
}
