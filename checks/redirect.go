package checks

import (
	"net/url"
	"strings"
)

// SafeRedirect returns raw when it is a safe place to send the browser after
// sign-in or sign-out, "" otherwise. Safe means: a relative path starting
// with exactly one '/', or an absolute http(s) URL on origin (scheme, host
// and port equal) without user info. Anything with a backslash, control
// character or whitespace is refused outright: browsers treat '\' as '/'
// and strip tabs and newlines, which is how `/\evil.com` and `/%09/evil.com`
// escape naive checks (oauth2-proxy GHSA-qqxw-m5fj-f7gv, CVE-2020-11053).
// The result of a relative path is made absolute on origin.
func SafeRedirect(raw, origin string) string {
	out := sameOriginURL(raw, origin)
	if len(out) > maxRedirectLen {
		// Normalising escapes bytes; what grew past the limit is refused,
		// so that an accepted URL is accepted again (FuzzSameOrigin).
		return ""
	}
	return out
}

// maxRedirectLen bounds the callback URLs accepted.
const maxRedirectLen = 2048

func sameOriginURL(raw, origin string) string {
	if raw == "" || len(raw) > maxRedirectLen {
		return ""
	}
	for _, c := range raw {
		if c <= ' ' || c == 0x7f || c == '\\' {
			return ""
		}
	}
	// The common cases, a plain path or a plain URL on origin, need no
	// parsing: url.Parse and String would give back the input itself.
	if rest, ok := strings.CutPrefix(raw, origin); ok && plainPath(rest) {
		return raw
	}
	if plainPath(raw) {
		return origin + raw
	}
	return parsedSameOriginURL(raw, origin)
}

// plainPath reports whether p is an absolute path of unreserved
// characters (RFC 3986 §2.3) and '/' alone, not starting with "//".
func plainPath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
		return false
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; !(c == '/' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~') {
			return false
		}
	}
	return true
}

// parsedSameOriginURL is sameOriginURL for raw free of control
// characters, whitespace and backslashes, by url.Parse.
func parsedSameOriginURL(raw, origin string) string {
	if strings.HasPrefix(raw, "/") {
		if strings.HasPrefix(raw, "//") {
			return ""
		}
		u, err := url.Parse(raw)
		if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
			return ""
		}
		// The decoded path may not start a second authority either.
		if strings.HasPrefix(u.Path, "//") {
			return ""
		}
		return origin + u.RequestURI() + fragment(u)
	}
	u, err := url.Parse(raw)
	if err != nil || u.User != nil || u.Opaque != "" {
		return ""
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Scheme+"://"+u.Host != origin {
		return ""
	}
	return u.String() // normalised: "httPs:" comes back as "https:"
}

func fragment(u *url.URL) string {
	if u.Fragment == "" {
		return ""
	}
	return "#" + u.EscapedFragment()
}
