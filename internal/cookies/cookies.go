// Package cookies holds Gatehouse's cookies: their names (Auth.js's,
// or __Host- ones on https), writing and reading them (chunked past 4 KB,
// a name sent twice read as none: cookie tossing), and the session token
// sealed in the session cookie as Auth.js seals it (Codec: JWE, keys
// derived with HKDF, secret rotation, a bounded cache of opened tokens).
// It knows nothing of users or providers.
package cookies

import (
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/httpx"
)

// Names are the cookies' names: Auth.js's, and on https with the
// __Host- prefix (RFC 6265bis §4.1.3.2): a __Host- cookie is Secure, has
// Path=/ and no Domain, so neither a sibling subdomain nor a plain-http
// page of the host can set one (cookie tossing). With
// Config.AuthJSCookieNames the names are Auth.js's own on https
// (__Secure- for most), which an Auth.js front end shares.
type Names struct {
	// Secure: the site is on https; the cookies are Secure.
	Secure bool
	// Session, CallbackURL and CSRF are Auth.js's cookies.
	Session, CallbackURL, CSRF string
	// checks holds the sealed PKCE verifier, state and nonce of a sign-in
	// in flight (checks.Transaction); Auth.js uses one cookie for each.
	Checks, Challenge, LogoutState string
	// SessionData is the cookie cache of a database session
	// (gatehouse.CookieCache).
	SessionData string
	// TwoFactor holds a sign-in waiting for its second factor (the sealed
	// twofactor.Pending); __Host- on https, as the CSRF cookie it is
	// bound to.
	TwoFactor string
	// Typed holds, for a minute, the identifier typed into a credentials
	// form that was refused, so that the sign-in page shows it again
	// (site.KeepTyped). Never a password.
	Typed string
	// NewKey holds, for a minute and sealed, an API key just made or
	// rotated on the keys page, between the form's POST and the GET it
	// is redirected to, which shows it once and clears it.
	NewKey string
}

// NewNames returns the names for a site on https (secure) or not, with
// Auth.js's own names on https when authjs is set.
func NewNames(secure, authjs bool) Names {
	p, host := "", ""
	switch {
	case secure && authjs:
		p, host = "__Secure-", "__Host-"
	case secure:
		p, host = "__Host-", "__Host-"
	}
	return Names{
		Secure:      secure,
		Session:     p + "authjs.session-token",
		CallbackURL: p + "authjs.callback-url",
		CSRF:        host + "authjs.csrf-token",
		Checks:      p + "gatehouse.checks",
		Challenge:   p + "authjs.challenge",
		LogoutState: p + "authjs.logout-state",
		SessionData: p + "gatehouse.session-data",
		TwoFactor:   host + "gatehouse.two-factor",
		Typed:       p + "gatehouse.typed",
		NewKey:      p + "gatehouse.new-key",
	}
}

// SecurityCookies lists the names whose duplicates make a request carry
// none of them (Duplicate).
func (n Names) SecurityCookies() [8]string {
	return [8]string{n.Session, n.CSRF, n.Checks, n.CallbackURL, n.Challenge, n.LogoutState, n.SessionData, n.TwoFactor}
}

// Duplicate returns the first of n's security-relevant cookies that
// the request carries twice, or "". A second cookie of one name is what
// cookie tossing leaves behind (one set by the site, one planted with a
// wider Domain or Path); Value then reads neither. The test is a
// substring count over the raw header, so it costs no allocation.
func (n Names) Duplicate(r *http.Request) string {
	lines := r.Header["Cookie"]
	if len(lines) == 0 {
		return ""
	}
	for _, name := range n.SecurityCookies() {
		if Count(r, name) > 1 {
			return name
		}
	}
	return ""
}

// Count counts the cookies named name that r carries.
func Count(r *http.Request, name string) int {
	count := 0
	for _, line := range r.Header["Cookie"] {
		count += countCookie(line, name)
	}
	return count
}

// countCookie counts the pairs named name in one Cookie header line.
func countCookie(line, name string) int {
	count := 0
	for len(line) > 0 {
		var part string
		part, line, _ = strings.Cut(line, ";")
		k, _, _ := strings.Cut(part, "=")
		if textproto.TrimString(k) == name {
			count++
		}
	}
	return count
}

