package site

import (
	"errors"
	"fmt"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Styled is a provider's button style, for CheckLook.
type Styled struct {
	ID    string
	Style providers.Style
}

// CheckLook reports, as a *autherr.ConfigError, the first of the
// application's page routes p that is not its own (pages.ValidateRoute,
// against the site's URL), or the first value of theme or of a
// provider's style that the built-in pages could not use
// (pages.Theme.Validate, pages.ValidateStyle). The pages would drop such
// a value silently; New refuses it, so a mistyped colour or logo URL
// shows at start-up.
func CheckLook(p Pages, url string, theme pages.Theme, styles []Styled) error {
	for _, f := range p.Fields() {
		if f.Route == "" {
			continue
		}
		if err := pages.ValidateRoute(f.Name, f.Route, url); err != nil {
			return lookError("", "Pages.", err)
		}
	}
	if err := theme.Validate(); err != nil {
		return lookError("", "Theme.", err)
	}
	for _, s := range styles {
		if err := pages.ValidateStyle(s.Style); err != nil {
			return lookError(s.ID, "Style.", err)
		}
	}
	return nil
}

// lookError is err (a *pages.FieldError) as a ConfigError of the field
// prefix+name.
func lookError(provider, prefix string, err error) error {
	ce := &autherr.ConfigError{Provider: provider, Err: err}
	var fe *pages.FieldError
	if errors.As(err, &fe) {
		ce.Field = prefix + fe.Field
		ce.Reason = fmt.Sprintf("%q %s", fe.Value, fe.Reason)
	}
	return ce
}
