package keyflow

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/permission"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// Token answers POST {base}/token {audience, scope}: a short-lived access
// token for one of the configured services (RFC 9068), for the caller
// (an API key in the Authorization header, or the session cookie with
// the CSRF token), with the permissions it asked for in scope
// (space-separated), each of which it must hold. The answer is shaped as
// an OAuth 2.0 token response (RFC 6749 §5.1); errors as §5.2, with
// invalid_target for an audience that is not configured (RFC 8707 §2).
func (f *Flow) Token(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	var userID, orgID, clientID string
	var held permission.Set
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	var form url.Values
	ok := true
	if res, isKey := f.Authenticate(r); isKey {
		switch p := res.Principal; {
		case res.Err != nil:
			storeDown(w)
			return
		case res.Wait > 0:
			plugin.TooManyKeyRequests(w, res.Wait)
			return
		case p == nil:
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			fail(w, http.StatusUnauthorized, "invalid_token")
			return
		default:
			userID, orgID, clientID, held = p.UserID, p.OrganizationID, p.KeyID, p.Permissions
		}
		if form, ok = readForm(w, r); !ok {
			return
		}
	} else {
		// A session cookie: a browser's ambient credential, so the
		// request must be same-origin and carry the CSRF token. (Who is
		// signed in is read first, so that a program with neither a key
		// nor a session is told 401.)
		if userID, _, ok = f.owner(w, r); !ok {
			return
		}
		if form, ok = f.post(w, r); !ok {
			return
		}
		if active := f.cfg.Keys.ActiveOrganization; active != nil {
			orgID = active(r)
		}
		clientID = f.signer.Config().ClientID
		var err error
		if held, err = f.holds(ctx, userID, orgID); err != nil {
			storeDown(w)
			return
		}
		if orgID != "" && len(held) == 0 {
			// Not a member (see apikey.Config.Permissions): no org_id.
			fail(w, http.StatusForbidden, "insufficient_permissions")
			return
		}
	}
	// The one grant the metadata names (servicetoken.GrantType); a
	// request without grant_type is taken as it. Another is refused as
	// RFC 6749 §5.2 says.
	if gt := form.Get("grant_type"); gt != "" && gt != servicetoken.GrantType {
		fail(w, http.StatusBadRequest, "unsupported_grant_type")
		return
	}
	cfg := f.signer.Config()
	audience := form.Get("audience")
	if audience == "" {
		audience = cfg.Audiences[0]
	} else if !slices.Contains(cfg.Audiences, audience) {
		fail(w, http.StatusBadRequest, "invalid_target")
		return
	}
	want, err := permission.NewSet(strings.Fields(form.Get("scope"))...)
	if err != nil || !held.Covers(want) {
		fail(w, http.StatusBadRequest, "invalid_scope")
		return
	}
	scope := strings.Join(want.Strings(), " ")
	token, exp, err := f.signer.Issue(ctx, f.issuer(r), servicetoken.Claims{
		Subject: userID, Audience: audience, ClientID: clientID, Scope: scope, OrganizationID: orgID})
	if err != nil {
		f.cfg.Logger.Error("gatehouse: issuing a service token failed", "step", "token", "err", err)
		storeDown(w)
		return
	}
	out := map[string]any{"access_token": token, "token_type": "Bearer",
		"expires_in": int(cfg.Lifetime.Seconds()), "expires_at": exp.Unix()}
	if scope != "" {
		out["scope"] = scope
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// readForm reads the body of a request made with a key.
func readForm(w http.ResponseWriter, r *http.Request) (url.Values, bool) {
	v, err := httpx.ReadForm(r)
	if err != nil {
		fail(w, http.StatusBadRequest, "invalid_request")
		return nil, false
	}
	return v, true
}

// JWKS answers GET {base}/jwks: the public keys that verify the tokens
// (RFC 7517 §5), cacheable for a quarter of the Overlap, so that a
// verifier's copy has a new key before it signs.
func (f *Flow) JWKS(w http.ResponseWriter, r *http.Request) {
	body, err := f.signer.JWKS(r.Context())
	if err != nil {
		f.cfg.Logger.Error("gatehouse: reading the signing keys failed", "step", "jwks", "err", err)
		storeDown(w)
		return
	}
	w.Header().Set("Cache-Control", fmt.Sprintf("public, max-age=%d", int(f.signer.Config().MaxAge().Seconds())))
	w.Header().Set("Content-Type", "application/jwk-set+json")
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// Metadata answers GET {base}/.well-known/oauth-authorization-server: the
// authorization server metadata (RFC 8414) of the tokens, whose issuer is
// the iss they carry. RFC 8414 §3.1 puts it at
// /.well-known/oauth-authorization-server{base} instead, outside the base
// path: the application mounts servicetoken.NewMetadata there.
func (f *Flow) Metadata(w http.ResponseWriter, r *http.Request) {
	servicetoken.NewMetadata(f.issuer(r)).ServeHTTP(w, r)
}

// issuer returns the iss of tokens issued through r: the handler's URL
// with its base path.
func (f *Flow) issuer(r *http.Request) string {
	b := f.cfg.Site.For(r)
	return b.Origin + b.Path
}