// ChunkSize is the longest cookie value written in one piece: 4096 bytes
// (RFC 6265 §6.1) less Auth.js's estimate of 160 for name and attributes.
const ChunkSize = 4096 - 160

// Set writes a cookie with the attributes every Gatehouse cookie
// has: HttpOnly, Path=/, SameSite=Lax (the callback is a cross-site
// top-level GET), Secure in secure mode.
func (n Names) Set(w http.ResponseWriter, name, value string, expires time.Time) {
	maxAge := 0
	if !expires.IsZero() {
		maxAge = int(time.Until(expires).Seconds())
		if maxAge <= 0 {
			maxAge = -1
		}
	}
	setCookie(w, name, value, expires, maxAge, n.Secure, http.SameSiteLaxMode)
}

// SetNone writes a check cookie that must survive a cross-site POST
// (response_mode=form_post): SameSite=None, which browsers accept only
// with Secure.
func (n Names) SetNone(w http.ResponseWriter, name, value string, expires time.Time) {
	setCookie(w, name, value, expires, int(time.Until(expires).Seconds()), true, http.SameSiteNoneMode)
}

// setCookie adds the Set-Cookie header of an HttpOnly cookie with Path=/,
// exactly as http.SetCookie writes it, but built in one buffer and with
// the Expires date formatted once a second: a sign-in sets two or three
// cookies, a session read with a refresh one. Names and values net/http
// would quote or sanitise go to http.SetCookie itself.
func setCookie(w http.ResponseWriter, name, value string, expires time.Time, maxAge int, secure bool, sameSite http.SameSite) {
	if !plainToken(name) || !plainValue(value) || sameSite != http.SameSiteLaxMode && sameSite != http.SameSiteNoneMode {
		http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/", Expires: expires, MaxAge: maxAge,
			HttpOnly: true, Secure: secure, SameSite: sameSite})
		return
	}
	var b strings.Builder
	b.Grow(len(name) + len(value) + 110)
	b.WriteString(name)
	b.WriteByte('=')
	b.WriteString(value)
	b.WriteString("; Path=/")
	if expires.Year() >= 1601 { // net/http's validCookieExpires
		b.WriteString("; Expires=")
		b.WriteString(httpDate(expires))
	}
	if maxAge > 0 {
		var buf [20]byte
		b.WriteString("; Max-Age=")
		b.Write(strconv.AppendInt(buf[:0], int64(maxAge), 10))
	} else if maxAge < 0 {
		b.WriteString("; Max-Age=0")
	}
	b.WriteString("; HttpOnly")
	if secure {
		b.WriteString("; Secure")
	}
	if sameSite == http.SameSiteNoneMode {
		b.WriteString("; SameSite=None")
	} else {
		b.WriteString("; SameSite=Lax")
	}
	h := w.Header()
	cookies := h["Set-Cookie"]
	if cookies == nil {
		cookies = make([]string, 0, 2) // a sign-in sets two: one allocation for both
	}
	h["Set-Cookie"] = append(cookies, b.String())
}

// plainToken reports whether name is an RFC 7230 token, as net/http
// requires of a cookie name.
func plainToken(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !tokenByte[name[i]] {
			return false
		}
	}
	return true
}

var tokenByte = func() (t [256]bool) {
	for b := '0'; b <= '9'; b++ {
		t[b] = true
	}
	for b := 'a'; b <= 'z'; b++ {
		t[b], t[b-'a'+'A'] = true, true
	}
	for _, b := range "!#$%&'*+-.^_`|~" {
		t[b] = true
	}
	return t
}()

// plainValue reports whether net/http writes value as it is: cookie-octets
// only, and no space or comma (which it would quote).
func plainValue(value string) bool {
	return validCookieValue(value) && strings.IndexByte(value, ' ') < 0 && strings.IndexByte(value, ',') < 0
}

// httpDate is t in http.TimeFormat, formatted once per second of time:
// the expiry of every cookie set within one second is the same text.
func httpDate(t time.Time) string {
	sec := t.Unix()
	if d := lastDate.Load(); d != nil && d.sec == sec {
		return d.text
	}
	d := &date{sec: sec, text: t.UTC().Format(http.TimeFormat)}
	lastDate.Store(d)
	return d.text
}

type date struct {
	sec  int64
	text string
}

var lastDate atomic.Pointer[date]

