package builtin

import (
	"context"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/authentik"
	"github.com/gatehouse-auth/gatehouse/providers/azureadb2c"
	"github.com/gatehouse-auth/gatehouse/providers/boxyhqsaml"
	"github.com/gatehouse-auth/gatehouse/providers/bungie"
	"github.com/gatehouse-auth/gatehouse/providers/cognito"
	"github.com/gatehouse-auth/gatehouse/providers/frontegg"
	"github.com/gatehouse-auth/gatehouse/providers/gitea"
	"github.com/gatehouse-auth/gatehouse/providers/gitlab"
	"github.com/gatehouse-auth/gatehouse/providers/google"
	"github.com/gatehouse-auth/gatehouse/providers/keycloak"
	"github.com/gatehouse-auth/gatehouse/providers/linkedin"
	"github.com/gatehouse-auth/gatehouse/providers/mastodon"
	"github.com/gatehouse-auth/gatehouse/providers/netsuite"
	"github.com/gatehouse-auth/gatehouse/providers/okta"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
	"github.com/gatehouse-auth/gatehouse/providers/shopify"
	"github.com/gatehouse-auth/gatehouse/providers/tailscale"
	"github.com/gatehouse-auth/gatehouse/providers/twitter"
	"github.com/gatehouse-auth/gatehouse/providers/webex"
	"github.com/gatehouse-auth/gatehouse/providers/wechat"
	"github.com/gatehouse-auth/gatehouse/providers/zitadel"
)

// built is a configuration a provider package's constructor made.
type built struct {
	o          *providers.OAuth
	ownProfile bool // it has a profile callback of its own
}

func builtOf[P any](c providers.OAuthConfig[P]) built {
	return built{o: c.OAuth(), ownProfile: c.Profile != nil}
}

