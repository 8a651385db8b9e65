package providers

import "slices"

// OAuthProviderType is the id of a built-in provider (spec §2.7): a
// closed enumeration of lower-case ids, some with hyphens. Besides the
// OAuth 2.0 and OpenID Connect providers it holds the e-mail, credentials
// and passkey provider ids, as Auth.js's enumeration does.
type OAuthProviderType string

// The built-in OAuth 2.0 and OpenID Connect provider ids of Auth.js.
const (
	FortyTwoSchool        OAuthProviderType = "42-school"
	Apple                 OAuthProviderType = "apple"
	Asgardeo              OAuthProviderType = "asgardeo"
	Atlassian             OAuthProviderType = "atlassian"
	Auth0                 OAuthProviderType = "auth0"
	Authentik             OAuthProviderType = "authentik"
	AzureAD               OAuthProviderType = "azure-ad" // alias of MicrosoftEntraID
	AzureADB2C            OAuthProviderType = "azure-ad-b2c"
	AzureDevOps           OAuthProviderType = "azure-devops"
	BankIDNo              OAuthProviderType = "bankid-no"
	BattleNet             OAuthProviderType = "battlenet"
	BeyondIdentity        OAuthProviderType = "beyondidentity"
	Bitbucket             OAuthProviderType = "bitbucket"
	Box                   OAuthProviderType = "box"
	BoxyHQSAML            OAuthProviderType = "boxyhq-saml"
	Bungie                OAuthProviderType = "bungie"
	ClickUp               OAuthProviderType = "click-up"
	Cognito               OAuthProviderType = "cognito"
	Coinbase              OAuthProviderType = "coinbase"
	Concept2              OAuthProviderType = "concept2"
	Descope               OAuthProviderType = "descope"
	Discord               OAuthProviderType = "discord"
	Dribbble              OAuthProviderType = "dribbble"
	Dropbox               OAuthProviderType = "dropbox"
	DuendeIdentityServer6 OAuthProviderType = "duende-identity-server6"
	Eventbrite            OAuthProviderType = "eventbrite"
	EVEOnline             OAuthProviderType = "eveonline"
	Facebook              OAuthProviderType = "facebook"
	Faceit                OAuthProviderType = "faceit"
	Figma                 OAuthProviderType = "figma"
	Foursquare            OAuthProviderType = "foursquare"
	FreshBooks            OAuthProviderType = "freshbooks"
	Frontegg              OAuthProviderType = "frontegg"
	FusionAuth            OAuthProviderType = "fusionauth"
	GitHub                OAuthProviderType = "github"
	GitLab                OAuthProviderType = "gitlab"
	Google                OAuthProviderType = "google"
	HubSpot               OAuthProviderType = "hubspot"
	HuggingFace           OAuthProviderType = "huggingface"
	Hydra                 OAuthProviderType = "hydra" // Ory Hydra
	IdentityServer4       OAuthProviderType = "identity-server4"
	Instagram             OAuthProviderType = "instagram"
	Kakao                 OAuthProviderType = "kakao"
	Keycloak              OAuthProviderType = "keycloak"
	Kinde                 OAuthProviderType = "kinde"
	Line                  OAuthProviderType = "line"
	LinkedIn              OAuthProviderType = "linkedin"
	Logto                 OAuthProviderType = "logto"
	Mailchimp             OAuthProviderType = "mailchimp"
	MailRu                OAuthProviderType = "mailru"
	Mastodon              OAuthProviderType = "mastodon"
	Mattermost            OAuthProviderType = "mattermost"
	Medium                OAuthProviderType = "medium"
	MicrosoftEntraID      OAuthProviderType = "microsoft-entra-id"
	Naver                 OAuthProviderType = "naver"
	Netlify               OAuthProviderType = "netlify"
	NetSuite              OAuthProviderType = "netsuite"
	Nextcloud             OAuthProviderType = "nextcloud"
	Notion                OAuthProviderType = "notion"
	Okta                  OAuthProviderType = "okta"
	OneLogin              OAuthProviderType = "onelogin"
	Osso                  OAuthProviderType = "osso"
	Osu                   OAuthProviderType = "osu"
	Passage               OAuthProviderType = "passage"
	Patreon               OAuthProviderType = "patreon"
	PingID                OAuthProviderType = "ping-id"
	Pinterest             OAuthProviderType = "pinterest"
	Pipedrive             OAuthProviderType = "pipedrive"
	Reddit                OAuthProviderType = "reddit"
	Roblox                OAuthProviderType = "roblox"
	Salesforce            OAuthProviderType = "salesforce"
	SimpleLogin           OAuthProviderType = "simplelogin"
	Slack                 OAuthProviderType = "slack"
	Spotify               OAuthProviderType = "spotify"
	Strava                OAuthProviderType = "strava"
	Threads               OAuthProviderType = "threads"
	TikTok                OAuthProviderType = "tiktok"
	Todoist               OAuthProviderType = "todoist"
	Trakt                 OAuthProviderType = "trakt"
	Twitch                OAuthProviderType = "twitch"
	Twitter               OAuthProviderType = "twitter"
	UnitedEffects         OAuthProviderType = "united-effects"
	Vipps                 OAuthProviderType = "vipps"
	VK                    OAuthProviderType = "vk"
	Webex                 OAuthProviderType = "webex"
	WeChat                OAuthProviderType = "wechat"
	Wikimedia             OAuthProviderType = "wikimedia"
	WordPress             OAuthProviderType = "wordpress"
	WorkOS                OAuthProviderType = "workos"
	Yandex                OAuthProviderType = "yandex"
	Zitadel               OAuthProviderType = "zitadel"
	Zoho                  OAuthProviderType = "zoho"
	Zoom                  OAuthProviderType = "zoom"
)

