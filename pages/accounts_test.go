package pages

import (
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/github"
	"github.com/gatehouse-auth/gatehouse/providers/google"
)

func accountsPage() Accounts {
	return Accounts{
		CSRFToken: "tok", CallbackURL: "/auth/accounts#top", HomeURL: "/",
		Linked: []LinkedAccount{
			{ID: "github", Name: "GitHub", AccountID: "1234567", Style: providers.Style{BrandColor: "#24292f", Icon: github.Icon}, UnlinkURL: "/auth/accounts/unlink/github"},
			{ID: "corp", Name: "Corp <Inc>", AccountID: "00u1a2b3c4d5e6f7g8h9i0j", UnlinkURL: "/auth/accounts/unlink/corp"},
		},
		Link:   []Button{{ID: "google", Name: "Google", SigninURL: "/auth/signin/google", Style: providers.Style{Icon: google.Icon}}},
		Notice: "Linked GitHub.",
	}
}

// TestAccountsPage: each linked account shows its logo, name and short
// id with an Unlink form (CSRF token, an accessible name naming it) when
// it has an UnlinkURL, and says it is the last way when it has none; each
// provider to link is a form to its sign-in URL with the callback.
func TestAccountsPage(t *testing.T) {
	body := render(t, 200, accountsPage()).Body.String()
	for _, want := range []string{
		`<h1>Linked accounts</h1>`,
		`<p class="notice" role="status">Linked GitHub.</p>`,
		`<strong>GitHub</strong>`,
		`<strong>Corp &lt;Inc&gt;</strong>`,
		`title="00u1a2b3c4d5e6f7g8h9i0j">00u1a2b3…9i0j<`, // shortened, the whole id on hover
		`<form action="/auth/accounts/unlink/github" method="post">`,
		`aria-label="Unlink GitHub">Unlink</button>`,
		`aria-label="Unlink Corp &lt;Inc&gt;">Unlink</button>`,
		`<form action="/auth/signin/google" method="post">`,
		`<input type="hidden" name="callbackUrl" value="/auth/accounts?linked=google">`,
		`<span>Link Google</span>`,
		`<h2>Link another account</h2>`,
		`<path fill="currentColor" d="` + github.Icon + `">`, // the built-in GitHub logo
		`<span class="logo badge" aria-hidden="true">C</span>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if n := strings.Count(body, `name="csrfToken" value="tok"`); n != 3 {
		t.Errorf("%d forms carry the CSRF token, want 3", n)
	}
	if strings.Contains(body, "only way to sign in") {
		t.Error("an account that can be unlinked is called the only way")
	}

	last := accountsPage()
	last.Linked = last.Linked[:1]
	last.Linked[0].UnlinkURL = ""
	last.Link, last.Notice, last.Error = nil, "", "This account is your only way to sign in."
	body = render(t, 409, last).Body.String()
	if strings.Contains(body, "/accounts/unlink/") || strings.Contains(body, ">Unlink<") {
		t.Error("the last way to sign in has an Unlink button")
	}
	for _, want := range []string{"cannot be unlinked", `<div class="alert" role="alert">This account is your only way to sign in.</div>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the last-way page lacks %s", want)
		}
	}
	if strings.Contains(body, "Link another account") || strings.Contains(body, `role="status"`) {
		t.Error("the page shows an empty link section or notice")
	}
}

func TestShortID(t *testing.T) {
	for in, want := range map[string]string{
		"":                  "",
		"1234567":           "1234567",
		"0123456789abcdef":  "0123456789abcdef",
		"0123456789abcdefg": "01234567…defg",
		"ääääääääääääääääü": "ää" + "ääääää…äääü",
	} {
		if got := shortID(in); got != want {
			t.Errorf("shortID(%q) = %q, want %q", in, got, want)
		}
	}
}