// TestConstructors checks what the constructors of the providers with
// more than one way to be made (an issuer, a shop, a tenant, an API key,
// options laid over the defaults) make: the whole configuration, the
// discovery document's address, whether the mapping is the provider's
// own, and whether the configuration validates. The factories' defaults
// are in testdata/providers (TestBuiltinGoldens).
func TestConstructors(t *testing.T) {
	const b2cIssuer = "https://contoso.b2clogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/"
	const restlet = "https://1234567-sb1.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=123&deploy=1"
	oidcChecks := []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}
	pkce := []providers.Check{providers.CheckPKCE}
	state := []providers.Check{providers.CheckState}
	shop := providers.OAuthUserConfig[shopify.Profile]{ClientID: "cid", ClientSecret: "sec"}
	shopAt := shop
	shopAt.Issuer = "https://my-shop.myshopify.com"
	wechatApp := providers.OAuthUserConfig[wechat.Profile]{ClientID: "wx520c15f417810387", ClientSecret: "sec"}
	gitlabBase := providertest.Config{
		ID: "gitlab", Name: "GitLab", Type: providers.TypeOAuth,
		AuthURL: "https://gitlab.com/oauth/authorize", AuthParams: map[string]string{"scope": "read_user"},
		TokenURL: "https://gitlab.com/oauth/token", UserinfoURL: "https://gitlab.com/api/v4/user",
		Checks: pkce, Style: providers.Style{BrandColor: "#FC6D26", Icon: gitlab.Icon},
	}
	gitlabSelf := gitlabBase
	gitlabSelf.AuthURL, gitlabSelf.TokenURL, gitlabSelf.UserinfoURL, gitlabSelf.Issuer = "https://gitlab.example.com/oauth/authorize", "https://gitlab.example.com/oauth/token", "https://gitlab.example.com/api/v4/user", "https://gitlab.example.com/"
	mastodonAt := func(issuer string) providertest.Config {
		return providertest.Config{
			ID: "mastodon", Name: "Mastodon", Type: providers.TypeOAuth,
			AuthURL: "https://mastodon.social/oauth/authorize", AuthParams: map[string]string{"scope": "read"},
			TokenURL: "https://mastodon.social/oauth/token", UserinfoURL: "https://mastodon.social/api/v1/accounts/verify_credentials",
			Issuer: issuer, Checks: pkce, Style: providers.Style{Icon: mastodon.Icon},
		}
	}
	shopifyConfig := providertest.Config{
		ID: "shopify", Name: "Shopify", Type: providers.TypeOAuth,
		AuthURL:    "https://my-shop.myshopify.com/admin/oauth/authorize",
		AuthParams: map[string]string{"scope": "", "grant_options[]": "per-user"},
		TokenURL:   "https://my-shop.myshopify.com/admin/oauth/access_token",
		Checks:     state, AuthMethod: providers.AuthClientSecretPost,
		Style: providers.Style{BrandColor: "#95bf47", Icon: shopify.Icon}, UserRequest: true,
	}
	wechatOfficial := providertest.Config{
		ID: "wechat", Name: "WeChat", Type: providers.TypeOAuth,
		AuthURL:    "https://open.weixin.qq.com/connect/oauth2/authorize",
		AuthParams: map[string]string{"appid": "wx520c15f417810387", "scope": "snsapi_userinfo"},
		TokenURL:   "https://api.weixin.qq.com/sns/oauth2/access_token", UserinfoURL: "https://api.weixin.qq.com/sns/userinfo",
		Checks: state, Style: providers.Style{BrandColor: "#fff", Icon: wechat.Icon}, TokenRequest: true, UserRequest: true,
	}
	wechatWebsite := wechatOfficial
	wechatWebsite.AuthURL, wechatWebsite.AuthParams = "https://open.weixin.qq.com/connect/qrconnect", map[string]string{"appid": "wx520c15f417810387", "scope": "snsapi_login"}
	linkedinConfig := providertest.Config{
		ID: "linkedin", Name: "LinkedIn", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid profile email"},
		Issuer:     "https://www.linkedin.com/oauth", Checks: state,
		AuthMethod: providers.AuthClientSecretPost, Style: providers.Style{BrandColor: "#069"},
	}
	linkedinBasic := linkedinConfig
	linkedinBasic.AuthMethod = providers.AuthClientSecretBasic
	twitterConfig := providertest.Config{
		ID: "twitter", Name: "Twitter", Type: providers.TypeOAuth,
		AuthURL: "https://x.com/i/oauth2/authorize", AuthParams: map[string]string{"scope": "users.read tweet.read offline.access"},
		TokenURL: "https://api.x.com/2/oauth2/token", UserinfoURL: "https://api.x.com/2/users/me?user.fields=profile_image_url",
		Checks: []providers.Check{providers.CheckPKCE, providers.CheckState}, Style: providers.Style{BrandColor: "#1da1f2", Icon: twitter.Icon},
	}
	netsuiteScope := map[string]string{"scope": "restlets rest_webservices"}
	netsuiteStyle := providers.Style{BrandColor: "#181a1b"}
	twitterX := twitterConfig
	twitterX.ID, twitterX.Name, twitterX.Checks = "x", "X", pkce

	for _, tt := range []struct {
		name       string
		got        built
		want       providertest.Config
		wellKnown  string
		ownProfile bool
		validates  bool
	}{
		{
			name: "azure-ad-b2c", got: builtOf(azureadb2c.New(providers.OIDCUserConfig[azureadb2c.Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: b2cIssuer})),
			want: providertest.Config{
				ID: "azure-ad-b2c", Name: "Azure Active Directory B2C", Type: providers.TypeOIDC,
				AuthParams: map[string]string{"scope": "openid profile email"}, Issuer: b2cIssuer,
				Checks: oidcChecks, Style: providers.Style{BrandColor: "#0072c6"},
			},
			ownProfile: true, validates: true,
		},
		{
			name: "azure-ad-b2c without an issuer", got: builtOf(azureadb2c.New(providers.OIDCUserConfig[azureadb2c.Profile]{ClientID: "cid"})),
			want: providertest.Config{
				ID: "azure-ad-b2c", Name: "Azure Active Directory B2C", Type: providers.TypeOIDC,
				AuthParams: map[string]string{"scope": "openid profile email"},
				Checks:     oidcChecks, Style: providers.Style{BrandColor: "#0072c6"},
			},
			ownProfile: true,
		},
		{
			name: "frontegg", got: builtOf(frontegg.New(providers.OIDCUserConfig[frontegg.Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: "https://acme.frontegg.com/"})),
			want: providertest.Config{
				ID: "frontegg", Name: "Frontegg", Type: providers.TypeOIDC,
				AuthURL: "https://acme.frontegg.com/oauth/authorize", AuthParams: map[string]string{"scope": "openid profile email"},
				TokenURL: "https://acme.frontegg.com/oauth/token", UserinfoURL: "https://acme.frontegg.com/identity/resources/users/v2/me",
				Issuer: "https://acme.frontegg.com/", Checks: oidcChecks,
			},
			wellKnown: "https://acme.frontegg.com/oauth/.well-known/openid-configuration", ownProfile: true, validates: true,
		},
		{
			name: "frontegg without an issuer", got: builtOf(frontegg.New(providers.OIDCUserConfig[frontegg.Profile]{ClientID: "cid"})),
			want: providertest.Config{
				ID: "frontegg", Name: "Frontegg", Type: providers.TypeOIDC,
				AuthParams: map[string]string{"scope": "openid profile email"}, Checks: oidcChecks,
			},
			ownProfile: true,
		},
		{
			name: "boxyhq-saml", got: builtOf(boxyhqsaml.New(providers.OAuthUserConfig[boxyhqsaml.Profile]{ClientID: "dummy", ClientSecret: "dummy", Issuer: "https://jackson.acme.test/"})),
			want: providertest.Config{
				ID: "boxyhq-saml", Name: "BoxyHQ SAML", Type: providers.TypeOAuth,
				AuthURL: "https://jackson.acme.test/api/oauth/authorize", AuthParams: map[string]string{"provider": "saml"},
				TokenURL: "https://jackson.acme.test/api/oauth/token", UserinfoURL: "https://jackson.acme.test/api/oauth/userinfo",
				Issuer: "https://jackson.acme.test/", Checks: pkce, Style: providers.Style{BrandColor: "#25c2a0"},
			},
			ownProfile: true, validates: true,
		},
		{
			name: "boxyhq-saml with a tenant and a product", got: builtOf(boxyhqsaml.New(providers.OAuthUserConfig[boxyhqsaml.Profile]{Issuer: "https://jackson.acme.test",
				Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"tenant": "acme.com", "product": "crm"}}})),
			want: providertest.Config{
				ID: "boxyhq-saml", Name: "BoxyHQ SAML", Type: providers.TypeOAuth,
				AuthURL: "https://jackson.acme.test/api/oauth/authorize", AuthParams: map[string]string{"provider": "saml", "tenant": "acme.com", "product": "crm"},
				TokenURL: "https://jackson.acme.test/api/oauth/token", UserinfoURL: "https://jackson.acme.test/api/oauth/userinfo",
				Issuer: "https://jackson.acme.test", Checks: pkce, Style: providers.Style{BrandColor: "#25c2a0"},
			},
			ownProfile: true, // no client id: it does not validate

		},
		{
			name: "boxyhq-saml without an issuer", got: builtOf(boxyhqsaml.New(providers.OAuthUserConfig[boxyhqsaml.Profile]{ClientID: "dummy"})),
			want: providertest.Config{
				ID: "boxyhq-saml", Name: "BoxyHQ SAML", Type: providers.TypeOAuth,
				AuthParams: map[string]string{"provider": "saml"}, Checks: pkce, Style: providers.Style{BrandColor: "#25c2a0"},
			},
			ownProfile: true,
		},
		{
			name: "bungie with an API key", got: builtOf(bungie.NewWithAPIKey("api-key", providers.OAuthUserConfig[bungie.Profile]{ClientID: "cid", ClientSecret: "secret"})),
			want: providertest.Config{
				ID: "bungie", Name: "Bungie", Type: providers.TypeOAuth,
				AuthURL:     "https://www.bungie.net/en/OAuth/Authorize?reauth=true",
				TokenURL:    "https://www.bungie.net/platform/app/oauth/token/",
				UserinfoURL: "https://www.bungie.net/platform/User/GetBungieAccount/{membershipId}/254/",
				Checks:      []providers.Check{providers.CheckPKCE, providers.CheckState}, UserRequest: true,
				Style: providers.Style{Icon: bungie.Icon},
			},
			ownProfile: true, validates: true,
		},
		{name: "gitlab.com", got: builtOf(gitlab.New(providers.OAuthUserConfig[gitlab.Profile]{ClientID: "cid", ClientSecret: "secret"})), want: gitlabBase, ownProfile: true, validates: true},
		{name: "gitlab self-managed", got: builtOf(gitlab.New(providers.OAuthUserConfig[gitlab.Profile]{ClientID: "cid", ClientSecret: "secret", Issuer: "https://gitlab.example.com/"})), want: gitlabSelf, ownProfile: true, validates: true},
		{name: "gitlab at an empty base", got: builtOf(gitlab.Defaults("")), want: gitlabBase, ownProfile: true},
		{name: "gitlab at a bare slash", got: builtOf(gitlab.Defaults("/")), want: gitlabBase, ownProfile: true},
		{
			name: "gitea at an empty base: the bare paths", got: builtOf(gitea.Defaults("")),
			want: providertest.Config{
				ID: "gitea", Name: "Gitea", Type: providers.TypeOAuth,
				AuthURL: "/login/oauth/authorize", AuthParams: map[string]string{"scope": "openid profile email"},
				TokenURL: "/login/oauth/access_token", UserinfoURL: "/login/oauth/userinfo", Checks: pkce,
				Style: providers.Style{Icon: gitea.Icon},
			},
			ownProfile: true,
		},
		{
			name: "webex at an empty base: the bare paths", got: builtOf(webex.Defaults("")),
			want: providertest.Config{
				ID: "webex", Name: "Webex", Type: providers.TypeOAuth,
				AuthURL: "/authorize", AuthParams: map[string]string{"scope": "spark:kms spark:people_read"},
				TokenURL: "/access_token", UserinfoURL: "/people/me", Checks: pkce,
			},
			ownProfile: true,
		},
		{name: "mastodon", got: builtOf(mastodon.New(providers.OAuthUserConfig[mastodon.Profile]{ClientID: "cid", ClientSecret: "sec", Issuer: "https://mastodon.social"})), want: mastodonAt("https://mastodon.social"), ownProfile: true, validates: true},
		{name: "mastodon, issuer with a slash", got: builtOf(mastodon.New(providers.OAuthUserConfig[mastodon.Profile]{ClientID: "cid", ClientSecret: "sec", Issuer: "https://mastodon.social/"})), want: mastodonAt("https://mastodon.social/"), ownProfile: true, validates: true},
		{
			name: "mastodon without an issuer", got: builtOf(mastodon.New(providers.OAuthUserConfig[mastodon.Profile]{ClientID: "cid"})),
			want:       providertest.Config{ID: "mastodon", Name: "Mastodon", Type: providers.TypeOAuth, AuthParams: map[string]string{"scope": "read"}, Checks: pkce, Style: providers.Style{Icon: mastodon.Icon}},
			ownProfile: true,
		},
		{name: "shopify NewShop", got: builtOf(shopify.NewShop("my-shop", shop)), want: shopifyConfig, ownProfile: true, validates: true},
		{name: "shopify New with an issuer", got: builtOf(shopify.New(shopAt)), want: shopifyConfig, ownProfile: true, validates: true},
		{name: "shopify NewShop with a domain", got: builtOf(shopify.NewShop("My-Shop.myshopify.com", shop)), want: shopifyConfig, ownProfile: true, validates: true},
		{
			name: "shopify without a shop", got: builtOf(shopify.NewShop("", providers.OAuthUserConfig[shopify.Profile]{ClientID: "cid"})),
			want: providertest.Config{
				ID: "shopify", Name: "Shopify", Type: providers.TypeOAuth,
				AuthParams: map[string]string{"scope": "", "grant_options[]": "per-user"},
				Checks:     state, AuthMethod: providers.AuthClientSecretPost,
				Style: providers.Style{BrandColor: "#95bf47", Icon: shopify.Icon}, UserRequest: true,
			},
			ownProfile: true,
		},
		{name: "wechat official account", got: builtOf(wechat.New(wechatApp)), want: wechatOfficial, ownProfile: true, validates: true},
		{name: "wechat website app", got: builtOf(wechat.NewWebsiteApp(wechatApp)), want: wechatWebsite, ownProfile: true, validates: true},
		{name: "linkedin", got: builtOf(linkedin.New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"})), want: linkedinConfig, ownProfile: true, validates: true},
		{name: "linkedin with basic client authentication", got: builtOf(linkedin.New(providers.OAuthUserConfig[profile.Claims]{Client: providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretBasic}})), want: linkedinBasic, ownProfile: true},
		{name: "twitter", got: builtOf(twitter.New(providers.OAuthUserConfig[twitter.Profile]{ClientID: "cid"})), want: twitterConfig, ownProfile: true, validates: true},
		{name: "twitter renamed", got: builtOf(twitter.New(providers.OAuthUserConfig[twitter.Profile]{ID: "x", Name: "X", Checks: pkce})), want: twitterX, ownProfile: true},
		{
			name: "netsuite without an account", got: builtOf(netsuite.New(providers.OAuthUserConfig[netsuite.Profile]{ClientID: "cid", Userinfo: providers.UserinfoEndpoint[netsuite.Profile]{URL: restlet}})),
			want: providertest.Config{
				ID: "netsuite", Name: "NetSuite", Type: providers.TypeOAuth,
				AuthParams: netsuiteScope, UserinfoURL: restlet, Checks: state, Style: netsuiteStyle,
			},
			ownProfile: true,
		},
		{
			name: "netsuite without a RESTlet", got: builtOf(netsuite.New(providers.OAuthUserConfig[netsuite.Profile]{ClientID: "cid", Issuer: "1234567"})),
			want: providertest.Config{
				ID: "netsuite", Name: "NetSuite", Type: providers.TypeOAuth,
				AuthURL: "https://1234567.app.netsuite.com/app/login/oauth2/authorize.nl", AuthParams: netsuiteScope,
				TokenURL: "https://1234567.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token",
				Checks:   state, Style: netsuiteStyle,
			},
			ownProfile: true,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.got.o
			providertest.CheckConfig(t, o, tt.want)
			providertest.CheckFields(t, []providertest.Field{
				{Name: "well-known", Got: o.WellKnown, Want: tt.wellKnown},
				{Name: "own profile callback", Got: tt.got.ownProfile, Want: tt.ownProfile},
				{Name: "validates", Got: o.Validate() == nil, Want: tt.validates},
			})
		})
	}
}

