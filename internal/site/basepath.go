package site

import (
	"net/http"
	"net/url"
	"strings"
)

// Stripper finds a request's path below the base path, the path the
// routes are matched on. The rule: a path that is the base path or starts
// with the base path and a slash has the base path removed (http.ServeMux
// "/auth/", chi's Handle("/auth/*") and Mount, gin, echo, which pass the
// whole path); any other path is taken as already below the base path
// (http.StripPrefix("/auth", h), or a proxy that removed it). A base path
// that a route's path is or starts with (such as /session or /signin/x)
// must be refused (BasePathClash), so that no stripped path can be taken
// for a whole one. The escaped path (URL.RawPath) is used when the request
// has one, as chi does.
type Stripper struct {
	base, raw string // the base path, and escaped to compare with URL.RawPath
}

// NewStripper returns the Stripper of the base path base.
func NewStripper(base string) Stripper {
	return Stripper{base: base, raw: (&url.URL{Path: base}).EscapedPath()}
}

// Path returns the path of r below the base path, starting with "/".
func (s Stripper) Path(r *http.Request) string {
	p, base := r.URL.Path, s.base
	if r.URL.RawPath != "" {
		p, base = r.URL.RawPath, s.raw
	}
	if rest, ok := strings.CutPrefix(p, base); ok && (rest == "" || rest[0] == '/') {
		p = rest
	}
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	return p
}

// BasePathClash returns the first of the route patterns (relative to the
// base path, such as "/signin/{provider}") that the base path base is, or
// starts with, and "" when there is none: a request whose base path was
// stripped (http.StripPrefix) could then not be told from one whose was
// not. A {wildcard} segment matches anything, except a leading one, which
// matches only the segments leading accepts (the ids of providers with
// routes of their own).
func BasePathClash(base string, patterns []string, leading func(seg string) bool) string {
	segs := strings.Split(strings.TrimPrefix(base, "/"), "/")
	for _, pattern := range patterns {
		route := strings.Split(strings.TrimPrefix(pattern, "/"), "/")
		if len(segs) > len(route) {
			continue
		}
		clash := true
		for i, seg := range segs {
			switch {
			case seg == route[i]:
			case strings.HasPrefix(route[i], "{") && i > 0:
			case strings.HasPrefix(route[i], "{"):
				clash = leading(seg)
			default:
				clash = false
			}
			if !clash {
				break
			}
		}
		if clash {
			return pattern
		}
	}
	return ""
}
