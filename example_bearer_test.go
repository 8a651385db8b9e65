package gatehouse_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/yandex"
)

// A Go API behind an Auth.js front end: it reads the front end's session
// cookie, or the same token as a Bearer header (docs/authjs-interop.md).
func ExampleSessionConfig_bearer() {
	secure := true // the front end is on https: __Secure-authjs.session-token
	api, err := gatehouse.New(gatehouse.Config{
		Secret:           []string{"the-front-ends-AUTH_SECRET-0123456789abc"},
		UseSecureCookies: &secure,
		// The front end's cookie names: the session key is derived from it.
		AuthJSCookieNames: true,
		Session:           gatehouse.SessionConfig{Bearer: true},
		Providers:         []providers.Provider{yandex.New(providers.OAuthUserConfig[yandex.Profile]{ClientID: "id", ClientSecret: "secret"})},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	mux := http.NewServeMux()
	mux.Handle("/api/me", api.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, gatehouse.SessionFrom(r.Context()).User.Email)
	})))
	h := api.Middleware(mux)

	r := httptest.NewRequest("GET", "/api/me", nil)
	r.Header.Set("Authorization", "Bearer not-a-session-token")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Println(w.Code, w.Header().Get("WWW-Authenticate"))
	// Output:
	// 401 Bearer error="invalid_token", error_description="the session token is missing, invalid or expired"
}
