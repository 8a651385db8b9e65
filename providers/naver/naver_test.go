package naver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestConfig(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	want := providertest.Config{
		ID: "naver", Name: "Naver", Type: providers.TypeOAuth,
		AuthURL:      "https://nid.naver.com/oauth2.0/authorize",
		TokenURL:     "https://nid.naver.com/oauth2.0/token",
		UserinfoURL:  "https://openapi.naver.com/v1/nid/me",
		Checks:       []providers.Check{providers.CheckState},
		AuthMethod:   providers.AuthClientSecretPost,
		TokenRequest: true,
	}
	providertest.CheckConfig(t, o, want)
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestExchange(t *testing.T) {
	var form url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			t.Errorf("method = %s", r.Method)
		}
		r.ParseForm()
		form = r.PostForm
		w.Header().Set("Content-Type", "application/json")
		if r.PostForm.Get("code") == "bad" {
			w.Write([]byte(`{"error":"invalid_request","error_description":"no valid data in session"}`))
			return
		}
		w.Write([]byte(`{"access_token":"AAAAQosjWDJieBiQZc3to9YQp6HDLvrmyKC","refresh_token":"c8ceMEJisO4Se7uGisHoX","token_type":"bearer","expires_in":"3600"}`))
	}))
	defer srv.Close()

	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec", Token: providers.TokenEndpoint{URL: srv.URL}}).OAuth()
	req := providers.TokenRequest{
		Code: "good", ClientID: "cid", ClientSecret: "sec", URL: o.Token.URL,
		Params: url.Values{"code": {"good"}, "state": {"st4te"}}, HTTPClient: srv.Client(),
	}
	tok, err := o.Token.Request(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if tok.AccessToken != "AAAAQosjWDJieBiQZc3to9YQp6HDLvrmyKC" || tok.RefreshToken != "c8ceMEJisO4Se7uGisHoX" || tok.ExpiresAt == 0 {
		t.Errorf("tokens = %+v", tok)
	}
	wantForm := url.Values{
		"grant_type": {"authorization_code"}, "client_id": {"cid"}, "client_secret": {"sec"},
		"code": {"good"}, "state": {"st4te"},
	}
	if !reflect.DeepEqual(form, wantForm) {
		t.Errorf("form = %v, want %v", form, wantForm)
	}

	req.Code = "bad"
	if _, err := o.Token.Request(context.Background(), req); err == nil {
		t.Error("an error answer gave no error")
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"resultcode": "00",
		"message": "success",
		"response": {
			"id": "32742776",
			"nickname": "OpenAPI",
			"name": "오픈 API",
			"email": "openapi@naver.com",
			"gender": "F",
			"age": "40-49",
			"birthday": "10-01",
			"profile_image": "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif",
			"birthyear": "1900",
			"mobile": "010-0000-0000"
		}
	}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{
		ID: "32742776", Name: "OpenAPI", Email: "openapi@naver.com",
		Image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif",
	}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}

	p, _ := o.DecodeProfile([]byte(`{"resultcode":"024","message":"Authentication failed"}`))
	if _, err := o.MapProfile(context.Background(), p, account.TokenSet{}); err == nil {
		t.Error("a failed profile answer mapped without error")
	}
}