// TestGenericOIDC: the providers that are a plain OpenID Connect issuer
// (endpoints from discovery, the ID token's claims mapped by
// profile.FromClaims) keep every user option over their defaults, need an
// issuer unless they have one, and map preferred_username as a name. Their
// facts are in testdata/providers (TestBuiltinGoldens).
func TestGenericOIDC(t *testing.T) {
	for _, tc := range []struct {
		id, name string
		newFn    providertest.NewFunc[profile.Claims]
		issuer   string // an example issuer
		own      bool   // the provider has an issuer of its own
	}{
		{authentik.ID, authentik.Name, authentik.New, "https://authentik.example.com/application/o/my-app/", false},
		{cognito.ID, cognito.Name, cognito.New, "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI", false},
		{google.ID, google.Name, google.New, "https://issuer.example.com", true},
		{keycloak.ID, keycloak.Name, keycloak.New, "https://keycloak.example.com/realms/myrealm", false},
		{okta.ID, okta.Name, okta.New, "https://dev-123456.okta.com/oauth2/default", false},
		{tailscale.ID, tailscale.Name, tailscale.New, "https://idp.example.ts.net", false},
		{zitadel.ID, zitadel.Name, zitadel.New, "https://my-instance.zitadel.cloud", false},
	} {
		t.Run(tc.id, func(t *testing.T) {
			if !tc.own {
				providertest.CheckIssuerRequired(t, tc.newFn, tc.issuer)
			}
			c := providertest.CheckMerge(t, tc.newFn, providers.Base{ID: tc.id, Name: tc.name, Type: providers.TypeOIDC}, tc.issuer)
			u, err := c.OAuth().MapProfile(context.Background(), profile.Claims{"sub": "u1", "preferred_username": "jdoe", "email": "j@example.com", "picture": "https://img/j"}, account.TokenSet{})
			if err != nil || u.ID != "u1" || u.Name != "jdoe" || u.Email != "j@example.com" || u.Image != "https://img/j" {
				t.Errorf("user = %+v, %v", u, err)
			}
		})
	}
}

