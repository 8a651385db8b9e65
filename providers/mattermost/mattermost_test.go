package mattermost

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestConfig(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec", Issuer: "https://chat.example.com/"}).OAuth()
	want := providertest.Config{
		ID: "mattermost", Name: "Mattermost", Type: providers.TypeOAuth,
		AuthURL:     "https://chat.example.com/oauth/authorize",
		TokenURL:    "https://chat.example.com/oauth/access_token",
		UserinfoURL: "https://chat.example.com/api/v4/users/me",
		Issuer:      "https://chat.example.com/",
		Checks:      []providers.Check{providers.CheckPKCE},
		AuthMethod:  providers.AuthClientSecretPost,
		Style:       providers.Style{BrandColor: "#000"},
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if err := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth().Validate(); err == nil {
		t.Error("Validate accepts a Mattermost provider without an issuer")
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", Issuer: "https://chat.example.com"}).OAuth()
	tests := []struct {
		name, raw string
		want      profile.User
	}{
		{"username", `{
			"id": "9p4bd1q6ybyxjrmf8ed3wzuhxo",
			"create_at": 1700000000000, "update_at": 1700000500000, "delete_at": 0,
			"username": "jane.doe", "auth_data": "", "auth_service": "",
			"email": "jane@example.com", "email_verified": true,
			"nickname": "JD", "first_name": "Jane", "last_name": "Doe",
			"position": "Engineer", "roles": "system_user", "locale": "en"
		}`, profile.User{ID: "9p4bd1q6ybyxjrmf8ed3wzuhxo", Name: "jane.doe", Email: "jane@example.com"}},
		{"no username", `{
			"id": "f1oz3ddzbtr7zyz3rhe1oz7pxe",
			"username": "", "email": "sam@example.com",
			"first_name": "Sam", "last_name": "Smith"
		}`, profile.User{ID: "f1oz3ddzbtr7zyz3rhe1oz7pxe", Name: "Sam Smith", Email: "sam@example.com"}},
	}
	for _, tt := range tests {
		if got := providertest.MapJSON(t, o, tt.raw, account.TokenSet{}); got != tt.want {
			t.Errorf("%s: user = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
