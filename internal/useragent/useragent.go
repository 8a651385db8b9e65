// Package useragent reduces a User-Agent header to a coarse description of
// the browser, such as "Firefox on Linux", for the session list: enough
// for a user to tell their devices apart, and nothing more (no versions,
// no device models), so that the stored sessions are not a fingerprint.
package useragent

import "strings"

// maxLen bounds the header this package reads: a description never needs
// more, and an attacker's megabyte header costs nothing to skip.
const maxLen = 512

// A rule names a product when the header contains its token. Order matters:
// browsers built on another announce it too (Edge says "Chrome" and
// "Safari"; Chrome says "Safari"), so the more specific come first.
type rule struct{ token, name string }

var browsers = []rule{
	{"Edg/", "Edge"}, {"EdgA/", "Edge"}, {"EdgiOS/", "Edge"},
	{"OPR/", "Opera"}, {"SamsungBrowser/", "Samsung Internet"},
	{"Firefox/", "Firefox"}, {"FxiOS/", "Firefox"},
	{"CriOS/", "Chrome"}, {"Chromium/", "Chromium"}, {"Chrome/", "Chrome"},
	{"Safari/", "Safari"},
	{"curl/", "curl"}, {"Wget/", "Wget"}, {"Go-http-client/", "Go HTTP client"},
}

var systems = []rule{
	{"iPhone", "iOS"}, {"iPad", "iPadOS"}, {"Android", "Android"},
	{"CrOS", "ChromeOS"}, {"Windows", "Windows"}, {"Macintosh", "macOS"},
	{"Mac OS X", "macOS"}, {"Linux", "Linux"},
}

// Describe returns "<browser> on <system>", the browser or the system
// alone when only one is known, or "Unknown browser".
func Describe(header string) string {
	if len(header) > maxLen {
		header = header[:maxLen]
	}
	b, s := match(header, browsers), match(header, systems)
	switch {
	case b != "" && s != "":
		return b + " on " + s
	case b != "":
		return b
	case s != "":
		return "A browser on " + s
	}
	return "Unknown browser"
}

func match(header string, rules []rule) string {
	for _, r := range rules {
		if strings.Contains(header, r.token) {
			return r.name
		}
	}
	return ""
}
