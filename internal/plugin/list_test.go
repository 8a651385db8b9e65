package plugin

import (
	"net/http/httptest"
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/providers"
)

type infoFlow struct {
	Flow
	info providers.Base
}

func (f infoFlow) Info() providers.Base { return f.info }

// The list keeps the configuration order and each provider's URLs under
// the request's base; the JSON answer is keyed by id, ends in a newline,
// and is encoded once per base.
func TestProvidersList(t *testing.T) {
	flows := map[string]Flow{
		"b": infoFlow{info: providers.Base{Name: "B", Type: providers.TypeOIDC}},
		"a": infoFlow{info: providers.Base{Name: "A", Type: providers.TypeEmail}},
	}
	b := (&site.Resolver{Path: "/auth"}).For(httptest.NewRequest("GET", "http://app.test/auth/providers", nil))
	list := AppProviders([]string{"b", "a"}, flows, b)
	if len(list) != 2 || list[0].ID != "b" || list[1].Name != "A" || list[0].SigninURL != "http://app.test/auth/signin/b" || list[1].CallbackURL != "http://app.test/auth/callback/a" {
		t.Fatalf("AppProviders = %+v", list)
	}
	body := ProvidersJSON([]string{"b", "a"}, flows, b)
	want := `{"a":{"id":"a","name":"A","type":"email","signinUrl":"http://app.test/auth/signin/a","callbackUrl":"http://app.test/auth/callback/a"},` +
		`"b":{"id":"b","name":"B","type":"oidc","signinUrl":"http://app.test/auth/signin/b","callbackUrl":"http://app.test/auth/callback/b"}}` + "\n"
	if string(body) != want {
		t.Fatalf("ProvidersJSON = %s\nwant %s", body, want)
	}
	delete(flows, "a") // a second call answers from the base's copy
	if again := ProvidersJSON([]string{"b", "a"}, flows, b); string(again) != want {
		t.Fatalf("encoded again: %s", again)
	}
}
