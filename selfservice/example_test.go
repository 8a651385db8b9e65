package selfservice_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/github"
	"github.com/gatehouse-auth/gatehouse/selfservice"
)

// A site whose users see and change their linked accounts and sessions:
// the routes need the adapter that stores them. A request without a
// session is told to sign in.
func Example() {
	auth, err := gatehouse.New(gatehouse.Config{
		Secret:      []string{"an app secret of at least 32 bytes"},
		URL:         "https://app.example.com/auth",
		Providers:   []providers.Provider{github.New(providers.OAuthUserConfig[github.Profile]{ClientID: "id", ClientSecret: "secret"})},
		Adapter:     memory.New(),
		SelfService: selfservice.Routes{},
	})
	if err != nil {
		panic(err)
	}
	for _, path := range []string{"/auth/accounts", "/auth/sessions"} {
		w := httptest.NewRecorder()
		auth.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "https://app.example.com"+path, nil))
		fmt.Println(path, w.Code)
	}
	// Output:
	// /auth/accounts 401
	// /auth/sessions 401
}
