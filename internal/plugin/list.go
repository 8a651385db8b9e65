package plugin

import (
	"encoding/json"
	"fmt"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
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

// Build returns the flows of the configured providers, by id and in
// configuration order, each made by newFlow from the provider resolved
// (providers.Resolve). A nil provider, and an id used twice (the
// configured one, or the default a provider's flow fills in), are
// configuration errors.
func Build(list []providers.Provider, newFlow func(providers.Provider) (Flow, error)) (order []string, flows map[string]Flow, err error) {
	flows = make(map[string]Flow, len(list))
	for i, p := range list {
		p = providers.Resolve(p)
		if p == nil {
			return nil, nil, &autherr.ConfigError{Provider: fmt.Sprint(i), Field: "Providers", Reason: "is nil"}
		}
		id := p.ProviderBase().ID
		if _, dup := flows[id]; dup {
			return nil, nil, &autherr.ConfigError{Provider: id, Field: "id", Reason: "is used by two providers"}
		}
		f, err := newFlow(p)
		if err != nil {
			return nil, nil, err
		}
		// A provider's id is its configured one, or its default (an
		// OAuth provider's Validate may fill it in).
		id = f.Info().ID
		if _, dup := flows[id]; dup {
			return nil, nil, &autherr.ConfigError{Provider: id, Field: "id", Reason: "is used by two providers"}
		}
		flows[id] = f
		order = append(order, id)
	}
	return order, flows, nil
}
