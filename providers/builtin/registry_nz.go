package builtin

import (
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/amazon"
	"github.com/gatehouse-auth/gatehouse/providers/hydra"
	"github.com/gatehouse-auth/gatehouse/providers/mailchimp"
	"github.com/gatehouse-auth/gatehouse/providers/mailru"
	"github.com/gatehouse-auth/gatehouse/providers/mastodon"
	"github.com/gatehouse-auth/gatehouse/providers/mattermost"
	"github.com/gatehouse-auth/gatehouse/providers/medium"
	"github.com/gatehouse-auth/gatehouse/providers/naver"
	"github.com/gatehouse-auth/gatehouse/providers/netlify"
	"github.com/gatehouse-auth/gatehouse/providers/netsuite"
	"github.com/gatehouse-auth/gatehouse/providers/nextcloud"
	"github.com/gatehouse-auth/gatehouse/providers/notion"
	"github.com/gatehouse-auth/gatehouse/providers/onelogin"
	"github.com/gatehouse-auth/gatehouse/providers/osso"
	"github.com/gatehouse-auth/gatehouse/providers/osu"
	"github.com/gatehouse-auth/gatehouse/providers/passage"
	"github.com/gatehouse-auth/gatehouse/providers/patreon"
	"github.com/gatehouse-auth/gatehouse/providers/pingid"
	"github.com/gatehouse-auth/gatehouse/providers/pinterest"
	"github.com/gatehouse-auth/gatehouse/providers/pipedrive"
	"github.com/gatehouse-auth/gatehouse/providers/reddit"
	"github.com/gatehouse-auth/gatehouse/providers/roblox"
	"github.com/gatehouse-auth/gatehouse/providers/salesforce"
	"github.com/gatehouse-auth/gatehouse/providers/shopify"
	"github.com/gatehouse-auth/gatehouse/providers/simplelogin"
	"github.com/gatehouse-auth/gatehouse/providers/slack"
	"github.com/gatehouse-auth/gatehouse/providers/spotify"
	"github.com/gatehouse-auth/gatehouse/providers/strava"
	"github.com/gatehouse-auth/gatehouse/providers/threads"
	"github.com/gatehouse-auth/gatehouse/providers/tiktok"
	"github.com/gatehouse-auth/gatehouse/providers/todoist"
	"github.com/gatehouse-auth/gatehouse/providers/trakt"
	"github.com/gatehouse-auth/gatehouse/providers/twitch"
	"github.com/gatehouse-auth/gatehouse/providers/unitedeffects"
	"github.com/gatehouse-auth/gatehouse/providers/vipps"
	"github.com/gatehouse-auth/gatehouse/providers/vk"
	"github.com/gatehouse-auth/gatehouse/providers/webex"
	"github.com/gatehouse-auth/gatehouse/providers/wechat"
	"github.com/gatehouse-auth/gatehouse/providers/wikimedia"
	"github.com/gatehouse-auth/gatehouse/providers/wordpress"
	"github.com/gatehouse-auth/gatehouse/providers/workos"
	"github.com/gatehouse-auth/gatehouse/providers/yahoo"
	"github.com/gatehouse-auth/gatehouse/providers/zoho"
	"github.com/gatehouse-auth/gatehouse/providers/zoom"
)

// nzEntries are the built-in providers of the third part of issue 3: the
// Auth.js ids from mailchimp to zoom that are not in registry_core.go,
// and Gatehouse's additions Amazon, Shopify and Yahoo. Options.Issuer is
// the base URL for the self-hosted ones (Mastodon, Mattermost, Nextcloud,
// Osso), the account ID for NetSuite and the shop for Shopify.
var nzEntries = []Entry{
	{providers.Amazon, of(amazon.New)},
	{providers.Hydra, of(hydra.New)},
	{providers.Mailchimp, of(mailchimp.New)},
	{providers.MailRu, of(mailru.New)},
	{providers.Mastodon, of(mastodon.New)},
	{providers.Mattermost, of(mattermost.New)},
	{providers.Medium, of(medium.New)},
	{providers.Naver, of(naver.New)},
	{providers.Netlify, of(netlify.New)},
	{providers.NetSuite, of(netsuite.New)},
	{providers.Nextcloud, of(nextcloud.New)},
	{providers.Notion, of(notion.New)},
	{providers.OneLogin, of(onelogin.New)},
	{providers.Osso, of(osso.New)},
	{providers.Osu, of(osu.New)},
	{providers.Passage, of(passage.New)},
	{providers.Patreon, of(patreon.New)},
	{providers.PingID, of(pingid.New)},
	{providers.Pinterest, of(pinterest.New)},
	{providers.Pipedrive, of(pipedrive.New)},
	{providers.Reddit, of(reddit.New)},
	{providers.Roblox, of(roblox.New)},
	{providers.Salesforce, of(salesforce.New)},
	{providers.Shopify, of(shopify.New)},
	{providers.SimpleLogin, of(simplelogin.New)},
	{providers.Slack, of(slack.New)},
	{providers.Spotify, of(spotify.New)},
	{providers.Strava, of(strava.New)},
	{providers.Threads, of(threads.New)},
	{providers.TikTok, of(tiktok.New)},
	{providers.Todoist, of(todoist.New)},
	{providers.Trakt, of(trakt.New)},
	{providers.Twitch, of(twitch.New)},
	{providers.UnitedEffects, of(unitedeffects.New)},
	{providers.Vipps, of(vipps.New)},
	{providers.VK, of(vk.New)},
	{providers.Webex, of(webex.New)},
	{providers.WeChat, of(wechat.New)},
	{providers.Wikimedia, of(wikimedia.New)},
	{providers.WordPress, of(wordpress.New)},
	{providers.WorkOS, of(workos.New)},
	{providers.Yahoo, of(yahoo.New)},
	{providers.Zoho, of(zoho.New)},
	{providers.Zoom, of(zoom.New)},
}
