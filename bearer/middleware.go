package bearer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

type contextKey struct{}

// FromContext returns the token Middleware verified for the request whose
// context ctx is, or nil.
func FromContext(ctx context.Context) *Token {
	t, _ := ctx.Value(contextKey{}).(*Token)
	return t
}

// VerifyRequest finds the access token of r, in its Authorization header
// only (RFC 6750 §2.1; a token in the query string is refused), verifies
// it, and for a DPoP-bound token checks the DPoP proof (RFC 9449 §7).
func (v *Verifier) VerifyRequest(r *http.Request) (*Token, error) {
	if r.URL.RawQuery != "" && r.URL.Query().Has("access_token") {
		return nil, fmt.Errorf("bearer: %w", ErrTokenInQuery)
	}
	scheme, token, err := credentials(r)
	if err != nil {
		return nil, err
	}
	t, err := v.verify(r.Context(), token)
	if err != nil {
		return nil, err
	}
	proofs := r.Header.Values("DPoP")
	if t.KeyThumbprint == "" {
		if scheme == "DPoP" {
			return nil, fmt.Errorf("bearer: %w: DPoP scheme with a token not bound to a key", ErrDPoPProof)
		}
		return t, nil
	}
	// RFC 9449 §7.1, §7.2: a bound token is no bearer token. Accepting it
	// without its proof would let whoever copied it use it.
	if scheme != "DPoP" {
		return nil, fmt.Errorf("bearer: %w: bound token sent with the Bearer scheme", ErrDPoPRequired)
	}
	switch len(proofs) {
	case 0:
		return nil, fmt.Errorf("bearer: %w: no DPoP header", ErrDPoPRequired)
	case 1:
	default:
		return nil, fmt.Errorf("bearer: %w: %d DPoP headers", ErrDPoPProof, len(proofs))
	}
	if err := v.checkProof(r.Context(), proofs[0], r, token, t.KeyThumbprint); err != nil {
		return nil, err
	}
	return t, nil
}

// credentials returns the scheme ("Bearer" or "DPoP") and token of r's one
// Authorization header.
func credentials(r *http.Request) (scheme, token string, err error) {
	values := r.Header.Values("Authorization")
	switch len(values) {
	case 0:
		return "", "", fmt.Errorf("bearer: %w", ErrNoToken)
	case 1:
	default:
		return "", "", fmt.Errorf("bearer: %w: %d Authorization headers", ErrMalformedRequest, len(values))
	}
	scheme, token, _ = strings.Cut(values[0], " ")
	switch {
	case strings.EqualFold(scheme, "Bearer"):
		scheme = "Bearer"
	case strings.EqualFold(scheme, "DPoP"):
		scheme = "DPoP"
	default:
		return "", "", fmt.Errorf("bearer: %w: %q scheme", ErrNoToken, scheme)
	}
	token = strings.TrimLeft(token, " ")
	if !isB64Token(token) {
		return "", "", fmt.Errorf("bearer: %w: not a b64token", ErrMalformedRequest)
	}
	return scheme, token, nil
}

// isB64Token checks the token68 syntax of RFC 6750 §2.1:
// 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=".
func isB64Token(s string) bool {
	body := strings.TrimRight(s, "=")
	if body == "" {
		return false
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/') {
			return false
		}
	}
	return true
}

// Middleware verifies each request's access token (VerifyRequest) and
// passes the request on with the token in its context (FromContext). A
// request without a valid token gets the RFC 6750 §3 answer: 401 with a
// WWW-Authenticate challenge, 400 for a malformed request, 503 when the
// issuer's keys or introspection endpoint cannot be reached.
func (v *Verifier) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t, err := v.VerifyRequest(r)
		if err != nil {
			v.Fail(w, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), contextKey{}, t)))
	})
}

// RequireScope returns middleware that passes on only requests whose token
// has every one of scopes, and answers others 403 insufficient_scope (RFC
// 6750 §3.1). Use it inside Middleware; alone, it verifies the token
// itself. It panics if a scope is not an RFC 6749 §3.3 scope-token.
func (v *Verifier) RequireScope(scopes ...string) func(http.Handler) http.Handler {
	for _, s := range scopes {
		if !isScopeToken(s) {
			panic(fmt.Sprintf("bearer: RequireScope: %q is not a scope token", s))
		}
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			t := FromContext(r.Context())
			if t == nil {
				var err error
				if t, err = v.VerifyRequest(r); err != nil {
					v.Fail(w, err)
					return
				}
				r = r.WithContext(context.WithValue(r.Context(), contextKey{}, t))
			}
			for _, s := range scopes {
				if !t.HasScope(s) {
					v.fail(w, fmt.Errorf("bearer: %w: %s", ErrInsufficientScope, s), strings.Join(scopes, " "))
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// isScopeToken checks scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
func isScopeToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x21 || c == 0x22 || c == 0x5c || c > 0x7e {
			return false
		}
	}
	return s != ""
}

// Fail writes the answer for err, an error of VerifyRequest or Verify:
// the status and WWW-Authenticate challenge of RFC 6750 §3 (or RFC 9449
// §7.1 for DPoP proofs). Only the fixed message of the error's kind
// reaches the client, never the detail.
func (v *Verifier) Fail(w http.ResponseWriter, err error) { v.fail(w, err, "") }

func (v *Verifier) fail(w http.ResponseWriter, err error, scope string) {
	code, st := status(err)
	if st != http.StatusServiceUnavailable {
		var params []string
		if v.cfg.Realm != "" {
			params = append(params, `realm="`+v.cfg.Realm+`"`)
		}
		if code != "" {
			params = append(params, `error="`+code+`"`, `error_description="`+description(err)+`"`)
		}
		if scope != "" {
			params = append(params, `scope="`+scope+`"`)
		}
		algs := `algs="` + v.algNames + `"`
		if code == "invalid_dpop_proof" || errors.Is(err, ErrDPoPRequired) {
			// RFC 9449 §7.1: a DPoP failure is answered in the DPoP scheme.
			w.Header().Add("WWW-Authenticate", "DPoP "+strings.Join(append(params, algs), ", "))
		} else {
			// RFC 9449 §7.2: and beside a Bearer challenge, DPoP is offered.
			w.Header().Add("WWW-Authenticate", strings.TrimSpace("Bearer "+strings.Join(params, ", ")))
			w.Header().Add("WWW-Authenticate", "DPoP "+algs)
		}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(st)
	fmt.Fprintln(w, description(err))
}
