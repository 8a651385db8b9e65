package builtin

import (
	"os"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/bungie"
)

// newBungie is Bungie's factory. Bungie.net needs an API key besides the
// client credentials, which Options has no field for: it is read from
// AUTH_BUNGIE_API_KEY (bungie.APIKeyEnv). Without it the provider is
// still made, and its sign-ins fail with an error naming the variable.
func newBungie(opts Options) providers.Provider {
	return bungie.NewWithAPIKey(os.Getenv(bungie.APIKeyEnv), userConfig[bungie.Profile](opts))
}
