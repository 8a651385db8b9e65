package gatehouse

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/pages"
)

// checkLook reports, as a *ConfigError, the first route in Pages that is
// not the application's own (see checkPages), or the first value of
// Theme or of a provider's Style that the built-in pages could not use (see
// pages.Theme.Validate and pages.ValidateStyle). The pages would drop
// such a value silently; New refuses it, so a mistyped colour or logo URL
// shows at start-up.
func (h *Handler) checkLook() error {
	if err := h.checkPages(); err != nil {
		return err
	}
	if err := h.cfg.Theme.Validate(); err != nil {
		return lookError("", "Theme.", err)
	}
	for _, id := range h.order {
		p, ok := h.oauthProvider(id) // e-mail and credentials providers have no Style
		if !ok {
			continue
		}
		if err := pages.ValidateStyle(p.Config().Style); err != nil {
			return lookError(id, "Style.", err)
		}
	}
	return nil
}

func lookError(provider, prefix string, err error) error {
	ce := &ConfigError{Provider: provider, Err: err}
	var fe *pages.FieldError
	if errors.As(err, &fe) {
		ce.Field = prefix + fe.Field
		ce.Reason = fmt.Sprintf("%q %s", fe.Value, fe.Reason)
	}
	return ce
}

// checkPages checks the application's own page routes: each must be an
// absolute path ("/login", not "//host/login") or, when Config.URL is
// set, an http(s) URL on its origin; without a query or fragment, since
// the handler appends "?callbackUrl=…" or "?error=…". Anything else would
// send visitors off the site, or to a broken URL, at every sign-in.
func (h *Handler) checkPages() error {
	p := h.cfg.Pages
	for _, f := range []struct{ name, value string }{
		{"SignIn", p.SignIn}, {"SignOut", p.SignOut}, {"Error", p.Error},
		{"VerifyRequest", p.VerifyRequest}, {"NewUser", p.NewUser},
	} {
		if f.value == "" {
			continue
		}
		bad := func(reason string) error {
			return &ConfigError{Field: "Pages." + f.name, Reason: fmt.Sprintf("%q %s", f.value, reason)}
		}
		if strings.ContainsAny(f.value, "?#\\ \t\r\n") {
			return bad("must be a path or URL without query, fragment, spaces or backslashes")
		}
		u, err := url.Parse(f.value)
		switch {
		case err != nil || u.User != nil || u.Opaque != "":
			return bad("is not a path or an http(s) URL")
		case u.Scheme == "" && u.Host == "" && strings.HasPrefix(u.Path, "/") && !strings.HasPrefix(f.value, "//"):
			// A path on this site.
		case u.Scheme == "http" || u.Scheme == "https":
			// normalize left only the origin of Config.URL.
			if h.cfg.URL == "" {
				return bad("is a URL, but Config.URL is empty, so its origin cannot be checked: use a path")
			}
			if origin := u.Scheme + "://" + u.Host; !strings.EqualFold(origin, h.cfg.URL) {
				return bad(fmt.Sprintf("is not on the site's origin %s", h.cfg.URL))
			}
		default:
			return bad("must be an absolute path such as /login, or a URL on the site's origin")
		}
	}
	return nil
}
