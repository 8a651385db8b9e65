package pages

import (
	"strings"

	"github.com/a-h/templ"
)

// pageURL is templ.URL narrowed to what the built-in pages link to and
// post to: an http or https URL, or one without a scheme (a path, a
// query, "//host/path"). Any other scheme becomes templ's about:invalid
// placeholder, as templ.URL makes of javascript:. templ.URL also lets
// mailto:, tel:, ftp: and ftps: through, which no built-in page means
// to link to; data: and vbscript: it refuses, and so does pageURL.
//
// What comes before the first ':' is taken for a scheme unless it holds
// a '/', '?' or '#' (then the colon is in a path, a query or a fragment,
// and the URL is relative). Anything else, a space or a tab included,
// must spell http or https: browsers drop tabs and newlines from a
// scheme and leading spaces from a URL, so " javascript:" and
// "java\tscript:" are scripts to them, and refused here.
func pageURL(s string) templ.SafeURL {
	i := strings.IndexByte(s, ':')
	if i < 0 || strings.ContainsAny(s[:i], "/?#") {
		return templ.SafeURL(s)
	}
	if scheme := s[:i]; strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https") {
		return templ.SafeURL(s)
	}
	return templ.FailedSanitizationURL
}