// LoopbackOrigin reports whether origin (scheme://host[:port]) is on a
// loopback host, which browsers treat as a secure context.
func LoopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	return err == nil && IsLoopback(u.Hostname())
}

// Clear deletes the cookie name.
func (n Names) Clear(w http.ResponseWriter, name string) {
	setCookie(w, name, "", time.Time{}, -1, n.Secure, http.SameSiteLaxMode)
}

// ClearSent clears the cookie name when r carries it (a copy planted
// beside it included): a cookie whose use has ended, such as the
// callback-url cookie once its sign-in has finished, which the browser
// would otherwise send with every request.
func (n Names) ClearSent(w http.ResponseWriter, r *http.Request, name string) {
	if Count(r, name) > 0 {
		n.Clear(w, name)
	}
}

// ReadChunked returns the value of a possibly chunked cookie: name itself,
// or name.0, name.1, … joined in order. A gap in the chunks gives "".
func ReadChunked(r *http.Request, name string) (value string, chunks []string) {
	// The common case, one unchunked cookie, without parsing them all.
	if v := Value(r, name); v != "" {
		return v, []string{name}
	}
	return readChunks(r, name)
}

// readChunks is ReadChunked for a request whose cookie name, if any, is
// empty: it parses the cookies only when the header Mentions name.
func readChunks(r *http.Request, name string) (value string, chunks []string) {
	if !Mentions(r, name) {
		return "", nil
	}
	type part struct {
		i int
		v string
	}
	var parts []part
	for _, c := range r.Cookies() {
		if c.Name == name {
			// Value found no single valid one: doubled (planted),
			// or unreadable. Either way, none.
			return "", []string{name}
		}
		rest, ok := strings.CutPrefix(c.Name, name+".")
		if !ok {
			continue
		}
		i, err := strconv.Atoi(rest)
		if err != nil || i < 0 || i > 64 {
			continue
		}
		parts = append(parts, part{i, c.Value})
		chunks = append(chunks, c.Name)
	}
	sort.Slice(parts, func(a, b int) bool { return parts[a].i < parts[b].i })
	var b strings.Builder
	for i, p := range parts {
		if p.i != i { // a gap, or a chunk given twice
			return "", chunks
		}
		b.WriteString(p.v)
	}
	return b.String(), chunks
}

// Mentions reports whether a Cookie header of r contains name at all.
func Mentions(r *http.Request, name string) bool {
	for _, line := range r.Header["Cookie"] {
		if strings.Contains(line, name) {
			return true
		}
	}
	return false
}

// WriteChunked writes value under name, split into name.0, name.1, … when
// it is longer than ChunkSize, and clears chunks the request had that the
// new value does not use.
func (n Names) WriteChunked(w http.ResponseWriter, r *http.Request, name, value string, expires time.Time) {
	_, old := ReadChunked(r, name)
	written := map[string]bool{}
	if len(value) <= ChunkSize {
		n.Set(w, name, value, expires)
		written[name] = true
	} else {
		for i := 0; i*ChunkSize < len(value); i++ {
			end := min((i+1)*ChunkSize, len(value))
			cn := name + "." + strconv.Itoa(i)
			n.Set(w, cn, value[i*ChunkSize:end], expires)
			written[cn] = true
		}
	}
	for _, o := range old {
		if !written[o] {
			n.Clear(w, o)
		}
	}
}

// ClearChunked clears name and every chunk of it the request carried.
func (n Names) ClearChunked(w http.ResponseWriter, r *http.Request, name string) {
	_, old := ReadChunked(r, name)
	if len(old) == 0 {
		old = []string{name}
	}
	for _, o := range old {
		n.Clear(w, o)
	}
}

// maxCookies mirrors net/http's default limit on the cookies of one
// request (GODEBUG httpcookiemaxnum): past it the fast lookup defers to
// net/http, which then returns none.
const maxCookies = 3000

