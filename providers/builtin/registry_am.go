package builtin

import (
	"os"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/asgardeo"
	"github.com/gatehouse-auth/gatehouse/providers/atlassian"
	"github.com/gatehouse-auth/gatehouse/providers/azureadb2c"
	"github.com/gatehouse-auth/gatehouse/providers/azuredevops"
	"github.com/gatehouse-auth/gatehouse/providers/bankidno"
	"github.com/gatehouse-auth/gatehouse/providers/battlenet"
	"github.com/gatehouse-auth/gatehouse/providers/beyondidentity"
	"github.com/gatehouse-auth/gatehouse/providers/bitbucket"
	"github.com/gatehouse-auth/gatehouse/providers/box"
	"github.com/gatehouse-auth/gatehouse/providers/boxyhqsaml"
	"github.com/gatehouse-auth/gatehouse/providers/bungie"
	"github.com/gatehouse-auth/gatehouse/providers/clickup"
	"github.com/gatehouse-auth/gatehouse/providers/coinbase"
	"github.com/gatehouse-auth/gatehouse/providers/concept2"
	"github.com/gatehouse-auth/gatehouse/providers/descope"
	"github.com/gatehouse-auth/gatehouse/providers/discord"
	"github.com/gatehouse-auth/gatehouse/providers/dribbble"
	"github.com/gatehouse-auth/gatehouse/providers/dropbox"
	"github.com/gatehouse-auth/gatehouse/providers/duendeidentityserver6"
	"github.com/gatehouse-auth/gatehouse/providers/eventbrite"
	"github.com/gatehouse-auth/gatehouse/providers/eveonline"
	"github.com/gatehouse-auth/gatehouse/providers/facebook"
	"github.com/gatehouse-auth/gatehouse/providers/faceit"
	"github.com/gatehouse-auth/gatehouse/providers/figma"
	"github.com/gatehouse-auth/gatehouse/providers/fortytwoschool"
	"github.com/gatehouse-auth/gatehouse/providers/foursquare"
	"github.com/gatehouse-auth/gatehouse/providers/freshbooks"
	"github.com/gatehouse-auth/gatehouse/providers/frontegg"
	"github.com/gatehouse-auth/gatehouse/providers/gitlab"
	"github.com/gatehouse-auth/gatehouse/providers/hubspot"
	"github.com/gatehouse-auth/gatehouse/providers/huggingface"
	"github.com/gatehouse-auth/gatehouse/providers/identityserver4"
	"github.com/gatehouse-auth/gatehouse/providers/instagram"
	"github.com/gatehouse-auth/gatehouse/providers/kakao"
	"github.com/gatehouse-auth/gatehouse/providers/kinde"
	"github.com/gatehouse-auth/gatehouse/providers/line"
	"github.com/gatehouse-auth/gatehouse/providers/logto"
)

// amEntries are the built-in providers with ids from a to m that are not
// in registry_core.go (issue 3, part 2).
var amEntries = []Entry{
	{providers.FortyTwoSchool, of(fortytwoschool.New)},
	{providers.Asgardeo, of(asgardeo.New)},
	{providers.Atlassian, of(atlassian.New)},
	{providers.AzureADB2C, of(azureadb2c.New)},
	{providers.AzureDevOps, of(azuredevops.New)},
	{providers.BankIDNo, of(bankidno.New)},
	{providers.BattleNet, of(battlenet.New)},
	{providers.BeyondIdentity, of(beyondidentity.New)},
	{providers.Bitbucket, of(bitbucket.New)},
	{providers.Box, of(box.New)},
	{providers.BoxyHQSAML, of(boxyhqsaml.New)},
	{providers.Bungie, newBungie},
	{providers.ClickUp, of(clickup.New)},
	{providers.Coinbase, of(coinbase.New)},
	{providers.Concept2, of(concept2.New)},
	{providers.Descope, of(descope.New)},
	{providers.Discord, of(discord.New)},
	{providers.Dribbble, of(dribbble.New)},
	{providers.Dropbox, of(dropbox.New)},
	{providers.DuendeIdentityServer6, of(duendeidentityserver6.New)},
	{providers.Eventbrite, of(eventbrite.New)},
	{providers.EVEOnline, of(eveonline.New)},
	{providers.Facebook, of(facebook.New)},
	{providers.Faceit, of(faceit.New)},
	{providers.Figma, of(figma.New)},
	{providers.Foursquare, of(foursquare.New)},
	{providers.FreshBooks, of(freshbooks.New)},
	{providers.Frontegg, of(frontegg.New)},
	{providers.GitLab, of(gitlab.New)},
	{providers.HubSpot, of(hubspot.New)},
	{providers.HuggingFace, of(huggingface.New)},
	{providers.IdentityServer4, of(identityserver4.New)},
	{providers.Instagram, of(instagram.New)},
	{providers.Kakao, of(kakao.New)},
	{providers.Kinde, of(kinde.New)},
	{providers.Line, of(line.New)},
	{providers.Logto, of(logto.New)},
}

// newBungie is Bungie's factory. Bungie.net needs an API key besides the
// client credentials, which Options has no field for: it is read from
// AUTH_BUNGIE_API_KEY (bungie.APIKeyEnv). Without it the provider is
// still made, and its sign-ins fail with an error naming the variable.
func newBungie(opts Options) providers.Provider {
	return bungie.NewWithAPIKey(os.Getenv(bungie.APIKeyEnv), userConfig[bungie.Profile](opts))
}
