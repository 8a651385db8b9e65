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
		Style:   providers.Style{BrandColor: "#95bf47", Icon: Icon},
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

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	u := profile.User{ID: providers.FormatID(p.ID), Name: profile.FullName(p.FirstName, p.LastName), Email: p.Email}
	if u.Email != "" && p.EmailVerified {
		now := time.Now().UTC().Truncate(time.Second)
		u.EmailVerified = &now
	}
	return providers.RequireID(u, ID, "profile has no id")
}
