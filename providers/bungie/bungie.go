package bungie

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Account is a Bungie.net account and its game memberships.
type Account struct {
	// BungieNetUser is the Bungie.net user.
	BungieNetUser User `json:"bungieNetUser"`
	// DestinyMemberships are the user's Destiny accounts, raw.
	DestinyMemberships []map[string]any `json:"destinyMemberships,omitempty"`
}

// User is a Bungie.net user.
type User struct {
	// MembershipID is the user's Bungie.net membership id (digits).
	MembershipID string `json:"membershipId"`
	// UniqueName is the user's unique name.
	UniqueName string `json:"uniqueName,omitempty"`
	// DisplayName is the user's display name.
	DisplayName string `json:"displayName,omitempty"`
	// CachedBungieGlobalDisplayName is the Bungie Name without its code.
	CachedBungieGlobalDisplayName string `json:"cachedBungieGlobalDisplayName,omitempty"`
	// CachedBungieGlobalDisplayNameCode is the Bungie Name's number.
	CachedBungieGlobalDisplayNameCode int `json:"cachedBungieGlobalDisplayNameCode,omitempty"`
	// ProfilePicturePath is the picture's path on SiteURL.
	ProfilePicturePath string `json:"profilePicturePath,omitempty"`
	// Locale is the user's language.
	Locale string `json:"locale,omitempty"`
	// About is the user's biography.
	About string `json:"about,omitempty"`
	// FirstAccess is when the user first signed in (ISO 8601).
	FirstAccess string `json:"firstAccess,omitempty"`
	// LastUpdate is when the user last changed their profile (ISO 8601).
	LastUpdate string `json:"lastUpdate,omitempty"`
}

// New returns the Bungie provider configuration with opts laid over its
// defaults by providers.Merge, without an API key: its userinfo handler
// fails until one is given. Use NewWithAPIKey.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return NewWithAPIKey("", opts)
}

// NewWithAPIKey returns the Bungie provider configuration whose userinfo
// handler sends apiKey, with opts laid over its defaults by
// providers.Merge.
func NewWithAPIKey(apiKey string, opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(apiKey), opts)
}

// Defaults returns the Bungie configuration before any user option: the
// endpoints, the checks (pkce and state), FetchProfile(apiKey) and
// MapProfile. Bungie takes no scope (an app's scopes are set when it is
// registered). The button has the Bungie logo but no colour of its own.
func Defaults(apiKey string) providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.OAuthEndpoints{AuthorizationURL: AuthorizationURL, TokenURL: TokenURL, UserinfoURL: UserinfoURL}, MapProfile, providers.Style{Icon: Icon})
	c.Userinfo.Request = FetchProfile(apiKey)
	c.Checks = []providers.Check{providers.CheckPKCE, providers.CheckState}
	return c
}

// FetchProfile returns the userinfo handler: a GET of r.URL (UserinfoURL
// when empty), with MembershipIDPlaceholder replaced by the token
// response's membership_id, the access token as a Bearer token and apiKey
// in the X-API-Key header. A platform answer whose ErrorCode is not 1 is
// an error.
func FetchProfile(apiKey string) func(context.Context, providers.UserinfoRequest) (Profile, error) {
	return func(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
		if apiKey == "" {
			return Profile{}, errors.New("bungie: no API key: make the provider with bungie.NewWithAPIKey (or set " + APIKeyEnv + " for the registry)")
		}
		u := r.URL
		if u == "" {
			u = UserinfoURL
		}
		if strings.Contains(u, MembershipIDPlaceholder) {
			id := membershipID(r.Tokens)
			if id == "" {
				return Profile{}, errors.New("bungie: the token response has no membership_id")
			}
			u = strings.ReplaceAll(u, MembershipIDPlaceholder, url.PathEscape(id))
		}
		var p Profile
		h := http.Header{APIKeyHeader: {apiKey}}
		if err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, u, r.Tokens.AccessToken, h, nil, &p); err != nil {
			return Profile{}, err
		}
		if p.ErrorCode != 1 {
			return Profile{}, fmt.Errorf("bungie: %s (ErrorCode %d): %s", p.ErrorStatus, p.ErrorCode, p.Message)
		}
		return p, nil
	}
}

// membershipID returns the membership_id member of the token response,
// which Bungie sends as a string.
func membershipID(t account.TokenSet) string {
	switch v := t.Extra["membership_id"].(type) {
	case string:
		return v
	case float64:
		return fmt.Sprintf("%.0f", v)
	}
	return ""
}

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	b := p.Response.BungieNetUser
	if b.MembershipID == "" {
		return profile.User{}, errors.New("bungie: profile has no membershipId")
	}
	u := profile.User{ID: b.MembershipID, Name: b.DisplayName}
	if path := b.ProfilePicturePath; path != "" {
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		u.Image = SiteURL + path
	}
	return u, nil
}
