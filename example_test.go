package gatehouse_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/yandex"
	"golang.org/x/oauth2"
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

// A page that calls a provider API as the signed-in user. The provider's
// tokens are kept in the session cookie (KeepTokens; with an Adapter they
// are kept in the database), and refreshed when they expire.
func ExampleHandler_TokenSource() {
	site := startExampleSite(func(auth *gatehouse.Handler, api string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			ts, err := auth.TokenSource(r.Context(), w, r, "corp")
			if err != nil {
				http.Redirect(w, r, "/auth/signin?callbackUrl=/me", http.StatusFound)
				return
			}
			// Refreshed here if it has expired, before anything is written.
			resp, err := oauth2.NewClient(r.Context(), ts).Get(api)
			switch {
			case errors.Is(err, gatehouse.ErrSignInAgain):
				// Revoked or expired for good: sign in again.
				http.Redirect(w, r, "/auth/signin?callbackUrl=/me", http.StatusFound)
				return
			case err != nil:
				http.Error(w, "the API is not answering; try again later.", http.StatusBadGateway)
				return
			}
			defer resp.Body.Close()
			io.Copy(w, resp.Body)
		}
	})
	defer site.close()
	fmt.Println(site.signInAndGet("/me"))
	// Output:
	// alice alice@example.com
}

// A page that calls a provider API with Handler.Client: the token in the
// Authorization header, and for DPoP-bound tokens
// (Client.DPoPBoundAccessTokens) a new DPoP proof for every request.
func ExampleHandler_Client() {
	site := startExampleSite(func(auth *gatehouse.Handler, api string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			c, err := auth.Client(r.Context(), w, r, "corp")
			if err != nil {
				http.Redirect(w, r, "/auth/signin?callbackUrl=/me", http.StatusFound)
				return
			}
			resp, err := c.Get(api)
			switch {
			case errors.Is(err, gatehouse.ErrSignInAgain):
				http.Redirect(w, r, "/auth/signin?callbackUrl=/me", http.StatusFound)
				return
			case err != nil:
				http.Error(w, "the API is not answering; try again later.", http.StatusBadGateway)
				return
			}
			defer resp.Body.Close()
			io.Copy(w, resp.Body)
		}
	})
	defer site.close()
	fmt.Println(site.signInAndGet("/me"))
	// Output:
	// alice alice@example.com
}

// exampleSite is a site with one provider, "corp" (an in-process OpenID
// provider whose userinfo endpoint stands for the API), and the page /me.
type exampleSite struct {
	op, app *httptest.Server
}

func startExampleSite(page func(auth *gatehouse.Handler, api string) http.HandlerFunc) *exampleSite {
	op := authtest.NewServer(authtest.Options{AutoApprove: true})
	app := httptest.NewUnstartedServer(nil)
	auth, err := gatehouse.New(gatehouse.Config{
		Secret: []string{"example-secret-example-secret-0123456789"},
		URL:    "http://" + app.Listener.Addr().String() + "/auth",
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{
			ID: "corp", Name: "Corp", Type: providers.TypeOIDC, Issuer: op.Issuer(),
			ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
		}},
		Callbacks: gatehouse.Callbacks{JWT: gatehouse.KeepTokens(nil)},
	})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/auth/", auth)
	mux.Handle("/me", page(auth, op.Issuer()+"/userinfo"))
	app.Config.Handler = auth.Middleware(mux)
	app.Start()
	return &exampleSite{op: op.Server, app: app}
}

// signInAndGet signs a browser in (the CSRF token, the sign-in form's
// POST, the redirects to the provider and back) with callbackUrl path,
// and returns the sub and email of the API's answer found there.
func (s *exampleSite) signInAndGet(path string) string {
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	var csrf struct{ CSRFToken string }
	resp, err := browser.Get(s.app.URL + "/auth/csrf")
	if err != nil {
		log.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&csrf)
	resp.Body.Close()
	resp, err = browser.PostForm(s.app.URL+"/auth/signin/corp", url.Values{"csrfToken": {csrf.CSRFToken}, "callbackUrl": {path}})
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	var user struct{ Sub, Email string }
	if err := json.NewDecoder(resp.Body).Decode(&user); err != nil {
		return fmt.Sprintf("%s answered %s: %v", resp.Request.URL.Path, resp.Status, err)
	}
	return user.Sub + " " + user.Email
}

func (s *exampleSite) close() {
	s.app.Close()
	s.op.Close()
}

// The template helpers with options: the button's label and class, and
// where to land (kept same-origin). Execute binds the helpers to the
// request.
func ExampleHandler_Funcs() {
	auth, err := gatehouse.New(gatehouse.Config{
		Secret:    []string{"a-secret-of-at-least-32-bytes-0123456789"},
		URL:       "https://app.example.com/auth",
		Providers: []providers.Provider{yandex.New(providers.OAuthUserConfig[yandex.Profile]{ClientID: "id", ClientSecret: "secret"})},
	})
	if err != nil {
		log.Fatal(err)
	}
	page := template.Must(template.New("page").Funcs(auth.FuncMap()).Parse(
		`{{ signIn "yandex" "label" "Continue with Yandex" "class" "btn" "callbackUrl" "/dashboard" }}`))
	w := httptest.NewRecorder()
	if err := auth.Execute(w, httptest.NewRequest("GET", "https://app.example.com/", nil), page, nil); err != nil {
		log.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`name="callbackUrl" value="[^"]*"|<button[^>]*>[^<]*</button>`).FindAllString(w.Body.String(), -1) {
		fmt.Println(m)
	}
	// Output:
	// name="callbackUrl" value="https://app.example.com/dashboard"
	// <button type="submit" class="btn">Continue with Yandex</button>
}
