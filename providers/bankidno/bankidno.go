package bankidno

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// FetchProfile is the userinfo handler: a GET of r.URL (the discovered
// userinfo endpoint) with the access token as a Bearer token. BankID
// answers a signed JWT; a plain JSON answer is accepted too.
//
// The JWT's claims are read without checking its signature: the answer
// comes straight from BankID over TLS, which OpenID Connect Core §5.3.4
// requires and which already authenticates it (the signature check is a
// SHOULD). What §5.3.4 does require is checked: the sub of the answer must
// equal the ID token's. Encrypted (JWE) answers are refused.
func FetchProfile(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	if r.URL == "" {
		return Profile{}, errors.New("bankid-no: no userinfo endpoint (it comes from discovery)")
	}
	c := r.HTTPClient
	if c == nil {
		c = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL, nil)
	if err != nil {
		return Profile{}, err
	}
	req.Header.Set("Accept", "application/jwt, application/json")
	req.Header.Set("Authorization", "Bearer "+r.Tokens.AccessToken)
	resp, err := c.Do(req)
	if err != nil {
		return Profile{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, providers.MaxResponseBytes+1))
	if err != nil {
		return Profile{}, fmt.Errorf("bankid-no: reading userinfo: %w", err)
	}
	if len(raw) > providers.MaxResponseBytes {
		return Profile{}, fmt.Errorf("bankid-no: userinfo answer larger than %d bytes", providers.MaxResponseBytes)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return Profile{}, &providers.HTTPError{URL: r.URL, StatusCode: resp.StatusCode, Body: string(raw)}
	}
	var p Profile
	if err := decodeUserinfo(raw, &p); err != nil {
		return Profile{}, fmt.Errorf("bankid-no: userinfo: %w", err)
	}
	if p.Sub == "" {
		return Profile{}, errors.New("bankid-no: userinfo has no sub")
	}
	if r.Tokens.IDToken != "" {
		var id struct {
			Sub string `json:"sub"`
		}
		if err := decodeUserinfo([]byte(r.Tokens.IDToken), &id); err != nil {
			return Profile{}, fmt.Errorf("bankid-no: reading the ID token's sub: %w", err)
		}
		if id.Sub != p.Sub {
			return Profile{}, errors.New("bankid-no: userinfo sub differs from the ID token's")
		}
	}
	return p, nil
}

// decodeUserinfo reads a JSON object, or the payload of a compact JWS
// (header.payload.signature), into v.
func decodeUserinfo(raw []byte, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '{' {
		return json.Unmarshal(raw, v)
	}
	parts := strings.Split(string(raw), ".")
	switch len(parts) {
	case 3:
	case 5:
		return errors.New("the answer is an encrypted JWT (JWE), which is not supported")
	default:
		return errors.New("the answer is neither JSON nor a JWT")
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return fmt.Errorf("JWT payload: %w", err)
	}
	return json.Unmarshal(payload, v)
}
