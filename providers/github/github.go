package github

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// New returns the github.com configuration with opts laid over its
// defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(defaults("https://github.com", APIURL, Issuer), opts)
}

// NewEnterprise returns the configuration for the GitHub Enterprise Server
// at baseURL (e.g. "https://github.example.com"): the OAuth endpoints under
// <baseURL>/login/oauth, the REST API under <baseURL>/api/v3, and the
// issuer <baseURL>/login/oauth. opts are laid over those defaults as New
// does.
func NewEnterprise(baseURL string, opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	base := strings.TrimRight(baseURL, "/")
	return providers.Merge(defaults(base, base+"/api/v3", base+"/login/oauth"), opts)
}

func defaults(web, api, issuer string) providers.OAuthConfig[Profile] {
	return providers.OAuthConfig[Profile]{
		ID:     ID,
		Name:   Name,
		Type:   providers.TypeOAuth,
		Issuer: issuer,
		Authorization: providers.AuthorizationEndpoint{
			URL:    web + "/login/oauth/authorize",
			Params: map[string]string{"scope": Scope},
		},
		Token: providers.TokenEndpoint{URL: web + "/login/oauth/access_token"},
		Userinfo: providers.UserinfoEndpoint[Profile]{
			URL:     api + "/user",
			Request: FetchProfile,
		},
		Profile: MapProfile,
		Style:   providers.Style{BrandColor: "#24292f", Icon: Icon},
	}
}

// Email is one entry of GET /user/emails.
type Email struct {
	Email      string `json:"email"`
	Primary    bool   `json:"primary"`
	Verified   bool   `json:"verified"`
	Visibility string `json:"visibility"`
}

// FetchProfile is the default userinfo handler: GET r.URL (<api>/user)
// with a User-Agent header; when the answer has no e-mail address, GET
// r.URL + "/emails" and take the primary entry, else the first. A 4xx
// answer from /user/emails (the token lacks the user:email scope, or a
// GitHub App lacks the e-mail permission) leaves the address empty rather
// than failing the sign-in.
func FetchProfile(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	userURL := r.URL
	if userURL == "" {
		userURL = UserinfoURL
	}
	h := http.Header{"User-Agent": {UserAgent}, "X-Github-Api-Version": {"2022-11-28"}}
	var p Profile
	if err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, userURL, r.Tokens.AccessToken, h, nil, &p); err != nil {
		return Profile{}, err
	}
	if p.Email != "" {
		return p, nil
	}
	var emails []Email
	err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, strings.TrimRight(userURL, "/")+"/emails", r.Tokens.AccessToken, h, nil, &emails)
	var httpErr *providers.HTTPError
	switch {
	case errors.As(err, &httpErr) && httpErr.StatusCode >= 400 && httpErr.StatusCode < 500:
		return p, nil
	case err != nil:
		return Profile{}, err
	}
	if e, ok := PrimaryEmail(emails); ok {
		p.Email = e.Email
		verified := e.Verified
		p.EmailVerified = &verified
	}
	return p, nil
}

// PrimaryEmail returns the entry marked primary, else the first one; ok is
// false when emails is empty.
func PrimaryEmail(emails []Email) (e Email, ok bool) {
	for _, e := range emails {
		if e.Primary {
			return e, true
		}
	}
	if len(emails) == 0 {
		return Email{}, false
	}
	return emails[0], true
}

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	u := profile.User{
		ID:    providers.FormatID(p.ID),
		Name:  p.Name,
		Email: p.Email,
		Image: p.AvatarURL,
	}
	if u.Name == "" {
		u.Name = p.Login
	}
	if p.Email != "" && p.EmailVerified != nil && *p.EmailVerified {
		now := time.Now().UTC().Truncate(time.Second)
		u.EmailVerified = &now
	}
	return providers.RequireID(u, "github", "profile has no id")
}
