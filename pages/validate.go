package pages

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// FieldError is a Theme or providers.Style field whose value the pages
// cannot use. Render drops such values and falls back to its defaults;
// gatehouse.New reports them as configuration errors, so that a typo in
// a colour is found at start-up rather than by someone looking at the
// page.
type FieldError struct {
	// Field is the field's name, e.g. "BrandColor" or "Logo".
	Field string
	// Value is the value as configured.
	Value string
	// Reason says what is wrong, in a sentence fragment that follows the
	// value, e.g. "is not a colour: …".
	Reason string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%s %q %s", e.Field, e.Value, e.Reason)
}

// isPathData reports whether s is what an SVG path's d attribute holds,
// and nothing else: path commands, numbers, signs, points, commas and
// spaces, at least one. Checking a Style.Icon with it keeps the inline
// SVG to a drawing.
func isPathData(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', strings.IndexByte("MmLlHhVvCcSsQqTtAaZzeE.,+- ", c) >= 0:
		default:
			return false
		}
	}
	return s != ""
}

const (
	reasonColor = "is not a colour: use #rgb, #rrggbb (or with alpha) or a CSS colour name"
	reasonLogo  = "is not a usable image URL: use a path on this site, an http(s) URL or a data:image URL"
)

// Validate reports the first field of the theme that Render would ignore
// or override: a ColorScheme other than auto, light or dark; a BrandColor
// or ButtonText that is not a colour ValidColor accepts; a Logo that is
// not a path, an http(s) URL with a plain host, or a data:image URL; or a
// ButtonText that contrasts with BrandColor (or the default brand colour)
// by less than WCAG's 4.5:1, which Render replaces with black or white.
// The zero Theme is valid. The error is a *FieldError.
func (t Theme) Validate() error {
	switch strings.ToLower(strings.TrimSpace(t.ColorScheme)) {
	case "", "auto", "light", "dark":
	default:
		return &FieldError{Field: "ColorScheme", Value: t.ColorScheme, Reason: `is not "auto", "light" or "dark"`}
	}
	brand := defaultBrand
	if t.BrandColor != "" {
		if !ValidColor(t.BrandColor) {
			return &FieldError{Field: "BrandColor", Value: t.BrandColor, Reason: reasonColor}
		}
		brand = t.BrandColor
	}
	if t.ButtonText != "" {
		if !ValidColor(t.ButtonText) {
			return &FieldError{Field: "ButtonText", Value: t.ButtonText, Reason: reasonColor}
		}
		if err := checkContrast("ButtonText", t.ButtonText, brand, "BrandColor"); err != nil {
			return err
		}
	}
	if t.Logo != "" {
		if _, _, ok := imageSource(t.Logo); !ok {
			return &FieldError{Field: "Logo", Value: t.Logo, Reason: reasonLogo}
		}
	}
	return nil
}

// ValidateStyle reports the first field of a provider's button style that
// Render would ignore: a BrandColor, Bg or Text that is not a colour
// ValidColor accepts, a Logo that is not a usable image URL (see
// Theme.Validate), or an Icon that is not SVG path data (path commands,
// numbers, signs, points, commas and spaces only). A Text colour with too little contrast is not an
// error: the built-in providers keep the Auth.js colours, some of which
// (white on a light blue) fall short of 4.5:1, and Render replaces them
// with black or white. The error is a *FieldError.
func ValidateStyle(s providers.Style) error {
	for _, f := range []struct{ name, value string }{
		//lint:ignore SA1019 the deprecated Bg and Text are still honoured, so they are checked too.
		{"BrandColor", s.BrandColor}, {"Bg", s.Bg}, {"Text", s.Text},
	} {
		if f.value != "" && !ValidColor(f.value) {
			return &FieldError{Field: f.name, Value: f.value, Reason: reasonColor}
		}
	}
	if s.Logo != "" {
		if _, _, ok := imageSource(s.Logo); !ok {
			return &FieldError{Field: "Logo", Value: s.Logo, Reason: reasonLogo}
		}
	}
	if s.Icon != "" && !isPathData(s.Icon) {
		return &FieldError{Field: "Icon", Value: s.Icon, Reason: "is not SVG path data: use only path commands, numbers, signs, points, commas and spaces"}
	}
	return nil
}

// checkContrast returns a *FieldError when the opaque text colour
// contrasts with bg (composited over white) by less than
// minTextContrast. A translucent text colour is refused too, since its
// contrast depends on what is under it.
func checkContrast(field, text, bg, bgField string) error {
	fg, _ := parseColor(text)
	b, _ := parseColor(bg)
	if fg.a != 255 {
		return &FieldError{Field: field, Value: text, Reason: "is translucent: text on buttons must be an opaque colour"}
	}
	if r := contrastRatio(fg, b.overWhite()); r < minTextContrast {
		return &FieldError{Field: field, Value: text, Reason: fmt.Sprintf(
			"on %s %s has a contrast ratio of %.2f:1; WCAG asks for at least 4.5:1 (leave it empty to get white, or black where white falls short)",
			bgField, strings.TrimSpace(bg), r)}
	}
	return nil
}

// ValidateRoute reports whether route, the application's own page for
// one of the built-in ones (gatehouse.Pages), is usable: an absolute
// path ("/login", not "//host/login") or, when origin (the site's,
// scheme://host) is known, an http(s) URL on it; without a query or
// fragment, since the handler appends "?callbackUrl=…" or "?error=…".
// Anything else would send visitors off the site, or to a broken URL, at
// every sign-in. The error is a *FieldError named field.
func ValidateRoute(field, route, origin string) error {
	bad := func(reason string) error { return &FieldError{Field: field, Value: route, Reason: reason} }
	if strings.ContainsAny(route, "?#\\ \t\r\n") {
		return bad("must be a path or URL without query, fragment, spaces or backslashes")
	}
	u, err := url.Parse(route)
	switch {
	case err != nil || u.User != nil || u.Opaque != "":
		return bad("is not a path or an http(s) URL")
	case u.Scheme == "" && u.Host == "" && strings.HasPrefix(u.Path, "/") && !strings.HasPrefix(route, "//"):
		return nil // a path on this site
	case u.Scheme == "http" || u.Scheme == "https":
		if origin == "" {
			return bad("is a URL, but Config.URL is empty, so its origin cannot be checked: use a path")
		}
		if !strings.EqualFold(u.Scheme+"://"+u.Host, origin) {
			return bad(fmt.Sprintf("is not on the site's origin %s", origin))
		}
		return nil
	default:
		return bad("must be an absolute path such as /login, or a URL on the site's origin")
	}
}
