package shopify

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

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
