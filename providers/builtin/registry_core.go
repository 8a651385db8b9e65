package builtin

import (
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/apple"
	azuread "github.com/gatehouse-auth/gatehouse/providers/azure-ad"
	"github.com/gatehouse-auth/gatehouse/providers/github"
	"github.com/gatehouse-auth/gatehouse/providers/linkedin"
	microsoftentraid "github.com/gatehouse-auth/gatehouse/providers/microsoft-entra-id"
	"github.com/gatehouse-auth/gatehouse/providers/twitter"
	"github.com/gatehouse-auth/gatehouse/providers/yandex"
)

// coreEntries are the providers with special needs and the issuer-based
// OIDC providers (issue 3, part 1).
var coreEntries = []Entry{
	{providers.Apple, of(apple.New)},
	{providers.AzureAD, of(azuread.New)},
	{providers.GitHub, of(github.New)},
	{providers.LinkedIn, of(linkedin.New)},
	{providers.MicrosoftEntraID, of(microsoftentraid.New)},
	{providers.Twitter, of(twitter.New)},
	{providers.Yandex, of(yandex.New)},
}
