package builtin

import (
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/apple"
	"github.com/gatehouse-auth/gatehouse/providers/auth0"
	"github.com/gatehouse-auth/gatehouse/providers/authentik"
	"github.com/gatehouse-auth/gatehouse/providers/azuread"
	"github.com/gatehouse-auth/gatehouse/providers/cognito"
	"github.com/gatehouse-auth/gatehouse/providers/fusionauth"
	"github.com/gatehouse-auth/gatehouse/providers/gitea"
	"github.com/gatehouse-auth/gatehouse/providers/github"
	"github.com/gatehouse-auth/gatehouse/providers/google"
	"github.com/gatehouse-auth/gatehouse/providers/keycloak"
	"github.com/gatehouse-auth/gatehouse/providers/linkedin"
	"github.com/gatehouse-auth/gatehouse/providers/microsoftentraid"
	"github.com/gatehouse-auth/gatehouse/providers/okta"
	"github.com/gatehouse-auth/gatehouse/providers/tailscale"
	"github.com/gatehouse-auth/gatehouse/providers/twitter"
	"github.com/gatehouse-auth/gatehouse/providers/yandex"
	"github.com/gatehouse-auth/gatehouse/providers/zitadel"
)

// coreEntries are the providers with special needs and the issuer-based
// OIDC providers (issue 3, part 1).
var coreEntries = []Entry{
	{providers.Apple, of(apple.New)},
	{providers.Auth0, of(auth0.New)},
	{providers.Authentik, of(authentik.New)},
	{providers.AzureAD, of(azuread.New)},
	{providers.Cognito, of(cognito.New)},
	{providers.FusionAuth, of(fusionauth.New)},
	{providers.Gitea, of(gitea.New)},
	{providers.GitHub, of(github.New)},
	{providers.Google, of(google.New)},
	{providers.Keycloak, of(keycloak.New)},
	{providers.LinkedIn, of(linkedin.New)},
	{providers.MicrosoftEntraID, of(microsoftentraid.New)},
	{providers.Okta, of(okta.New)},
	{providers.Tailscale, of(tailscale.New)},
	{providers.Twitter, of(twitter.New)},
	{providers.Yandex, of(yandex.New)},
	{providers.Zitadel, of(zitadel.New)},
}
