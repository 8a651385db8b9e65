package shopify

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestConfig(t *testing.T) {
	want := providertest.Config{
		ID: "shopify", Name: "Shopify", Type: providers.TypeOAuth,
		AuthURL:     "https://my-shop.myshopify.com/admin/oauth/authorize",
		AuthParams:  map[string]string{"scope": "", "grant_options[]": "per-user"},
		TokenURL:    "https://my-shop.myshopify.com/admin/oauth/access_token",
		Checks:      []providers.Check{providers.CheckState},
		AuthMethod:  providers.AuthClientSecretPost,
		Style:       providers.Style{BrandColor: "#95bf47"},
		UserRequest: true,
	}
	opts := providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}
	withIssuer := opts
	withIssuer.Issuer = "https://my-shop.myshopify.com"
	for name, o := range map[string]*providers.OAuth{
		"NewShop":   NewShop("my-shop", opts).OAuth(),
		"New":       New(withIssuer).OAuth(),
		"NewDomain": NewShop("My-Shop.myshopify.com", opts).OAuth(),
	} {
		t.Run(name, func(t *testing.T) { providertest.CheckConfig(t, o, want) })
		if err := o.Validate(); err != nil {
			t.Errorf("%s: Validate: %v", name, err)
		}
	}
}

func TestShopDomain(t *testing.T) {
	for in, want := range map[string]string{
		"my-shop":                                 "my-shop.myshopify.com",
		"my-shop.myshopify.com":                   "my-shop.myshopify.com",
		"https://my-shop.myshopify.com/admin":     "my-shop.myshopify.com",
		"evil.com/x.myshopify.com":                "",
		"https://my-shop.myshopify.com.evil.com/": "",
		"": "",
	} {
		if got := ShopDomain(in); got != want {
			t.Errorf("ShopDomain(%q) = %q, want %q", in, got, want)
		}
	}
	if err := NewShop("", providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth().Validate(); err == nil {
		t.Error("Validate accepts a Shopify provider without a shop")
	}
}

// tokenResponse is an online access token response as account.TokenSet
// decodes it.
const tokenResponse = `{
	"access_token": "f85632530bf277ec9ac6f649fc327f17",
	"scope": "write_orders,read_customers",
	"expires_in": 86399,
	"associated_user_scope": "write_orders",
	"associated_user": {
		"id": 902541635,
		"first_name": "John",
		"last_name": "Smith",
		"email": "john@example.com",
		"email_verified": true,
		"account_owner": true,
		"locale": "en",
		"collaborator": false
	}
}`

func TestUserinfo(t *testing.T) {
	var tokens account.TokenSet
	if err := json.Unmarshal([]byte(tokenResponse), &tokens); err != nil {
		t.Fatal(err)
	}
	o := NewShop("my-shop", providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	p, err := o.UserinfoRequest(context.Background(), providers.UserinfoRequest{Tokens: tokens})
	if err != nil {
		t.Fatal(err)
	}
	if p.(Profile).Shop != "my-shop.myshopify.com" {
		t.Errorf("shop = %q", p.(Profile).Shop)
	}
	got, err := o.MapProfile(context.Background(), p, tokens)
	if err != nil {
		t.Fatal(err)
	}
	if got.EmailVerified == nil {
		t.Error("email_verified true gave no EmailVerified")
	}
	got.EmailVerified = nil
	if want := (profile.User{ID: "902541635", Name: "John Smith", Email: "john@example.com"}); got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}

	// An offline token names no user.
	offline := account.TokenSet{AccessToken: "x", Scope: "write_orders"}
	if _, err := o.UserinfoRequest(context.Background(), providers.UserinfoRequest{Tokens: offline}); err == nil {
		t.Error("an offline token gave a profile")
	}
}

func TestMapProfile(t *testing.T) {
	o := NewShop("my-shop", providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{"id": 799407056, "first_name": "Steve", "last_name": "", "email": "steve@example.com", "email_verified": false, "account_owner": false, "locale": "fr", "collaborator": true}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	if want := (profile.User{ID: "799407056", Name: "Steve", Email: "steve@example.com"}); got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
