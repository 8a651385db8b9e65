package bearer

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
)

// claims are the JWT access token claims of RFC 9068 §2.2, plus org_id
// and cnf (RFC 9449 §6.1). Introspection answers (RFC 7662 §2.2) use the
// same names, with active.
type claims struct {
	Iss      string       `json:"iss"`
	Sub      string       `json:"sub"`
	Aud      audience     `json:"aud"`
	Exp      *numericDate `json:"exp"`
	Nbf      *numericDate `json:"nbf"`
	Iat      *numericDate `json:"iat"`
	Jti      string       `json:"jti"`
	ClientID string       `json:"client_id"`
	Scope    string       `json:"scope"`
	OrgID    string       `json:"org_id"`
	// Cnf is the confirmation (RFC 7800): only jkt, the DPoP key
	// thumbprint (RFC 9449 §6), can be checked here.
	Cnf    map[string]json.RawMessage `json:"cnf"`
	Active bool                       `json:"active"`
}

// audience is aud: one string or an array of them (RFC 7519 §4.1.3).
type audience []string

func (a *audience) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var one string
		if err := json.Unmarshal(b, &one); err != nil {
			return err
		}
		*a = audience{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("aud is neither a string nor an array of strings")
	}
	*a = many
	return nil
}

// numericDate is a JWT NumericDate: seconds since the epoch, possibly
// fractional (RFC 7519 §2).
type numericDate float64

// time clamps absurd values so that a hostile exp of 1e300 cannot
// overflow into the past.
func (d *numericDate) time() time.Time {
	f := float64(*d)
	const max = 1 << 40 // some 34,000 years from now
	if math.IsNaN(f) || f < 0 {
		f = 0
	}
	f = math.Min(f, max)
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9))
}

// checkClaims checks issuer, audience and validity times, one small step
// each. With required set (JWTs) iss and exp must be present; an
// introspection answer may leave them out (RFC 7662 §2.2).
func (v *Verifier) checkClaims(c *claims, now time.Time, required bool) error {
	// RFC 9068 §4 step 3: iss must be exactly the expected issuer.
	if c.Iss != v.cfg.Issuer && (required || c.Iss != "") {
		return fmt.Errorf("bearer: %w: %q", ErrIssuer, c.Iss)
	}
	// RFC 9068 §4 step 4: aud must name this resource server.
	if required || len(c.Aud) > 0 {
		if !v.forUs(c.Aud) {
			return fmt.Errorf("bearer: %w: %q", ErrAudience, []string(c.Aud))
		}
	}
	// RFC 9068 §4 step 7, RFC 7519 §4.1.4: now must be before exp.
	if c.Exp == nil {
		if required {
			return fmt.Errorf("bearer: %w: no exp", ErrExpired)
		}
	} else if exp := c.Exp.time(); !now.Before(exp.Add(v.leeway)) {
		return fmt.Errorf("bearer: %w at %s", ErrExpired, exp.UTC().Format(time.RFC3339))
	}
	// RFC 7519 §4.1.5: not before nbf. A token issued (iat) in the future
	// is as suspicious: a clock far ahead, or a token minted in advance.
	if c.Nbf != nil && now.Add(v.leeway).Before(c.Nbf.time()) {
		return fmt.Errorf("bearer: %w: nbf %s", ErrNotYetValid, c.Nbf.time().UTC().Format(time.RFC3339))
	}
	if c.Iat != nil && now.Add(v.leeway).Before(c.Iat.time()) {
		return fmt.Errorf("bearer: %w: iat %s", ErrNotYetValid, c.Iat.time().UTC().Format(time.RFC3339))
	}
	return v.checkBinding(c)
}

// checkBinding refuses a token bound by a confirmation method other than a
// DPoP key: taking, say, a certificate-bound token (RFC 8705) as a bearer
// token would let whoever copied it use it.
func (v *Verifier) checkBinding(c *claims) error {
	for method, value := range c.Cnf {
		var jkt string
		if method != "jkt" || json.Unmarshal(value, &jkt) != nil || jkt == "" {
			return fmt.Errorf("bearer: %w: cnf %q", ErrBinding, method)
		}
	}
	return nil
}

func (v *Verifier) forUs(aud []string) bool {
	for _, a := range aud {
		for _, ours := range v.cfg.Audience {
			if a == ours {
				return true
			}
		}
	}
	return false
}

// token turns checked claims into a Token; raw is the claims JSON.
func (c *claims) token(raw []byte) *Token {
	t := &Token{
		Issuer:       c.Iss,
		Subject:      c.Sub,
		Audience:     c.Aud,
		ClientID:     c.ClientID,
		Scopes:       strings.Fields(c.Scope),
		Organization: c.OrgID,
		ID:           c.Jti,
		raw:          raw,
	}
	if jkt, ok := c.Cnf["jkt"]; ok {
		json.Unmarshal(jkt, &t.KeyThumbprint) // checked by checkBinding
	}
	if c.Exp != nil {
		t.Expiry = c.Exp.time()
	}
	if c.Iat != nil {
		t.IssuedAt = c.Iat.time()
	}
	return t
}
