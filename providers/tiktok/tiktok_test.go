package tiktok

import (
	"context"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestConfig(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "awx1y2z3", ClientSecret: "sec"}).OAuth()
	want := providertest.Config{
		ID: "tiktok", Name: "TikTok", Type: providers.TypeOAuth,
		AuthURL:     "https://www.tiktok.com/v2/auth/authorize",
		AuthParams:  map[string]string{"scope": "user.info.basic", "client_key": "awx1y2z3"},
		TokenURL:    "https://open.tiktokapis.com/v2/oauth/token/",
		TokenParams: map[string]string{"client_key": "awx1y2z3"},
		UserinfoURL: "https://open.tiktokapis.com/v2/user/info/?fields=open_id,avatar_url,display_name",
		Checks:      []providers.Check{providers.CheckPKCE},
		AuthMethod:  providers.AuthClientSecretPost,
		Style:       providers.Style{BrandColor: "#000"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "awx1y2z3", ClientSecret: "sec"}).OAuth()
	const raw = `{
		"data": {
			"user": {
				"avatar_url": "https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b3a4f4a50993cf72cda8b88b8~c5_168x168.jpeg",
				"open_id": "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
				"union_id": "c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1",
				"display_name": "Tik Toker"
			}
		},
		"error": {"code": "ok", "message": "", "log_id": "20220829194722CBE87ED59D524E727021"}
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", Name: "Tik Toker", Image: "https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b3a4f4a50993cf72cda8b88b8~c5_168x168.jpeg"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}

func TestMapProfileError(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "awx1y2z3"}).OAuth()
	p, err := o.DecodeProfile([]byte(`{"data": {}, "error": {"code": "access_token_invalid", "message": "The access token is invalid or not found in the request.", "log_id": "202206221854370101130062072500FFA2"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.MapProfile(context.Background(), p, account.TokenSet{}); err == nil {
		t.Error("an error answer mapped without error")
	}
}
