package roblox

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestConfig(t *testing.T) {
	o := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	want := providertest.Config{
		ID: "roblox", Name: "Roblox", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid profile"},
		Issuer:     "https://apis.roblox.com/oauth/",
		Checks:     []providers.Check{providers.CheckPKCE, providers.CheckState},
		Style:      providers.Style{BrandColor: "#5865F2"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"sub": "1516563360",
		"name": "exampleuser",
		"nickname": "exampleuser",
		"preferred_username": "exampleuser",
		"created_at": 1584059137,
		"profile": "https://www.roblox.com/users/1516563360/profile",
		"picture": "https://tr.rbxcdn.com/30DAY-AvatarHeadshot-0A0B0C/150/150/AvatarHeadshot/Png/noFilter",
		"iss": "https://apis.roblox.com/oauth/",
		"aud": "cid"
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	got.EmailVerified = nil
	want := profile.User{ID: "1516563360", Name: "exampleuser", Image: "https://tr.rbxcdn.com/30DAY-AvatarHeadshot-0A0B0C/150/150/AvatarHeadshot/Png/noFilter"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
