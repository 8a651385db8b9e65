// Package shopify is the built-in Shopify provider (OAuth 2.0 for a
// shop's staff), which Auth.js does not have: its per-shop endpoints, the
// staff member record, and the mapping of that record to a user.
//
// Shopify's OAuth server is the shop itself, at
// https://<shop>.myshopify.com/admin/oauth/…, so the provider is made for
// one shop: New takes it from the Issuer option (AUTH_SHOPIFY_ISSUER, the
// shop's name, its myshopify.com domain or URL), NewShop as an argument.
//
// Who signs in: the authorization request asks for online access
// (grant_options[]=per-user), whose token response names the staff member
// who approved it (associated_user). That record is the profile; no API
// call is made. The other candidate, the Admin API's shop.json, describes
// the shop, not the person: every member of a shop's staff would sign in
// as the same user, so it is not used. User ids are Shopify's user ids;
// as with any provider, accounts are kept per provider id, so two shops
// are two providers with two ids.
//
// Shopify does not implement PKCE and requires a state, so the callback
// checks state; the client credentials go in the token request's form
// (client_secret_post). Shopify also signs its callbacks with an hmac
// parameter, which this configuration does not check: the shop is fixed
// and the code is only redeemed with the client secret, so state and the
// exchange already bind the answer to this shop and this browser.
//
//	p := shopify.NewShop("my-shop", providers.OAuthUserConfig[shopify.Profile]{
//		ClientID:     os.Getenv("AUTH_SHOPIFY_ID"),
//		ClientSecret: os.Getenv("AUTH_SHOPIFY_SECRET"),
//	})
package shopify

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts. The endpoints are paths under the shop's URL.
const (
	// ID is the provider id, part of its URLs.
	ID = "shopify"
	// Name is the display name.
	Name = "Shopify"
	// AuthorizationPath is where the staff member signs in and approves.
	AuthorizationPath = "/admin/oauth/authorize"
	// TokenPath exchanges the code for tokens (client_secret_post).
	TokenPath = "/admin/oauth/access_token"
	// GrantOptions asks for an online access token, tied to the staff
	// member who approved it.
	GrantOptions = "per-user"
)

var shopName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// ShopDomain returns shop as <name>.myshopify.com. It accepts the shop's
// name, its myshopify.com domain, or a URL on that domain, and returns ""
// for anything else.
func ShopDomain(shop string) string {
	s := strings.ToLower(strings.TrimSpace(shop))
	if u, err := url.Parse(s); err == nil && u.Host != "" {
		s = u.Hostname()
	}
	s = strings.TrimSuffix(s, ".myshopify.com")
	if !shopName.MatchString(s) {
		return ""
	}
	return s + ".myshopify.com"
}

// Profile is the staff member an online access token belongs to (the
// token response's associated_user), with the shop it is for.
type Profile struct {
	// ID is the staff member's Shopify user id.
	ID int64 `json:"id"`
	// FirstName is the staff member's first name.
	FirstName string `json:"first_name"`
	// LastName is the staff member's last name.
	LastName string `json:"last_name"`
	// Email is the staff member's e-mail address.
	Email string `json:"email"`
	// EmailVerified is true when Shopify has verified the address.
	EmailVerified bool `json:"email_verified"`
	// AccountOwner is true for the shop's owner.
	AccountOwner bool `json:"account_owner"`
	// Locale is the staff member's locale, e.g. "en".
	Locale string `json:"locale"`
	// Collaborator is true for a collaborator account.
	Collaborator bool `json:"collaborator"`
	// Shop is the shop's myshopify.com domain. It is not part of
	// associated_user; AssociatedUser's caller fills it.
	Shop string `json:"shop,omitempty"`
}

// New returns the Shopify provider configuration for the shop named by
// opts.Issuer, with opts laid over its defaults by providers.Merge. The
// returned configuration's Issuer is empty: Shopify's OAuth server has no
// issuer identifier.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	shop := opts.Issuer
	opts.Issuer = ""
	return NewShop(shop, opts)
}

// NewShop returns the Shopify provider configuration for shop (see
// ShopDomain), with opts laid over its defaults by providers.Merge.
func NewShop(shop string, opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(shop), opts)
}

// Defaults returns the configuration for shop before any user option. The
// scope parameter is sent empty, which signs in without asking for Admin
// API access; set it to the app's comma-separated access scopes (e.g.
// "read_products") when the token is to be used. When shop is not a valid
// shop the endpoints are left empty, and gatehouse.New reports them
// missing.
func Defaults(shop string) providers.OAuthConfig[Profile] {
	domain := ShopDomain(shop)
	c := providers.OAuthConfig[Profile]{
		ID:   ID,
		Name: Name,
		Type: providers.TypeOAuth,
		Authorization: providers.AuthorizationEndpoint{
			Params: map[string]string{"scope": "", "grant_options[]": GrantOptions},
		},
		Userinfo: providers.UserinfoEndpoint[Profile]{
			Request: func(_ context.Context, r providers.UserinfoRequest) (Profile, error) {
				p, err := AssociatedUser(r.Tokens)
				p.Shop = domain
				return p, err
			},
		},
		Checks:  []providers.Check{providers.CheckState},
		Client:  providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost},
		Profile: MapProfile,
		Style:   providers.Style{BrandColor: "#95bf47"},
	}
	if domain != "" {
		c.Authorization.URL = "https://" + domain + AuthorizationPath
		c.Token.URL = "https://" + domain + TokenPath
	}
	return c
}

// AssociatedUser returns the token response's associated_user. An offline
// token (no associated_user) is an error: it says who installed the app,
// not who is signing in.
func AssociatedUser(tokens account.TokenSet) (Profile, error) {
	v, ok := tokens.Extra["associated_user"]
	if !ok || v == nil {
		return Profile{}, errors.New("shopify: the token response has no associated_user; sign-in needs online access (grant_options[]=per-user)")
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return Profile{}, err
	}
	var p Profile
	if err := json.Unmarshal(raw, &p); err != nil {
		return Profile{}, errors.New("shopify: associated_user is not a user record")
	}
	if p.ID == 0 {
		return Profile{}, errors.New("shopify: associated_user has no id")
	}
	return p, nil
}

// MapProfile maps a Shopify staff member to a user: id ← id (as a
// string), name ← "first_name last_name", email ← email, no image.
// EmailVerified is set when email_verified is true. A profile without an
// id is refused.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	u := profile.User{ID: providers.FormatID(p.ID), Name: profile.FullName(p.FirstName, p.LastName), Email: p.Email}
	if u.Email != "" && p.EmailVerified {
		now := time.Now().UTC().Truncate(time.Second)
		u.EmailVerified = &now
	}
	return providers.RequireID(u, ID, "profile has no id")
}
