package pages

import (
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/gitlab"
	"github.com/gatehouse-auth/gatehouse/providers/google"
)

// TestButtonLogos: a button draws its Style.Icon inline in the text
// colour; a Style.Logo wins over it; a provider without either, or with
// an Icon that is not path data, gets the initial badge. The logo goes by
// the style, not by the id.
func TestButtonLogos(t *testing.T) {
	body := render(t, 200, SignIn{OAuth: []Button{
		{ID: "gitlab", Name: "GitLab", SigninURL: "/a", Style: providers.Style{Icon: gitlab.Icon}},
		{ID: "google", Name: "Google", SigninURL: "/b", Style: providers.Style{Logo: "/static/google-official.svg", Icon: google.Icon}},
		{ID: "corp", Name: "Corp SSO", SigninURL: "/c"},
		{ID: "evil", Name: "Evil", SigninURL: "/d", Style: providers.Style{Icon: `M0 0"/><script>alert(1)</script>`}},
		{ID: "github", Name: "Own GitHub", SigninURL: "/e"},
		{ID: "mine", Name: "Mine", SigninURL: "/f", Style: providers.Style{Icon: "M0 0h24v24H0z"}},
	}}).Body.String()
	for _, want := range []string{
		`<svg class="logo" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false"><path fill="currentColor" d="` + gitlab.Icon + `"></path></svg><span>Sign in with GitLab</span>`,
		`<img class="logo" src="/static/google-official.svg" alt="" width="20" height="20"><span>Sign in with Google</span>`,
		`<span class="logo badge" aria-hidden="true">C</span><span>Sign in with Corp SSO</span>`,
		`<span class="logo badge" aria-hidden="true">E</span><span>Sign in with Evil</span>`,
		`<span class="logo badge" aria-hidden="true">O</span><span>Sign in with Own GitHub</span>`,
		`<path fill="currentColor" d="M0 0h24v24H0z"></path></svg><span>Sign in with Mine</span>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("output lacks %.160s", want)
		}
	}
	if strings.Contains(body, google.Icon) {
		t.Error("the Google icon is drawn although Style.Logo is set")
	}
	if strings.Contains(body, "alert(1)") {
		t.Error("an Icon that is not path data reached the page")
	}
}

// TestAccountsLogos: the accounts page draws a linked account's and a
// provider to link's Style.Icon as the sign-in page does.
func TestAccountsLogos(t *testing.T) {
	body := render(t, 200, Accounts{
		Linked: []LinkedAccount{{ID: "gitlab", Name: "GitLab", AccountID: "1", Style: providers.Style{Icon: gitlab.Icon}}},
		Link:   []Button{{ID: "google", Name: "Google", SigninURL: "/b", Style: providers.Style{Icon: google.Icon}}, {ID: "x", Name: "X", SigninURL: "/x", Style: providers.Style{Icon: "<b>"}}},
	}).Body.String()
	for _, want := range []string{
		`<path fill="currentColor" d="` + gitlab.Icon + `"></path>`,
		`<path fill="currentColor" d="` + google.Icon + `"></path>`,
		`<span class="logo badge" aria-hidden="true">X</span>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("output lacks %.160s", want)
		}
	}
}
