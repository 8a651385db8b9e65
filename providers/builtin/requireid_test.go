package builtin

import (
	"context"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// TestEveryMappingRequiresAnID maps an empty profile with every built-in
// OAuth and OpenID Connect provider: each must refuse it rather than give
// a user without an id.
func TestEveryMappingRequiresAnID(t *testing.T) {
	for _, id := range IDs() {
		factory, _ := Lookup(id)
		op, ok := factory(Options{ClientID: "cid", ClientSecret: "secret", Issuer: "https://issuer.example"}).(providers.OAuthProvider)
		if !ok {
			continue // e-mail and credentials providers map no profile
		}
		o := op.OAuth()
		p, err := o.DecodeProfile([]byte("{}"))
		if err != nil {
			t.Errorf("%s: DecodeProfile({}): %v", id, err)
			continue
		}
		if u, err := o.MapProfile(context.Background(), p, account.TokenSet{}); err == nil {
			t.Errorf("%s: an empty profile maps to %+v, want an error", id, u)
		}
	}
}
