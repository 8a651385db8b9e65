package gatehouse

import (
	"errors"
	"fmt"

	"github.com/gatehouse-auth/gatehouse/pages"
)

// checkLook reports, as a *ConfigError, the first value of Theme or of a
// provider's Style that the built-in pages could not use (see
// pages.Theme.Validate and pages.ValidateStyle). The pages would drop
// such a value silently; New refuses it, so a mistyped colour or logo URL
// shows at start-up.
func (h *Handler) checkLook() error {
	if err := h.cfg.Theme.Validate(); err != nil {
		return lookError("", "Theme.", err)
	}
	for _, id := range h.order {
		p, ok := h.oauth[id] // e-mail and credentials providers are not in h.oauth
		if !ok {
			continue
		}
		if err := pages.ValidateStyle(p.cfg.Style); err != nil {
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
