package site

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
)

// DefaultBasePath is the base path when neither Config.URL nor
// Config.BasePath gives one.
const DefaultBasePath = "/auth"

// CheckURL checks Config.URL (rawURL, may be empty) and Config.BasePath,
// and returns the URL without its path and the base path: URL's path when
// it has one (BasePath, when set, must agree), else BasePath, else
// DefaultBasePath, with one leading slash and no trailing one. Plain http
// is refused but for a loopback host or in development.
func CheckURL(rawURL, basePath string, development bool) (origin, path string, err error) {
	if rawURL != "" {
		u, err := url.Parse(rawURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return "", "", &autherr.ConfigError{Field: "URL", Reason: fmt.Sprintf("%q is not an absolute http(s) URL without query", rawURL)}
		}
		if u.Scheme == "http" && !development && !cookies.IsLoopback(u.Hostname()) {
			return "", "", &autherr.ConfigError{Field: "URL", Reason: "plain http is only allowed for localhost or in Development mode (RFC 9700 §2.6)"}
		}
		if p := strings.TrimRight(u.Path, "/"); p != "" {
			if basePath != "" && basePath != p {
				return "", "", &autherr.ConfigError{Field: "BasePath", Reason: fmt.Sprintf("%q differs from the path of URL %q", basePath, rawURL)}
			}
			basePath = p
		}
		u.Path = ""
		origin = u.String()
	}
	if basePath == "" {
		basePath = DefaultBasePath
	}
	basePath = "/" + strings.Trim(basePath, "/")
	if basePath == "/" || strings.ContainsAny(basePath, "?#\\ ") {
		return "", "", &autherr.ConfigError{Field: "BasePath", Reason: fmt.Sprintf("%q must be a path below the root, such as /auth", basePath)}
	}
	return origin, basePath, nil
}
