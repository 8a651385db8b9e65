package tiktok

import (
	"context"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/providers"
)

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