// Value returns the value of the first cookie called name, as
// r.Cookie(name) would, without allocating: net/http parses every cookie
// of the request into a slice of *Cookie to find one. The parsing rules are
// net/http's (readCookies): "; "-separated name=value pairs, names compared
// exactly after trimming, one pair of double quotes stripped, and a pair
// whose value has a byte outside the RFC 6265 cookie-octet set skipped.
// FuzzCookieValue compares the two.
func Value(r *http.Request, name string) string {
	lines := r.Header["Cookie"]
	if len(lines) == 0 {
		return ""
	}
	// net/http counts a line's ";" plus one; a line holds no more ";"
	// than bytes, so a header shorter than the limit is not counted.
	n := 0
	for _, line := range lines {
		n += len(line) + 1
	}
	if n > maxCookies {
		n = 0
		for _, line := range lines {
			n += strings.Count(line, ";") + 1
		}
	}
	if n > maxCookies {
		value, found := "", 0
		for _, c := range r.Cookies() {
			if c.Name == name {
				value, found = c.Value, found+1
			}
		}
		if found != 1 {
			return ""
		}
		return value
	}
	value, found := "", false
	for _, line := range lines {
		line = textproto.TrimString(line)
		var part string
		for len(line) > 0 {
			part, line, _ = strings.Cut(line, ";")
			part = textproto.TrimString(part)
			k, v, _ := strings.Cut(part, "=")
			if textproto.TrimString(k) != name {
				continue
			}
			if len(v) > 1 && v[0] == '"' && v[len(v)-1] == '"' {
				v = v[1 : len(v)-1]
			}
			if validCookieValue(v) {
				if found {
					// Two cookies of one name: one may be planted (cookie
					// tossing), and which is which cannot be told, so
					// neither is read (Duplicate logs it).
					return ""
				}
				value, found = v, true
			}
		}
	}
	return value
}

// validCookieValue is net/http's validCookieValueByte over s: every byte
// printable ASCII but '"', ';' and '\\'. Session cookies are hundreds of
// bytes long and every request's are checked: the three bytes are looked
// for with strings.IndexByte (vectorised), the range eight bytes at a time.
func validCookieValue(s string) bool {
	return strings.IndexByte(s, '"') < 0 && strings.IndexByte(s, ';') < 0 && strings.IndexByte(s, '\\') < 0 &&
		httpx.PrintableASCII(s)
}

// ChunkedValue is ReadChunked's value alone: the common case, one cookie
// not split into chunks, costs no allocation.
func ChunkedValue(r *http.Request, name string) string {
	if v := Value(r, name); v != "" {
		return v
	}
	v, _ := readChunks(r, name)
	return v
}

// isBearerScheme reports whether the Authorization header value v names
// the Bearer scheme: "Bearer" in any case, alone or followed by a space
// or a tab.
func isBearerScheme(v string) bool {
	const scheme = "bearer"
	return len(v) >= len(scheme) && strings.EqualFold(v[:len(scheme)], scheme) &&
		(len(v) == len(scheme) || v[len(scheme)] == ' ' || v[len(scheme)] == '\t')
}

// IsLoopback reports whether host is a loopback name or address, which
// browsers treat as a secure context.
func IsLoopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// BearerToken returns the token of an Authorization header with the Bearer
// scheme, and whether the request uses that scheme at all. A malformed
// token (RFC 6750 §2.1 b64token syntax, a separator other than spaces,
// or more than one Authorization header) is returned as "" with ok true:
// a Bearer request without a session. A request is a Bearer request when
// any of its Authorization headers names the scheme, so that a second
// header never turns it back into one judged by its cookies.
func BearerToken(values []string) (token string, ok bool) {
	for _, v := range values {
		ok = ok || isBearerScheme(v)
	}
	if !ok || len(values) > 1 {
		return "", ok
	}
	v := values[0]
	// The scheme is case-insensitive (RFC 9110 §11.1), then one or more
	// spaces (§11.4). "Bearer" alone (servers trim trailing spaces) has
	// no token.
	const scheme = "bearer "
	if len(v) < len(scheme) || v[len(scheme)-1] != ' ' {
		return "", true
	}
	token = strings.TrimLeft(v[len(scheme):], " ")
	if len(token) > MaxTokenLen || !isB64Token(token) {
		return "", true
	}
	return token, true
}

// isB64Token reports whether s has the b64token syntax of RFC 6750 §2.1:
// 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=". A JWE in
// compact form and an opaque session token both have it.
func isB64Token(s string) bool {
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~+/", c) >= 0) {
			break
		}
	}
	if i == 0 {
		return false
	}
	for ; i < len(s); i++ {
		if s[i] != '=' {
			return false
		}
	}
	return true
}