// TestNameHelpers checks the providers' helpers that turn what a user
// names (a shop, an account, a tenant) into what the provider's URLs need.
func TestNameHelpers(t *testing.T) {
	for _, tt := range []struct {
		name     string
		fn       func(string) string
		in, want string
	}{
		{"shopify.ShopDomain", shopify.ShopDomain, "my-shop", "my-shop.myshopify.com"},
		{"shopify.ShopDomain", shopify.ShopDomain, "my-shop.myshopify.com", "my-shop.myshopify.com"},
		{"shopify.ShopDomain", shopify.ShopDomain, "https://my-shop.myshopify.com/admin", "my-shop.myshopify.com"},
		{"shopify.ShopDomain", shopify.ShopDomain, "evil.com/x.myshopify.com", ""},
		{"shopify.ShopDomain", shopify.ShopDomain, "https://my-shop.myshopify.com.evil.com/", ""},
		{"shopify.ShopDomain", shopify.ShopDomain, "", ""},
		{"netsuite.AccountDomain", netsuite.AccountDomain, "TSTDRV1234567", "tstdrv1234567"},
		{"netsuite.AccountDomain", netsuite.AccountDomain, "1234567_SB1", "1234567-sb1"},
		{"netsuite.AccountDomain", netsuite.AccountDomain, "https://1234567.app.netsuite.com", "1234567"},
		{"netsuite.AccountDomain", netsuite.AccountDomain, "https://1234567.app.netsuite.com/", "1234567"},
		{"netsuite.AccountDomain", netsuite.AccountDomain, "", ""},
	} {
		if got := tt.fn(tt.in); got != tt.want {
			t.Errorf("%s(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
	const b2c = "https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_signupsignin/v2.0/.well-known/openid-configuration"
	if got := azureadb2c.WellKnown("contoso", "B2C_1_signupsignin"); got != b2c {
		t.Errorf("azureadb2c.WellKnown = %q, want %q", got, b2c)
	}
}
