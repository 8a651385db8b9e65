package pipedrive

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// User is a Pipedrive user. Pipedrive advises keying accounts on the user
// id and the company id together; MapProfile uses the user id alone, as
// Auth.js does.
type User struct {
	// ID is the user's numeric id.
	ID int64 `json:"id"`
	// Name is the user's name.
	Name string `json:"name"`
	// Email is the user's e-mail address.
	Email string `json:"email"`
	// IconURL is the user's picture, if any.
	IconURL string `json:"icon_url,omitempty"`
	// Locale is the user's locale, e.g. "en_US".
	Locale string `json:"locale,omitempty"`
	// DefaultCurrency is the user's currency, e.g. "USD".
	DefaultCurrency string `json:"default_currency,omitempty"`
	// TimezoneName is the user's IANA time zone.
	TimezoneName string `json:"timezone_name,omitempty"`
	// Activated is true for an activated user.
	Activated bool `json:"activated"`
	// IsAdmin is 1 for a company administrator.
	IsAdmin int `json:"is_admin"`
	// CompanyID is the id of the company the token is for.
	CompanyID int64 `json:"company_id"`
	// CompanyName is that company's name.
	CompanyName string `json:"company_name,omitempty"`
	// CompanyDomain is that company's subdomain.
	CompanyDomain string `json:"company_domain,omitempty"`
}

// Userinfo is a Bearer GET of <api_domain>/api/v1/users/me, where
// api_domain is the token response's absolute http(s) URL of the
// company's API, or of r.URL when there is none.
func Userinfo(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	target := r.URL
	if d, _ := r.Tokens.Extra["api_domain"].(string); d != "" {
		if u, err := url.Parse(d); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
			target = strings.TrimRight(d, "/") + UserinfoPath
		}
	}
	var p Profile
	err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, target, r.Tokens.AccessToken, nil, nil, &p)
	return p, err
}
