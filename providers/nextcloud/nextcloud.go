// Package nextcloud is the built-in Nextcloud provider (OAuth 2.0).
// Nextcloud is self-hosted: the endpoints are those of the server whose
// base URL is the Issuer option (AUTH_NEXTCLOUD_ISSUER), e.g.
// https://cloud.example.com.
//
// The profile comes from the OCS user provisioning API, which answers XML
// unless asked for JSON and wants an OCS-APIRequest header; the token
// response names the user (user_id) whose record is read. Nextcloud's
// OAuth 2.0 has no scopes: a token has full access to the account.
//
//	p := nextcloud.New(providers.OAuthUserConfig[nextcloud.Profile]{
//		ClientID:     os.Getenv("AUTH_NEXTCLOUD_ID"),
//		ClientSecret: os.Getenv("AUTH_NEXTCLOUD_SECRET"),
//		Issuer:       os.Getenv("AUTH_NEXTCLOUD_ISSUER"),
//	})
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

// The provider's facts. The endpoints are paths under the server's base
// URL.
const (
	// ID is the provider id, part of its URLs.
	ID = "nextcloud"
	// Name is the display name.
	Name = "Nextcloud"
	// AuthorizationPath is where the user signs in and consents.
	AuthorizationPath = "/apps/oauth2/authorize"
	// TokenPath exchanges the code for tokens (client_secret_basic).
	TokenPath = "/apps/oauth2/api/v1/token"
	// UserinfoPath is the OCS users collection; the user's record is at
	// UserinfoPath/<user_id>. See Userinfo.
	UserinfoPath = "/ocs/v1.php/cloud/users"
)

// Profile is a user record of the OCS provisioning API (ocs.data).
type Profile struct {
	// ID is the user's login name, e.g. "frank".
	ID string `json:"id"`
	// Email is the user's e-mail address, if set.
	Email string `json:"email"`
	// DisplayName is the user's display name.
	DisplayName string `json:"displayname"`
	// Phone is the user's phone number.
	Phone string `json:"phone,omitempty"`
	// Address is the user's postal address.
	Address string `json:"address,omitempty"`
	// Website is the user's web site.
	Website string `json:"website,omitempty"`
	// Twitter is the user's Twitter handle.
	Twitter string `json:"twitter,omitempty"`
	// Fediverse is the user's fediverse handle.
	Fediverse string `json:"fediverse,omitempty"`
	// Organisation is the user's organisation.
	Organisation string `json:"organisation,omitempty"`
	// Role is the user's role or job title.
	Role string `json:"role,omitempty"`
	// Headline is the user's headline.
	Headline string `json:"headline,omitempty"`
	// Biography is the user's biography.
	Biography string `json:"biography,omitempty"`
	// Groups are the groups the user belongs to.
	Groups []string `json:"groups,omitempty"`
	// Language is the user's language, e.g. "en".
	Language string `json:"language,omitempty"`
	// Locale is the user's locale, e.g. "en_US".
	Locale string `json:"locale,omitempty"`
	// Enabled is false for a disabled account.
	Enabled bool `json:"enabled"`
	// StorageLocation is the path of the user's files on the server.
	StorageLocation string `json:"storageLocation,omitempty"`
}

// New returns the Nextcloud provider configuration for the server at
// opts.Issuer, with opts laid over its defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(opts.Issuer), opts)
}

// Defaults returns the configuration for the server at issuer, its base
// URL (a trailing slash is allowed). It sets no scope. With issuer "" the
// endpoints are left empty, and gatehouse.New reports the missing issuer.
func Defaults(issuer string) providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.EndpointsAt(issuer, AuthorizationPath, TokenPath, UserinfoPath), MapProfile(strings.TrimRight(issuer, "/")), providers.Style{BrandColor: "#fff"})
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
// ← displayname, email ← email, image ← <issuer>/avatar/<id>/512.
func MapProfile(issuer string) profile.Callback[Profile] {
	base := strings.TrimRight(issuer, "/")
	return func(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
		return profile.User{
			ID:    p.ID,
			Name:  p.DisplayName,
			Email: p.Email,
			Image: base + "/avatar/" + url.PathEscape(p.ID) + "/512",
		}, nil
	}
}
