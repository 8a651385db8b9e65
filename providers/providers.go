// Package providers is the provider configuration model: the fields every
// provider has, the OAuth 2.0 and OpenID Connect configurations with their
// endpoint handlers, checks and button style, and the merge rule (Merge)
// by which the built-in providers (one package each below this one) lay a
// user's options over their defaults.
//
// A configuration is data. The sign-in flow in package gatehouse works on
// its type-erased form, OAuth, which an OAuthConfig of any profile type
// gives through its OAuth method.
package providers

import (
	"fmt"
	"reflect"
	"regexp"
)

// ProviderType is the kind of a provider. Every provider passed
// to the configuration has one of these.
type ProviderType string

// The provider types, as Auth.js names them.
const (
	TypeOIDC        ProviderType = "oidc"
	TypeOAuth       ProviderType = "oauth"
	TypeEmail       ProviderType = "email"
	TypeCredentials ProviderType = "credentials"
	TypeWebAuthn    ProviderType = "webauthn"
)

// Valid reports whether t is one of the provider types above.
func (t ProviderType) Valid() bool {
	switch t {
	case TypeOIDC, TypeOAuth, TypeEmail, TypeCredentials, TypeWebAuthn:
		return true
	}
	return false
}

// Redirectable reports whether t is a RedirectableProviderType (Auth.js's
// name for the types whose sign-in redirects back to the application):
// e-mail or credentials.
func (t ProviderType) Redirectable() bool { return t == TypeEmail || t == TypeCredentials }

// Base holds the fields shared by every provider type.
type Base struct {
	// ID identifies the provider within the configuration's providers
	// list. It is part of the provider's URLs, so it is limited to
	// lower-case letters, digits, '-' and '_'.
	ID string `json:"id"`
	// Name is the display name: the default sign-in page labels the
	// button "Sign in with <Name>".
	Name string `json:"name"`
	// Type is the provider's type.
	Type ProviderType `json:"type"`
}

// AppProvider is a provider as the application and its front end see it
// (Auth.js's AppProvider): the Base fields and the provider's two URLs. It is what GET
// {base}/providers answers for each provider.
type AppProvider struct {
	ID          string       `json:"id"`
	Name        string       `json:"name"`
	Type        ProviderType `json:"type"`
	SigninURL   string       `json:"signinUrl"`
	CallbackURL string       `json:"callbackUrl"`
}

// Provider is one entry of the configuration's providers list (Auth.js's
// Provider<P>): an OAuthConfig of any profile type, another provider
// type's configuration, or a Func that returns one.
type Provider interface {
	// ProviderBase returns the provider's id, name and type.
	ProviderBase() Base
}

// Func is a provider given as a function returning its configuration
// (Auth.js allows a provider or a function returning one). The configuration
// calls it once, when the handler is built.
type Func func() Provider

// ProviderBase calls f and returns its result's Base.
func (f Func) ProviderBase() Base { return f().ProviderBase() }

// Resolve returns p with any Func layers called, or nil when p, or what a
// Func returns, is nil: an untyped nil, a nil Func or a nil pointer such as
// (*OAuth)(nil), which would otherwise panic at the first method call.
func Resolve(p Provider) Provider {
	for i := 0; i < 8; i++ {
		if isNil(p) {
			return nil
		}
		f, ok := p.(Func)
		if !ok {
			return p
		}
		p = f()
	}
	if isNil(p) {
		return nil
	}
	return p
}

// isNil reports whether p is nil or holds a nil pointer or function.
func isNil(p Provider) bool {
	if p == nil {
		return true
	}
	switch v := reflect.ValueOf(p); v.Kind() {
	case reflect.Pointer, reflect.Func, reflect.Map, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// Style is the sign-in button's look (Auth.js's OAuthProviderButtonStyles).
type Style struct {
	// Logo is the URL or path of the provider's logo, an image the
	// built-in pages load; when set it is shown instead of Icon.
	Logo string `json:"logo,omitempty"`
	// Icon is the provider's logo as SVG path data on a 24×24 grid: the
	// d attribute of one <path>, only path commands, numbers, signs,
	// points, commas and spaces (pages.ValidateStyle refuses anything
	// else). The built-in pages draw it inline, filled with the button's
	// text colour (fill="currentColor"), so it follows the button in both
	// colour schemes. Each built-in provider with a logo sets it to its
	// package's Icon constant; an application may replace it, or set it
	// on a provider of its own.
	Icon string `json:"icon,omitempty"`
	// BrandColor is the button's background colour.
	BrandColor string `json:"brandColor,omitempty"`
	// Bg is the button's background colour.
	//
	// Deprecated: use BrandColor. Bg is still honoured when BrandColor is
	// empty.
	Bg string `json:"bg,omitempty"`
	// Text is the button's text colour.
	//
	// Deprecated: kept for configurations written for Auth.js; the pages
	// pick a readable text colour themselves when it is empty.
	Text string `json:"text,omitempty"`
}

// Background returns BrandColor, else the deprecated Bg, else "".
func (s Style) Background() string {
	if s.BrandColor != "" {
		return s.BrandColor
	}
	return s.Bg
}

// merge returns s with every non-empty field of o laid over it.
func (s Style) merge(o Style) Style {
	set(&s.Logo, o.Logo)
	set(&s.Icon, o.Icon)
	set(&s.BrandColor, o.BrandColor)
	set(&s.Bg, o.Bg)
	set(&s.Text, o.Text)
	return s
}

func set[T comparable](dst *T, v T) {
	var zero T
	if v != zero {
		*dst = v
	}
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// ValidID reports whether id can serve as a provider id in a URL path.
func ValidID(id string) bool { return idPattern.MatchString(id) }

// CheckID returns a *ConfigError on the field "id" when id cannot serve as
// a provider id (ValidID), else nil. The Prepare and Validate methods of
// the provider configurations begin with it.
func CheckID(id string) error {
	if !ValidID(id) {
		return &ConfigError{Provider: id, Field: "id", Reason: "must be lower-case letters, digits, '-' or '_'"}
	}
	return nil
}

// ConfigError says what is wrong with one field of one provider's
// configuration. gatehouse.New returns it (wrapped) for invalid input.
type ConfigError struct {
	Provider string // the provider id, or its index when the id is unusable
	Field    string // the field's name as Auth.js spells it, e.g. "clientId"
	Reason   string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("provider %q: %s: %s", e.Provider, e.Field, e.Reason)
}

// PrepareBase begins the Prepare method of a provider configuration:
// it sets *id and *name to those of b (the configuration's ProviderBase,
// with its defaults filled in) and returns CheckID's verdict on the id.
func PrepareBase(b Base, id, name *string) error {
	*id, *name = b.ID, b.Name
	return CheckID(b.ID)
}

// FieldError returns the *ConfigError on the field of the provider id.
func FieldError(id, field, reason string) error {
	return &ConfigError{Provider: id, Field: field, Reason: reason}
}
