package providers

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// MaxResponseBytes bounds every provider answer Gatehouse reads (userinfo,
// token, discovery, keys): a hostile or broken provider cannot make it
// buffer more.
const MaxResponseBytes = 1 << 20

// HTTPError is a non-2xx answer from a provider endpoint. Body holds the
// answer (at most MaxResponseBytes) for the caller, through errors.As. It
// is never shown to users, and Error leaves it out, so that a provider's
// answer (which may carry profile data) never reaches a log: Error says
// the status, the content type and the size only.
type HTTPError struct {
	URL         string
	StatusCode  int
	ContentType string
	Body        string
}

func (e *HTTPError) Error() string {
	// The content type is the provider's text: at most 100 bytes of it,
	// cut on a character boundary.
	ct := cmp.Or(e.ContentType, "no content type")
	if len(ct) > 100 {
		ct = strings.ToValidUTF8(ct[:100], "")
	}
	return fmt.Sprintf("%s answered %d (%s, %d bytes)", redactURL(e.URL), e.StatusCode, ct, len(e.Body))
}

// redactURL drops the query, which may carry tokens for providers that
// want them there.
func redactURL(u string) string {
	if i := strings.IndexByte(u, '?'); i >= 0 {
		return u[:i] + "?…"
	}
	return u
}

// FetchJSON sends a request to rawURL with accessToken (if any) as a
// Bearer token and the given extra headers, and decodes a 2xx JSON answer
// into v. It reads at most MaxResponseBytes. Built-in providers use it in
// their custom userinfo handlers.
func FetchJSON(ctx context.Context, c *http.Client, method, rawURL, accessToken string, header http.Header, body io.Reader, v any) error {
	if c == nil {
		c = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, method, rawURL, body)
	if err != nil {
		return err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	req.Header.Set("Accept", "application/json")
	if accessToken != "" {
		req.Header.Set("Authorization", "Bearer "+accessToken)
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return fmt.Errorf("reading %s: %w", redactURL(rawURL), err)
	}
	if len(raw) > MaxResponseBytes {
		return fmt.Errorf("%s: answer larger than %d bytes", redactURL(rawURL), MaxResponseBytes)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &HTTPError{URL: rawURL, StatusCode: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Body: string(raw)}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s: answer is not the expected JSON: %w", redactURL(rawURL), err)
	}
	return nil
}

// MaskURL puts shown in place of the URL that err names as an HTTPError
// or a *url.Error, and returns err: a request whose URL carries the access
// token names another in its errors, so that the token does not reach
// logs.
func MaskURL(err error, shown string) error {
	var he *HTTPError
	if errors.As(err, &he) {
		he.URL = shown
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		ue.URL = shown
	}
	return err
}

// PostForm sends form to rawURL as an application/x-www-form-urlencoded
// POST, with accessToken (if any) as a Bearer token, and decodes a 2xx
// JSON answer into v as FetchJSON does.
func PostForm(ctx context.Context, c *http.Client, rawURL, accessToken string, form url.Values, v any) error {
	header := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
	return FetchJSON(ctx, c, http.MethodPost, rawURL, accessToken, header, strings.NewReader(form.Encode()), v)
}
