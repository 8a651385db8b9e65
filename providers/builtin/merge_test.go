package builtin

import (
	"net/url"
	"slices"
	"sort"
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// TestMergeRulesEveryBuiltin applies the merge rule (providers.Merge: the
// user's values win, field by field) to every built-in OAuth/OIDC
// provider: a scope and prompt written in the user's own authorization
// URL, its Params, the token and userinfo endpoints' URLs and Params,
// Checks and Style all reach the configuration the flow uses. Failed
// before for every built-in: the provider's default scope replaced the
// one in the user's URL.
func TestMergeRulesEveryBuiltin(t *testing.T) {
	opts := Options{
		ClientID: "id", ClientSecret: "secret", Issuer: "https://idp.example",
		Authorization: providers.AuthorizationEndpoint{
			URL:    "https://user.example/authorize?scope=user-scope&prompt=login",
			Params: map[string]string{"custom": "1"},
		},
		Token:          providers.TokenEndpoint{URL: "https://user.example/token", Params: map[string]string{"audience": "api"}},
		UserinfoURL:    "https://user.example/me?fields=user-fields",
		UserinfoParams: map[string]string{"v": "2"},
		Checks:         []providers.Check{providers.CheckState},
		Style:          providers.Style{BrandColor: "#123456", Logo: "/user.svg"},
	}
	ids := IDs()
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	n := 0
	for _, id := range ids {
		p := providers.Resolve(registry[id](opts))
		oc, ok := p.(interface{ OAuth() *providers.OAuth })
		if !ok {
			continue // e-mail, credentials, passkeys
		}
		n++
		c := oc.OAuth()
		t.Run(string(id), func(t *testing.T) {
			base, q, err := c.Authorization.Query()
			if err != nil {
				t.Fatal(err)
			}
			if base != "https://user.example/authorize" || q.Get("scope") != "user-scope" || q.Get("prompt") != "login" || q.Get("custom") != "1" {
				t.Errorf("authorization: %s ? %v, want the user's URL, scope user-scope, prompt login, custom 1", base, q)
			}
			if c.Token.URL != "https://user.example/token" || c.Token.Params["audience"] != "api" {
				t.Errorf("token: %q %v", c.Token.URL, c.Token.Params)
			}
			u, _ := url.Parse(c.UserinfoURL)
			uq := u.Query()
			for k, v := range c.UserinfoParams {
				uq.Set(k, v)
			}
			if u.Host != "user.example" || uq.Get("fields") != "user-fields" || uq.Get("v") != "2" {
				t.Errorf("userinfo: %q %v", c.UserinfoURL, c.UserinfoParams)
			}
			if !slices.Equal(c.Checks, []providers.Check{providers.CheckState}) {
				t.Errorf("checks: %v", c.Checks)
			}
			if c.Style.BrandColor != "#123456" || c.Style.Logo != "/user.svg" {
				t.Errorf("style: %+v", c.Style)
			}
		})
	}
	t.Logf("merge rules checked on %d built-in OAuth/OIDC providers", n)
	if n < 90 {
		t.Fatalf("only %d OAuth/OIDC built-ins were checked", n)
	}
}
