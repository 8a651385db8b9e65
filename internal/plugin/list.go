package plugin

import (
	"encoding/json"

	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// AppProviders returns the providers as the application sees them
// (Auth.js's AppProviders): the flows of the ids in order, with their
// URLs under the base b.
func AppProviders(order []string, flows map[string]Flow, b *site.Base) []providers.AppProvider {
	out := make([]providers.AppProvider, 0, len(order))
	for _, id := range order {
		c := flows[id].Info()
		out = append(out, providers.AppProvider{ID: id, Name: c.Name, Type: c.Type, SigninURL: b.URL("signin", id), CallbackURL: b.URL("callback", id)})
	}
	return out
}

// ProvidersJSON returns the {base}/providers answer for b: AppProviders
// by id, as json.Encoder writes them (keys sorted, a final newline),
// encoded once per base (site.Base.Providers).
func ProvidersJSON(order []string, flows map[string]Flow, b *site.Base) []byte {
	if body := b.Providers.Load(); body != nil {
		return *body
	}
	list := AppProviders(order, flows, b)
	out := make(map[string]providers.AppProvider, len(list))
	for _, p := range list {
		out[p.ID] = p
	}
	body, err := json.Marshal(out)
	if err != nil {
		panic("gatehouse: the providers list does not encode: " + err.Error()) // strings only: cannot happen
	}
	body = append(body, '\n')
	b.Providers.Store(&body)
	return body
}
