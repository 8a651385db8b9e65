package providers

import (
	"fmt"
	"testing"
)

// UsesChecks must answer as EffectiveChecks does, for every kind of
// configuration.
func TestUsesChecks(t *testing.T) {
	configured := [][]Check{nil, {CheckPKCE}, {CheckState}, {CheckNonce}, {CheckNone}, {CheckPKCE, CheckNonce}, {CheckPKCE, CheckState, CheckNonce}}
	for _, typ := range []ProviderType{TypeOAuth, TypeOIDC} {
		for _, cs := range configured {
			for _, proxied := range []bool{false, true} {
				o := &OAuth{Base: Base{Type: typ}, Checks: cs}
				name := fmt.Sprintf("%s/%v/proxied=%v", typ, cs, proxied)
				want := o.EffectiveChecks(proxied)
				pkce, state, nonce := o.UsesChecks(proxied)
				if pkce != Has(want, CheckPKCE) || state != Has(want, CheckState) || nonce != Has(want, CheckNonce) {
					t.Errorf("%s: UsesChecks = %v %v %v, EffectiveChecks = %v", name, pkce, state, nonce, want)
				}
			}
		}
	}
}
