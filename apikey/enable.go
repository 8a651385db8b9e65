package apikey

import (
	"github.com/gatehouse-auth/gatehouse/internal/keyflow"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
)

// Enable turns machine access on with c, for
// gatehouse.Config.MachineAccess: API keys ({base}/api-keys, and keys
// the Middleware reads: gatehouse.APIKeyFrom) and, with c.Tokens, signed
// access tokens for other services ({base}/token and {base}/jwks).
//
//	MachineAccess: apikey.Enable(apikey.Config{Prefix: "myapp"})
//
// A program that never calls it links none of the routes' code nor the
// token signer. The Adapter must be a Store (and a
// servicetoken.KeyStore with Tokens), as the built-in ones are.
func Enable(c Config) *Feature { return &Feature{config: c} }

// Feature is machine access turned on: what Enable returns.
type Feature struct{ config Config }

// NewMachineAccess builds the routes for a Handler; gatehouse.New calls
// it.
func (f *Feature) NewMachineAccess(e *plugin.FeatureEnv) (plugin.MachineAccess, error) {
	return keyflow.FromEnv(f.config, e)
}
