package gatehouse_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
)

// TestPagesLanguage checks the language of the built-in pages through the
// Handler: Accept-Language picks German, Config.Language overrides it,
// and English is the default.
func TestPagesLanguage(t *testing.T) {
	newH := func(lang func(*http.Request) string) *gatehouse.Handler {
		return newHandler(t, gatehouse.Config{Secret: []string{testSecret}, URL: "http://localhost/auth", Adapter: memory.New(),
			Language: lang,
			Providers: []providers.Provider{passwordaccount.Config{ID: "members", Name: "Konto",
				Send: func(context.Context, passwordaccount.Message) error { return nil }}}})
	}
	get := func(h *gatehouse.Handler, path, accept string) string {
		t.Helper()
		r := httptest.NewRequest(http.MethodGet, "http://localhost"+path, nil)
		r.Header.Set("Accept", "text/html")
		if accept != "" {
			r.Header.Set("Accept-Language", accept)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Body.String()
	}
	h := newH(nil)
	for _, c := range []struct{ path, accept, lang, want string }{
		{"/auth/signin", "", "en", "Sign in with Konto"},
		{"/auth/signin", "de-DE,de;q=0.9,en;q=0.5", "de", "Mit Konto anmelden"},
		{"/auth/signin", "fr, de;q=0.5", "de", "Passwort vergessen?"},
		{"/auth/signout", "de", "de", "Möchten Sie sich wirklich abmelden?"},
		{"/auth/error?error=AccessDenied", "de", "de", "Sie haben keine Berechtigung, sich anzumelden."},
		{"/auth/verify-request", "de", "de", "Prüfen Sie Ihre E-Mails"},
		{"/auth/members/sign-up", "de", "de", "Konto anlegen"},
		{"/auth/members/forgot", "de", "de", "Link senden"},
		{"/auth/no-such-route", "de", "de", "Unter dieser Adresse gibt es nichts."},
		{"/auth/no-such-route", "", "en", "There is nothing at this address."},
	} {
		body := get(h, c.path, c.accept)
		if !strings.Contains(body, `<html lang="`+c.lang+`"`) || !strings.Contains(body, c.want) {
			t.Errorf("GET %s, Accept-Language %q: want lang %s and %q:\n%s", c.path, c.accept, c.lang, c.want, body)
		}
	}
	// Config.Language wins over Accept-Language; "" defers to it.
	h = newH(func(r *http.Request) string { return r.URL.Query().Get("lang") })
	if body := get(h, "/auth/signin?lang=en", "de"); !strings.Contains(body, `<html lang="en"`) {
		t.Errorf("Language en: %s", body)
	}
	if body := get(h, "/auth/signin?lang=de", "en"); !strings.Contains(body, `<html lang="de"`) {
		t.Errorf("Language de: %s", body)
	}
	if body := get(h, "/auth/signin", "de"); !strings.Contains(body, `<html lang="de"`) {
		t.Errorf("Language empty, Accept-Language de: %s", body)
	}
}
