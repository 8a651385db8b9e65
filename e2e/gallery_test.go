package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/builtin"
)

// gallery serves the default pages with everything they can show, as the
// package pages renders them: built-in providers with their own styles
// and logos, a provider without either, an e-mail form and a
// credentials form, under a theme with a site logo. The example
// application offers only the development provider, so this is where the
// other parts of the sign-in page are seen in a browser.
func gallery(t *testing.T) string {
	t.Helper()
	var buttons []pages.Button
	for _, id := range []providers.OAuthProviderType{"github", "google", "gitlab", "discord", "apple", "azure-ad-b2c"} {
		o := builtin.Providers[id](builtin.Options{ClientID: "x"}).(providers.OAuthProvider).OAuth()
		buttons = append(buttons, pages.Button{ID: o.ID, Name: o.Name, SigninURL: "/auth/signin/" + o.ID, Style: o.Style})
	}
	buttons = append(buttons, pages.Button{ID: "corp", Name: "Corp SSO", SigninURL: "/auth/signin/corp"})
	theme := pages.Theme{BrandColor: "#2f6f4e", Logo: "/logo.svg"}
	signIn := pages.SignIn{
		Theme:     theme,
		CSRFToken: "token",
		OAuth:     buttons,
		Email:     []pages.EmailForm{{ID: "email", Name: "Email", SigninURL: "/auth/signin/email"}},
		Credentials: []pages.CredentialsForm{{
			ID: "credentials", Name: "Password", CallbackURL: "/auth/callback/credentials",
			Fields: []pages.Field{
				{Name: "username", Label: "Username", Autocomplete: "username", Required: true},
				{Name: "password", Label: "Password", Type: "password", Autocomplete: "current-password", Required: true},
			},
		}},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /logo.svg", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Write([]byte(siteLogo))
	})
	mux.HandleFunc("GET /auth/signin", func(w http.ResponseWriter, r *http.Request) {
		p := signIn
		p.Error = r.URL.Query().Get("error")
		if err := pages.Render(w, 0, p); err != nil {
			t.Error(err)
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// siteLogo is a made-up site logo for the gallery's theme.
// An SVG logo can follow the colour scheme with its own media query.
const siteLogo = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 40" width="160" height="40">` +
	`<style>@media (prefers-color-scheme: dark) { text { fill: #8fd1ac } }</style>` +
	`<rect x="2" y="4" width="32" height="32" rx="8" fill="#2f6f4e"/><path d="M11 27V14l7-5 7 5v13h-5v-7h-4v7z" fill="#fff"/>` +
	`<text x="44" y="27" font-family="system-ui,sans-serif" font-size="20" font-weight="600" fill="#2f6f4e">Acme</text></svg>`

// TestSignInPageEverything shows the sign-in page with every kind of
// provider, checks it in the browser's terms (names, contrast in both
// schemes, keyboard), and saves its screenshots.
func TestSignInPageEverything(t *testing.T) {
	ctx := newBrowser(t)
	base := gallery(t)
	resp := load(t, ctx, "opening the gallery", chromedp.Navigate(base+"/auth/signin"))
	wantStatus(t, resp, 200)

	// The built-in logos are drawn, the site logo loaded (the CSP lets
	// it), and the providers without a logo have their initial.
	drawn, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](`({
		svgs: document.querySelectorAll("button.provider svg.logo path").length,
		badge: (document.querySelector("button.provider .badge") || {}).textContent || "",
		siteLogo: document.querySelector("img.site-logo").naturalWidth,
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if drawn["svgs"] != float64(5) || drawn["badge"] != "A" || drawn["siteLogo"] == float64(0) {
		t.Errorf("logos: %v, want 5 built-in logos, the badge A (Azure AD B2C) and a loaded site logo", drawn)
	}

	// A label is what names each field: clicking it focuses the input.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`label[for="credentials-0-0"]`), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	if id, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.id`)); id != "credentials-0-0" {
		t.Errorf("clicking the Username label focused %q", id)
	}

	checkAccessible(t, ctx, "sign-in page (everything)")

	// Tab reaches every control, in order, each with a focus ring.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/auth/signin")); err != nil {
		t.Fatal(err)
	}
	stops := tabThrough(t, ctx, "sign-in page (everything)", 30)
	var order []string
	for _, s := range stops {
		order = append(order, s.What)
	}
	want := []string{
		"button@/auth/signin/github", "button@/auth/signin/google", "button@/auth/signin/gitlab",
		"button@/auth/signin/discord", "button@/auth/signin/apple", "button@/auth/signin/azure-ad-b2c", "button@/auth/signin/corp",
		"input[name=email]@/auth/signin/email", "button@/auth/signin/email",
		"input[name=username]@/auth/callback/credentials", "input[name=password]@/auth/callback/credentials", "button@/auth/callback/credentials",
	}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Errorf("Tab order:\n got %v\nwant %v", order, want)
	}

	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/auth/signin")); err != nil {
		t.Fatal(err)
	}
	shootPage(t, ctx, "signin-everything")
}
