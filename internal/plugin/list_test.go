package plugin

import (
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
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

// prov is a provider whose flow takes the id def when it has none, as an
// OAuth provider's default id.
type prov struct{ id, def string }

func (p prov) ProviderBase() providers.Base { return providers.Base{ID: p.id} }

// Build keeps the configuration order, resolves provider functions, and
// refuses a nil provider, an id used twice and a default id that another
// provider has, naming the provider; a flow's error is returned as is.
func TestBuild(t *testing.T) {
	newFlow := func(p providers.Provider) (Flow, error) {
		pr := p.(prov)
		if pr.id == "broken" {
			return nil, errors.New("broken")
		}
		if pr.id == "" {
			pr.id = pr.def
		}
		return infoFlow{info: providers.Base{ID: pr.id}}, nil
	}
	order, flows, err := Build([]providers.Provider{prov{id: "b"}, providers.Func(func() providers.Provider { return prov{def: "a"} })}, newFlow)
	if err != nil || len(order) != 2 || order[0] != "b" || order[1] != "a" || flows["a"] == nil {
		t.Fatalf("Build = %v, %v, %v", order, flows, err)
	}
	for _, c := range []struct {
		list            []providers.Provider
		provider, field string
	}{
		{[]providers.Provider{prov{id: "a"}, nil}, "1", "Providers"},
		{[]providers.Provider{prov{id: "a"}, prov{id: "a"}}, "a", "id"},
		{[]providers.Provider{prov{id: "a"}, prov{def: "a"}}, "a", "id"},
	} {
		_, _, err := Build(c.list, newFlow)
		var ce *autherr.ConfigError
		if !errors.As(err, &ce) || ce.Provider != c.provider || ce.Field != c.field {
			t.Errorf("Build(%v) = %v, want a ConfigError on %s of %s", c.list, err, c.field, c.provider)
		}
	}
	if _, _, err := Build([]providers.Provider{prov{id: "broken"}}, newFlow); err == nil || err.Error() != "broken" {
		t.Fatalf("a flow's error: %v", err)
	}
}
