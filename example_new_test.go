package gatehouse_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/yandex"
)

func ExampleNew() {
	op := authtest.NewServer(authtest.Options{}) // any OpenID provider
	defer op.Close()

	auth, err := gatehouse.New(gatehouse.Config{
		Secret: []string{"a-secret-of-at-least-32-bytes-0123456789"},
		URL:    "https://app.example.com/auth",
		Providers: []providers.Provider{
			yandex.New(providers.OAuthUserConfig[yandex.Profile]{ClientID: "id", ClientSecret: "secret"}),
			providers.OAuthConfig[profile.Claims]{
				ID: "corp", Name: "Corp SSO", Type: providers.TypeOIDC,
				Issuer: op.Issuer(), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
			},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range auth.Providers(httptest.NewRequest("GET", "/", nil)) {
		fmt.Println(p.ID, p.Type, p.SigninURL, p.CallbackURL)
	}
	// Output:
	// yandex oauth https://app.example.com/auth/signin/yandex https://app.example.com/auth/callback/yandex
	// corp oidc https://app.example.com/auth/signin/corp https://app.example.com/auth/callback/corp
}

func ExampleNew_configError() {
	_, err := gatehouse.New(gatehouse.Config{
		Secret:    []string{"a-secret-of-at-least-32-bytes-0123456789"},
		Providers: []providers.Provider{yandex.New(providers.OAuthUserConfig[yandex.Profile]{})},
	})
	fmt.Println(err)
	// Output:
	// gatehouse: config: provider "yandex": clientId: is required (set it, or AUTH_YANDEX_ID)
}
