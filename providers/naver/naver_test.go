package naver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
)

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
