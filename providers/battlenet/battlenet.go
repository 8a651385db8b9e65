// Package battlenet is the built-in Battle.net provider (OpenID Connect,
// Blizzard). The application picks the issuer of its region, one of the
// Issuer constants; the endpoints come from discovery. Battle.net shares
// no e-mail address or picture: the user is their account id and
// BattleTag.
//
//	p := battlenet.New(providers.OIDCUserConfig[battlenet.Profile]{
//		ClientID:     os.Getenv("AUTH_BATTLENET_ID"),
//		ClientSecret: os.Getenv("AUTH_BATTLENET_SECRET"),
//		Issuer:       battlenet.IssuerGlobal,
//	})
package battlenet

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "battlenet"
	// Name is the display name.
	Name = "Battle.net"
	// Scope asks for an ID token (Auth.js also sends profile and email,
	// which Battle.net ignores).
	Scope = "openid profile email"
)

// The Battle.net issuers; set one as the Issuer option.
const (
	IssuerGlobal = "https://oauth.battle.net"           // all regions but China
	IssuerChina  = "https://oauth.battlenet.com.cn"     // China
	IssuerCN     = "https://www.battlenet.com.cn/oauth" // China, older host
	IssuerUS     = "https://us.battle.net/oauth"        // Americas, regional host
	IssuerEU     = "https://eu.battle.net/oauth"        // Europe, regional host
	IssuerKR     = "https://kr.battle.net/oauth"        // Korea, regional host
	IssuerTW     = "https://tw.battle.net/oauth"        // Taiwan, regional host
)

// Profile is the claims of a Battle.net ID token.
type Profile struct {
	// Sub is the user's account id.
	Sub string `json:"sub"`
	// BattleTag is the user's BattleTag, e.g. "Jaina#1234".
	BattleTag string `json:"battle_tag"`
	// Iss is the token's issuer.
	Iss string `json:"iss,omitempty"`
	// Aud is the client id the token is for.
	Aud string `json:"aud,omitempty"`
	// Azp is the authorized party, the client id.
	Azp string `json:"azp,omitempty"`
	// AtHash is the access token's hash.
	AtHash string `json:"at_hash,omitempty"`
	// Exp is when the token expires, in seconds since the epoch.
	Exp int64 `json:"exp,omitempty"`
	// Iat is when the token was issued, in seconds since the epoch.
	Iat int64 `json:"iat,omitempty"`
	// JTI is the token's unique id.
	JTI string `json:"jti,omitempty"`
}

// New returns the Battle.net provider configuration with opts laid over
// its defaults by providers.Merge. opts.Issuer is required (one of
// the Issuer constants): without it the configuration is incomplete and gatehouse.New
// reports so.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the configuration before any user option: the scope,
// the default checks, MapProfile and the button style.
func Defaults() providers.OIDCConfig[Profile] {
	return providers.OIDCWith(ID, Name, Scope, providers.Style{BrandColor: "#148eff"}, MapProfile)
}

// MapProfile maps Battle.net claims to a user: id ← sub, name ←
// battle_tag, no e-mail, no image.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: p.Sub, Name: p.BattleTag}, ID, "claims have no sub")
}