// OAuth 2.0 and OpenID Connect provider ids that Gatehouse adds to those of
// Auth.js.
const (
	Amazon    OAuthProviderType = "amazon"
	Gitea     OAuthProviderType = "gitea"
	Shopify   OAuthProviderType = "shopify"
	Tailscale OAuthProviderType = "tailscale"
	Yahoo     OAuthProviderType = "yahoo"
)

// The built-in e-mail (magic link) provider ids.
const (
	Nodemailer   OAuthProviderType = "nodemailer"
	Email        OAuthProviderType = "email"
	Resend       OAuthProviderType = "resend"
	SendGrid     OAuthProviderType = "sendgrid"
	Postmark     OAuthProviderType = "postmark"
	Mailgun      OAuthProviderType = "mailgun"
	ForwardEmail OAuthProviderType = "forwardemail"
	Loops        OAuthProviderType = "loops"
)

// The built-in credentials and passkey provider ids.
const (
	Credentials OAuthProviderType = "credentials"
	WebAuthn    OAuthProviderType = "webauthn"
	Passkey     OAuthProviderType = "passkey"
)

// notOAuth are the ids of the enumeration that name e-mail, credentials
// or passkey providers.
var notOAuth = []OAuthProviderType{
	Nodemailer, Email, Resend, SendGrid, Postmark, Mailgun, ForwardEmail, Loops,
	Credentials, WebAuthn, Passkey,
}

// allProviderTypes is the closed list, in no particular order;
// AllOAuthProviderTypes sorts a copy.
var allProviderTypes = []OAuthProviderType{
	FortyTwoSchool, Apple, Asgardeo, Atlassian, Auth0, Authentik, AzureAD,
	AzureADB2C, AzureDevOps, BankIDNo, BattleNet, BeyondIdentity, Bitbucket,
	Box, BoxyHQSAML, Bungie, ClickUp, Cognito, Coinbase, Concept2, Descope,
	Discord, Dribbble, Dropbox, DuendeIdentityServer6, Eventbrite, EVEOnline,
	Facebook, Faceit, Figma, Foursquare, FreshBooks, Frontegg, FusionAuth,
	GitHub, GitLab, Google, HubSpot, HuggingFace, Hydra, IdentityServer4,
	Instagram, Kakao, Keycloak, Kinde, Line, LinkedIn, Logto, Mailchimp,
	MailRu, Mastodon, Mattermost, Medium, MicrosoftEntraID, Naver, Netlify,
	NetSuite, Nextcloud, Notion, Okta, OneLogin, Osso, Osu, Passage, Patreon,
	PingID, Pinterest, Pipedrive, Reddit, Roblox, Salesforce, SimpleLogin,
	Slack, Spotify, Strava, Threads, TikTok, Todoist, Trakt, Twitch, Twitter,
	UnitedEffects, Vipps, VK, Webex, WeChat, Wikimedia, WordPress, WorkOS,
	Yandex, Zitadel, Zoho, Zoom,

	Amazon, Gitea, Shopify, Tailscale, Yahoo,

	Nodemailer, Email, Resend, SendGrid, Postmark, Mailgun, ForwardEmail, Loops,
	Credentials, WebAuthn, Passkey,
}

// AllOAuthProviderTypes returns every built-in provider id, sorted. The
// slice is a fresh copy on each call.
func AllOAuthProviderTypes() []OAuthProviderType {
	all := slices.Clone(allProviderTypes)
	slices.Sort(all)
	return all
}

// Valid reports whether t is one of the built-in provider ids.
func (t OAuthProviderType) Valid() bool {
	return slices.Contains(allProviderTypes, t)
}

// IsOAuth reports whether t is the id of a built-in OAuth 2.0 or OpenID
// Connect provider, rather than of an e-mail, credentials or passkey one.
func (t OAuthProviderType) IsOAuth() bool {
	return t.Valid() && !slices.Contains(notOAuth, t)
}
