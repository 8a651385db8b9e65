package hubspot

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// FetchProfile is the userinfo handler: a GET of r.URL (UserinfoURL when
// empty) with the access token appended as a path segment. Errors never
// carry the token: it is replaced by "<access_token>" in their text.
func FetchProfile(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	base := r.URL
	if base == "" {
		base = UserinfoURL
	}
	tok := r.Tokens.AccessToken
	if tok == "" {
		return Profile{}, errors.New("hubspot: no access token")
	}
	base = strings.TrimRight(base, "/")
	var p Profile
	err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, base+"/"+url.PathEscape(tok), "", nil, nil, &p)
	if err != nil {
		return Profile{}, redact(err, tok, base+"/<access_token>")
	}
	return p, nil
}

// redact removes tok from err: from the URL of an HTTP error or a
// transport error, and from the text of any other.
func redact(err error, tok, redactedURL string) error {
	err = providers.MaskURL(err, redactedURL)
	if msg := err.Error(); strings.Contains(msg, tok) || strings.Contains(msg, url.PathEscape(tok)) {
		msg = strings.ReplaceAll(msg, url.PathEscape(tok), "<access_token>")
		return &redactedError{msg: strings.ReplaceAll(msg, tok, "<access_token>"), err: err}
	}
	return err
}

// redactedError is an error whose text had the access token removed.
type redactedError struct {
	msg string
	err error
}

// Error returns the redacted text.
func (e *redactedError) Error() string { return e.msg }

// Unwrap returns the original error, for errors.Is and errors.As.
func (e *redactedError) Unwrap() error { return e.err }
