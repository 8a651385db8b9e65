package nextcloud

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// New returns the Nextcloud provider configuration for the server at
// opts.Issuer, with opts laid over its defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(opts.Issuer), opts)
}

// Defaults returns the configuration for the server at issuer, its base
// URL (a trailing slash is allowed). It sets no scope. With issuer "" the
// endpoints are left empty, and gatehouse.New reports the missing issuer.
func Defaults(issuer string) providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.EndpointsAt(issuer, AuthorizationPath, TokenPath, UserinfoPath), MapProfile(strings.TrimRight(issuer, "/")), providers.Style{BrandColor: "#fff", Icon: Icon})
	c.Userinfo.Request = Userinfo
	return c
}

// ocsAnswer is the OCS envelope.
type ocsAnswer struct {
	OCS struct {
		Meta struct {
			Status     string `json:"status"`
			StatusCode int    `json:"statuscode"`
			Message    string `json:"message"`
		} `json:"meta"`
		// Data is the user record; on failure Nextcloud sends [] here.
		Data json.RawMessage `json:"data"`
	} `json:"ocs"`
}

// Userinfo reads the record of the user the token response names
// (user_id): a GET of r.URL/<user_id> with the Bearer token,
// OCS-APIRequest: true and Accept: application/json. It returns ocs.data,
// and an error when the OCS status is not ok.
func Userinfo(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	userID, _ := r.Tokens.Extra["user_id"].(string)
	if userID == "" {
		return Profile{}, errors.New("nextcloud: the token response has no user_id")
	}
	u := strings.TrimRight(r.URL, "/") + "/" + url.PathEscape(userID)
	var a ocsAnswer
	header := http.Header{"Ocs-Apirequest": {"true"}}
	if err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, u, r.Tokens.AccessToken, header, nil, &a); err != nil {
		return Profile{}, err
	}
	m := a.OCS.Meta
	if m.Status != "ok" {
		return Profile{}, fmt.Errorf("nextcloud: OCS answered %s %d: %s", m.Status, m.StatusCode, m.Message)
	}
	var p Profile
	if err := json.Unmarshal(a.OCS.Data, &p); err != nil {
		return Profile{}, fmt.Errorf("nextcloud: ocs.data is not a user record: %w", err)
	}
	return p, nil
}

// MapProfile returns the mapping for the server at issuer: id ← id, name
// ← displayname, email ← email, image ← <issuer>/avatar/<id>/512. A
// profile without an id is refused.
func MapProfile(issuer string) profile.Callback[Profile] {
	base := strings.TrimRight(issuer, "/")
	return func(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
		return providers.RequireID(profile.User{
			ID:    p.ID,
			Name:  p.DisplayName,
			Email: p.Email,
			Image: base + "/avatar/" + url.PathEscape(p.ID) + "/512",
		}, ID, "profile has no id")
	}
}
