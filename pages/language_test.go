package pages

import (
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/catalog"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// TestCoreCatalogueComplete checks that the core catalogue's German has
// exactly the English keys, each with the same fmt verbs, and that Text
// finds them. (Every key in use is checked against every catalogue in
// TestCatalogueComplete.)
func TestCoreCatalogueComplete(t *testing.T) {
	for _, p := range catalog.Check(english, german) {
		t.Error(p)
	}
	for _, k := range []string{"signin.title", "error.heading.default", "verify.title"} {
		if Text("de", k) != german[k] || Text("en", k) != english[k] {
			t.Errorf("the core key %s is not looked up", k)
		}
	}
}

// everyPage returns every built-in page in each of its states, by name.
// The text a caller supplies (provider names, dates) is chosen to contain
// no English message.
func everyPage() map[string]any {
	p := map[string]any{
		"signin-all": func() SignIn {
			s := fullSignIn()
			e := s.Forms[0].(EmailForm)
			e.Name = "E-Mail"
			c := s.Forms[1].(CredentialsForm)
			c.Name = "Kennwort"
			c.Fields[0].Label = "Benutzer"
			c.Fields[1].Label = "Kennwort"
			s.Failed = "credentials"
			s.Error = "CredentialsSignin"
			s.Forms = []Form{e, c,
				WebAuthnForm{ID: "passkey", Name: "Passkey", OptionsURL: "/o", CallbackURL: "/c", Conditional: true, SignUp: true},
				PasswordForm{ID: "password", Name: "Konto", CallbackURL: "/c", SignUpURL: "/s", ForgotURL: "/f"}}
			return s
		}(),
		"signin-password-failed": SignIn{Error: "CredentialsSignin", Failed: "password",
			Forms: []Form{PasswordForm{ID: "password", Name: "Konto", CallbackURL: "/c", SignUpURL: "/s", ForgotURL: "/f"}}},
		"signin-oauth":  SignIn{OAuth: []Button{{ID: "github", Name: "GitHub", SigninURL: "/g", Style: providers.Style{BrandColor: "#24292f"}}}},
		"signout":       SignOut{SignOutURL: "/so", HomeURL: "/", CallbackURL: "/"},
		"verify":        VerifyRequest{HomeURL: "/", Host: "example.com"},
		"verify-nohost": VerifyRequest{HomeURL: "/"},
		"notice":        Notice{Message: "Nachricht", LinkURL: "/", LinkText: "Weiter"},
		"accounts": Accounts{
			CSRFToken: "x", HomeURL: "/", CallbackURL: "/acc", Ways: []string{"Passkey"},
			Linked: []LinkedAccount{
				{ID: "github", Name: "GitHub", AccountID: "1234567890abcdefghij", UnlinkURL: "/u"},
				{ID: "google", Name: "Google", AccountID: "42"},
			},
			Link: []Button{{ID: "gitlab", Name: "GitLab", SigninURL: "/l"}},
		},
		"accounts-confirm": Accounts{Confirm: &UnlinkConfirm{Name: "GitHub", UnlinkURL: "/u", CancelURL: "/", Remaining: []string{"Google", "Passkey"}}},
		"sessions": Sessions{HomeURL: "/", RevokeURL: "/r", RevokeOthersURL: "/ro", RevokeAllURL: "/ra", Sessions: []SessionRow{
			{ID: "a", Current: true, Provider: "GitHub", Device: "Firefox unter Linux", Created: "1.12.2026", LastSeen: "2.12.2026", Expires: "3.1.2027"},
			{ID: "b", Expires: "4.1.2027"},
		}},
		"two-factor":           TwoFactorChallenge{ActionURL: "/t", SignInURL: "/s", Error: "Falsch"},
		"two-factor-setup-off": TwoFactorSetup{EnrollURL: "/e", HomeURL: "/"},
		"two-factor-setup-enrolling": TwoFactorSetup{QRCode: "data:image/png;base64,AAAA", Secret: "ABCDEF", ConfirmURL: "/c",
			SignInURL: "/s"},
		"two-factor-setup-codes": TwoFactorSetup{BackupCodes: []string{"abcd-efgh"}},
		"two-factor-setup-on":    TwoFactorSetup{Enabled: true, BackupCodesLeft: 5, BackupCodesURL: "/b", DisableURL: "/d"},
		"two-factor-setup-on-1":  TwoFactorSetup{Enabled: true, BackupCodesLeft: 1, BackupCodesURL: "/b", DisableURL: "/d"},
		"invitation": Invitation{CSRFToken: "x", Organization: "Firma", Inviter: "Anna", Email: "b@example.com", Role: "Entwickler",
			Expires: "3.1.2027", Token: "t", AcceptURL: "/a", DeclineURL: "/d", HomeURL: "/"},
		"invitation-no-inviter": Invitation{Organization: "Firma", Email: "b@example.com", Role: "Entwickler", Expires: "3.1.2027", AcceptURL: "/a", DeclineURL: "/d"},
		"invitation-signin":     Invitation{Organization: "Firma", Email: "b@example.com", Role: "Entwickler", Expires: "3.1.2027", SignInURL: "/s"},
		"invitation-other": Invitation{Organization: "Firma", Email: "b@example.com", Role: "Entwickler", Expires: "3.1.2027",
			SignedInAs: "c@example.com", SignOutURL: "/so"},
		"invitation-gone": Invitation{Error: "Ungültig", HomeURL: "/"},
		"organization": Organization{CSRFToken: "x", Name: "Firma", Role: "Inhaber", Notice: "Erledigt", Error: "Fehler",
			Link: "http://example.com/l", LinkEmail: "b@example.com", InviteURL: "/i", InviteRoles: []string{"Entwickler"},
			Members: []MemberRow{
				{Name: "Anna", Email: "a@example.com", Role: "Inhaber", You: true},
				{Name: "Bernd", Email: "b@example.com", Role: "Entwickler", RoleURL: "/r", Roles: []string{"Entwickler", "Leser"}, RemoveURL: "/x"},
			},
			Invitations: []InvitationRow{{Email: "c@example.com", Role: "Leser", Expires: "3.1.2027", CancelURL: "/c"}},
			Roles:       []RoleRow{{Name: "Inhaber", Permissions: []string{"projekt:lesen"}, BuiltIn: true}, {Name: "Leser"}},
			LeaveURL:    "/l", ListURL: "/o"},
		"organization-empty": Organization{Name: "Firma", Role: "Leser", InviteURL: "/i"},
		"organization-teams": Organization{CSRFToken: "x", Name: "Firma", Role: "Inhaber", TeamsOn: true, TeamCreateURL: "/t",
			Teams: []TeamRow{{Name: "Technik", Members: []TeamMemberRow{{Name: "Anna", RemoveURL: "/r"}}, UpdateURL: "/u", DeleteURL: "/d",
				AddURL: "/a", Candidates: []TeamCandidate{{ID: "2", Name: "Bernd"}}}, {Name: "Vertrieb"}}},
		"organization-no-teams": Organization{Name: "Firma", Role: "Leser", TeamsOn: true},
		"organizations": Organizations{CSRFToken: "x", Notice: "Erledigt", ActiveURL: "/a", CreateURL: "/c", HomeURL: "/",
			List: []OrganizationRow{{ID: "1", Name: "Firma", URL: "/1", Active: true}, {ID: "2", Name: "Verein", URL: "/2"}}},
		"organizations-none": Organizations{CreateURL: "/c"},
		"admin-users": AdminUsers{CSRFToken: "x", ListURL: "/u", Search: "anna", Banned: true, NextURL: "/n", FirstURL: "/f",
			CreateURL: "/c", Password: true, HomeURL: "/", Users: []AdminUserRow{{Name: "Anna", Email: "a@example.com", URL: "/1", Role: "admin", Banned: true}}},
		"admin-users-none": AdminUsers{ListURL: "/u"},
		"admin-user": AdminUser{CSRFToken: "x", ID: "1", Name: "Anna", Email: "a@example.com", Role: "admin", Named: true, Unverified: true,
			Ban:      &AdminBan{Reason: "Spam", By: "Bernd", At: "2026-01-01", Expires: "2026-02-01"},
			Accounts: []AdminAccountRow{{Provider: "github", AccountID: "42"}}, Sessions: []SessionRow{{ID: "s", Device: "Firefox", Expires: "2026-02-01"}},
			RevokeSessionURL: "/r", RoleURL: "/ro", UnbanURL: "/ub", RevokeSessionsURL: "/rs", PasswordURL: "/p", ImpersonateURL: "/i",
			DeleteURL: "/d", ListURL: "/u"},
		"admin-user-plain": AdminUser{CSRFToken: "x", ID: "1", Email: "a@example.com", Role: "user", BanURL: "/b"},
		"api-keys": APIKeys{CSRFToken: "x", Notice: "Erledigt", Error: "Fehler", Secret: "gh_1_2", SecretName: "Skript",
			Keys: []APIKeyRow{{Name: "Skript", Start: "gh_1", Organization: "Firma", Permissions: []string{"bericht:lesen"},
				Created: "3.1.2027", LastUsed: "4.1.2027", Expires: "3.2.2027", RotateURL: "/r", RevokeURL: "/v"},
				{Name: "Alt", Start: "gh_2", Created: "3.1.2027", Revoked: "4.1.2027"}},
			CreateURL: "/c", Permissions: []string{"bericht:lesen"}, MaxDays: 90, HomeURL: "/"},
		"api-keys-none": APIKeys{CreateURL: "/c"},
	}
	for _, k := range []PasswordKind{PasswordSignUp, PasswordForgot, PasswordReset, PasswordChange} {
		p["password-"+string(k)] = Password{Kind: k, ActionURL: "/a", MinLength: 8, MaxLength: 64, SignInURL: "/s", HomeURL: "/"}
	}
	types := []string{"Unknown-Type"}
	for typ := range errorTypes {
		types = append(types, typ)
	}
	for _, typ := range types {
		p["error-"+typ] = Error{Type: typ, SignInURL: "/s", HomeURL: "/"}
		p["signin-error-"+typ] = SignIn{Error: typ}
	}
	return p
}

func TestLanguageFor(t *testing.T) {
	for _, c := range []struct{ header, want string }{
		{"", "en"},
		{"de", "de"},
		{"de-AT,en;q=0.5", "de"},
		{"fr-CH, fr;q=0.9, de;q=0.8, en;q=0.7", "de"},
		{"en-US,en;q=0.9,de;q=0.8", "en"},
		{"de;q=0, en", "en"},
		{"fr, ja", "en"},
		{"*", "en"},
		{"de;q=bogus, fr", "en"},
		{"en;q=0.1, DE;q=0.9", "de"},
	} {
		if got := LanguageFor(c.header); got.Tag != c.want || got.Dir != "ltr" {
			t.Errorf("LanguageFor(%q) = %+v, want %s ltr", c.header, got, c.want)
		}
	}
}

// TestMessagesOverride checks an application's own messages: an override
// of a built-in one, a new language with the fallback to English, a
// regional tag falling back to its base, and a right-to-left language.
func TestMessagesOverride(t *testing.T) {
	old := Messages
	t.Cleanup(func() { Messages = old })
	Messages = map[string]map[string]string{
		"de": {"signin.title": "Willkommen"},
		"fr": {"signout.title": "Se déconnecter"},
		"ar": {"signout.title": "تسجيل الخروج"},
	}
	if got := Text("de-AT", "signin.title"); got != "Willkommen" {
		t.Errorf("de-AT signin.title = %q", got)
	}
	if got := Text("fr", "signout.confirm"); got != english["signout.confirm"] {
		t.Errorf("fr falls back to %q", got)
	}
	if l := LanguageFor("fr-CA"); l.Tag != "fr" || l.Dir != "ltr" {
		t.Errorf("LanguageFor(fr-CA) = %+v", l)
	}
	l := LanguageFor("ar-EG, de;q=0.5")
	if l.Tag != "ar" || l.Dir != "rtl" {
		t.Fatalf("LanguageFor(ar-EG) = %+v", l)
	}
	rec := httptest.NewRecorder()
	if err := RenderIn(rec, l, 0, SignOut{SignOutURL: "/so"}); err != nil {
		t.Fatal(err)
	}
	if b := rec.Body.String(); !strings.Contains(b, `<html lang="ar" dir="rtl"`) || !strings.Contains(b, "<h1>تسجيل الخروج</h1>") {
		t.Errorf("Arabic page:\n%s", b)
	}
	// A language without messages is rendered in English.
	rec = httptest.NewRecorder()
	if err := RenderIn(rec, Language{Tag: "xx-yy", Dir: "rtl"}, 0, SignOut{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rec.Body.String(), `<html lang="en" dir="ltr"`) {
		t.Error("an unknown language is not rendered in English")
	}
	// Escaping stays: a message with markup is text.
	Messages["de"]["signout.confirm"] = `<b>Sicher?</b>`
	rec = httptest.NewRecorder()
	if err := RenderIn(rec, Language{Tag: "de"}, 0, SignOut{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rec.Body.String(), "&lt;b&gt;Sicher?&lt;/b&gt;") {
		t.Error("a message's markup is not escaped")
	}
}

// withoutAdded empties the catalogue of AddMessages, and again when t
// ends: it outlives the test that fills it.
func withoutAdded(t *testing.T) {
	added = new(catalog.Set)
	t.Cleanup(func() { added = new(catalog.Set) })
}

// TestAddMessages checks the messages an application adds: an override
// of a built-in one, a new language chosen by LanguageFor and listed by
// Languages, a second call for a tag keeping the first's other messages,
// the added ones taking precedence over Messages, and a copy made (the
// caller's map changed afterwards changes nothing).
func TestAddMessages(t *testing.T) {
	withoutAdded(t)
	old := Messages
	t.Cleanup(func() { Messages = old })
	Messages = map[string]map[string]string{"de": {"signin.title": "Aus Messages"}}

	fr := map[string]string{"signout.title": "Se déconnecter", "signin.title": "Connexion"}
	AddMessages("FR", fr)
	AddMessages("de", map[string]string{"signin.title": "Willkommen"})
	AddMessages("fr", map[string]string{"signin.title": "Se connecter"})
	fr["signout.title"] = "changed by the caller"
	AddMessages("", map[string]string{"signin.title": "nobody's"})

	for _, c := range []struct{ tag, key, want string }{
		{"de-AT", "signin.title", "Willkommen"}, // added, over Messages and the built-in one
		{"de", "signout.title", german["signout.title"]},
		{"fr-CA", "signin.title", "Se connecter"},
		{"fr", "signout.title", "Se déconnecter"},
		{"fr", "signout.confirm", english["signout.confirm"]},
		{"en", "signin.title", english["signin.title"]},
	} {
		if got := Text(c.tag, c.key); got != c.want {
			t.Errorf("Text(%s, %s) = %q, want %q", c.tag, c.key, got, c.want)
		}
	}
	if l := LanguageFor("fr-CA, de;q=0.5"); l.Tag != "fr" {
		t.Errorf("LanguageFor(fr-CA) = %+v", l)
	}
	if got := strings.Join(Languages(), " "); got != "de en fr" {
		t.Errorf("Languages() = %s, want de en fr", got)
	}
	rec := httptest.NewRecorder()
	if err := RenderIn(rec, LanguageFor("fr"), 0, SignOut{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rec.Body.String(), "<h1>Se déconnecter</h1>") {
		t.Error("the page is not rendered with the added message")
	}
}

// TestAddMessagesWhileRendering adds messages while pages are rendered
// and languages chosen on other goroutines, as an application may at run
// time: under -race it fails if the catalogue is read and written without
// synchronisation; without, it checks every render saw a whole message.
func TestAddMessagesWhileRendering(t *testing.T) {
	withoutAdded(t)
	const rounds = 200
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range rounds {
				rec := httptest.NewRecorder()
				if err := RenderIn(rec, LanguageFor("fr, de;q=0.5"), 0, SignOut{}); err != nil {
					t.Error(err)
					return
				}
				b := rec.Body.String()
				if !strings.Contains(b, "<h1>"+english["signout.title"]+"</h1>") && !strings.Contains(b, "<h1>"+german["signout.title"]+"</h1>") &&
					!strings.Contains(b, "<h1>Se déconnecter ") {
					t.Errorf("a render saw no whole title")
					return
				}
				_ = Languages()
			}
		})
	}
	for i := range rounds {
		AddMessages("fr", map[string]string{"signout.title": "Se déconnecter " + strconv.Itoa(i)})
		AddMessages("de", map[string]string{"signin.title": "Willkommen " + strconv.Itoa(i)})
	}
	wg.Wait()
	if got := Text("fr", "signout.title"); got != "Se déconnecter "+strconv.Itoa(rounds-1) {
		t.Errorf("after the adds, Text(fr) = %q", got)
	}
}
