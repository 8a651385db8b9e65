package gatehouse

import (
	"net/http"
	"net/textproto"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// cookieNames are the cookies' names: Auth.js's, and on https with the
// __Host- prefix (security.md §4.1): a __Host- cookie is Secure, has
// Path=/ and no Domain, so neither a sibling subdomain nor a plain-http
// page of the host can set one (cookie tossing). With
// Config.AuthJSCookieNames the names are Auth.js's own on https
// (__Secure- for most), which an Auth.js front end shares.
type cookieNames struct {
	secure                     bool
	session, callbackURL, csrf string
	// checks holds the sealed PKCE verifier, state and nonce of a sign-in
	// in flight (checks.Transaction); Auth.js uses one cookie for each.
	checks, challenge, logoutState string
}

func newCookieNames(secure, authjs bool) cookieNames {
	p, host := "", ""
	switch {
	case secure && authjs:
		p, host = "__Secure-", "__Host-"
	case secure:
		p, host = "__Host-", "__Host-"
	}
	return cookieNames{
		secure:      secure,
		session:     p + "authjs.session-token",
		callbackURL: p + "authjs.callback-url",
		csrf:        host + "authjs.csrf-token",
		checks:      p + "gatehouse.checks",
		challenge:   p + "authjs.challenge",
		logoutState: p + "authjs.logout-state",
	}
}

// securityCookies lists the names whose duplicates make a request carry
// none of them (duplicateCookie).
func (n cookieNames) securityCookies() [6]string {
	return [6]string{n.session, n.csrf, n.checks, n.callbackURL, n.challenge, n.logoutState}
}

// duplicateCookie returns the first of n's security-relevant cookies that
// the request carries twice, or "". A second cookie of one name is what
// cookie tossing leaves behind (one set by the site, one planted with a
// wider Domain or Path); cookieValue then reads neither. The test is a
// substring count over the raw header, so it costs no allocation.
func (n cookieNames) duplicateCookie(r *http.Request) string {
	lines := r.Header["Cookie"]
	if len(lines) == 0 {
		return ""
	}
	for _, name := range n.securityCookies() {
		if countCookies(r, name) > 1 {
			return name
		}
	}
	return ""
}

// countCookies counts the cookies named name that r carries.
func countCookies(r *http.Request, name string) int {
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

// chunkSize is the longest cookie value written in one piece: 4096 bytes
// (RFC 6265 §6.1) less Auth.js's estimate of 160 for name and attributes.
const chunkSize = 4096 - 160

// setCookie writes a cookie with the attributes every Gatehouse cookie
// has: HttpOnly, Path=/, SameSite=Lax (the callback is a cross-site
// top-level GET), Secure in secure mode.
func (n cookieNames) set(w http.ResponseWriter, name, value string, expires time.Time) {
	c := &http.Cookie{Name: name, Value: value, Path: "/", HttpOnly: true, Secure: n.secure, SameSite: http.SameSiteLaxMode}
	if !expires.IsZero() {
		c.Expires = expires
		c.MaxAge = int(time.Until(expires).Seconds())
		if c.MaxAge <= 0 {
			c.MaxAge = -1
		}
	}
	http.SetCookie(w, c)
}

// setNone writes a check cookie that must survive a cross-site POST
// (response_mode=form_post): SameSite=None, which browsers accept only
// with Secure.
func (n cookieNames) setNone(w http.ResponseWriter, name, value string, expires time.Time) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/", HttpOnly: true, Secure: true,
		SameSite: http.SameSiteNoneMode, Expires: expires, MaxAge: int(time.Until(expires).Seconds())})
}

// loopbackOrigin reports whether origin (scheme://host[:port]) is on a
// loopback host, which browsers treat as a secure context.
func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	return err == nil && isLoopback(u.Hostname())
}

func (n cookieNames) clear(w http.ResponseWriter, name string) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", HttpOnly: true, Secure: n.secure, SameSite: http.SameSiteLaxMode, MaxAge: -1})
}

// readChunked returns the value of a possibly chunked cookie: name itself,
// or name.0, name.1, … joined in order. A gap in the chunks gives "".
func readChunked(r *http.Request, name string) (value string, chunks []string) {
	// The common case, one unchunked cookie, without parsing them all.
	if v := cookieValue(r, name); v != "" {
		return v, []string{name}
	}
	return readChunks(r, name)
}

// readChunks is readChunked for a request whose cookie name, if any, is
// empty: it parses the cookies only when the header mentions name.
func readChunks(r *http.Request, name string) (value string, chunks []string) {
	if !mentions(r, name) {
		return "", nil
	}
	type part struct {
		i int
		v string
	}
	var parts []part
	for _, c := range r.Cookies() {
		if c.Name == name {
			// cookieValue found no single valid one: doubled (planted),
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

// mentions reports whether a Cookie header of r contains name at all.
func mentions(r *http.Request, name string) bool {
	for _, line := range r.Header["Cookie"] {
		if strings.Contains(line, name) {
			return true
		}
	}
	return false
}

// writeChunked writes value under name, split into name.0, name.1, … when
// it is longer than chunkSize, and clears chunks the request had that the
// new value does not use.
func (n cookieNames) writeChunked(w http.ResponseWriter, r *http.Request, name, value string, expires time.Time) {
	_, old := readChunked(r, name)
	written := map[string]bool{}
	if len(value) <= chunkSize {
		n.set(w, name, value, expires)
		written[name] = true
	} else {
		for i := 0; i*chunkSize < len(value); i++ {
			end := min((i+1)*chunkSize, len(value))
			cn := name + "." + strconv.Itoa(i)
			n.set(w, cn, value[i*chunkSize:end], expires)
			written[cn] = true
		}
	}
	for _, o := range old {
		if !written[o] {
			n.clear(w, o)
		}
	}
}

// clearChunked clears name and every chunk of it the request carried.
func (n cookieNames) clearChunked(w http.ResponseWriter, r *http.Request, name string) {
	_, old := readChunked(r, name)
	if len(old) == 0 {
		old = []string{name}
	}
	for _, o := range old {
		n.clear(w, o)
	}
}

// warnDuplicate logs, by name only, a security-relevant cookie the
// request carries twice (and so reads as none: cookieValue).
func (h *Handler) warnDuplicate(r *http.Request, b *base) {
	if name := b.cookies.duplicateCookie(r); name != "" {
		h.cfg.Logger.Warn("gatehouse: the request carries two cookies named "+name+"; neither is used (a planted cookie?)", "step", "cookies")
	}
}
