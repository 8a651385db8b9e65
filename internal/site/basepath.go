package site

import "strings"

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
