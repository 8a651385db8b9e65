package wechat

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
)

func TestExchange(t *testing.T) {
	var query url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.Header.Get("Authorization") != "" {
			t.Errorf("request = %s %v", r.Method, r.Header)
		}
		query = r.URL.Query()
		w.Header().Set("Content-Type", "application/json")
		if query.Get("code") == "used" {
			w.Write([]byte(`{"errcode":40163,"errmsg":"code been used"}`))
			return
		}
		w.Write([]byte(`{"access_token":"ACCESS_TOKEN","expires_in":7200,"refresh_token":"REFRESH_TOKEN","openid":"oLVPpjqs9BhvzwPj5A-vTYAX3GLc","scope":"snsapi_userinfo","unionid":"o6_bmasdasdsad6_2sgVt7hMZOPfL"}`))
	}))
	defer srv.Close()
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "wxapp", ClientSecret: "sec", Token: providers.TokenEndpoint{URL: srv.URL + "/sns/oauth2/access_token"}}).OAuth()
	req := providers.TokenRequest{Code: "c0de", ClientID: "wxapp", ClientSecret: "sec", URL: o.Token.URL, HTTPClient: srv.Client()}
	tok, err := o.Token.Request(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	wantQuery := url.Values{"appid": {"wxapp"}, "secret": {"sec"}, "code": {"c0de"}, "grant_type": {"authorization_code"}}
	if !reflect.DeepEqual(query, wantQuery) {
		t.Errorf("query = %v, want %v", query, wantQuery)
	}
	if tok.AccessToken != "ACCESS_TOKEN" || tok.TokenType != "bearer" || tok.ExpiresAt == 0 || tok.Extra["openid"] != "oLVPpjqs9BhvzwPj5A-vTYAX3GLc" {
		t.Errorf("tokens = %+v", tok)
	}
	req.Code = "used"
	if _, err := o.Token.Request(context.Background(), req); err == nil {
		t.Error("an errcode answer gave no error")
	}
}

func TestUserinfo(t *testing.T) {
	answer := `{
		"openid": "oLVPpjqs9BhvzwPj5A-vTYAX3GLc",
		"nickname": "张三",
		"sex": 1,
		"province": "广东",
		"city": "深圳",
		"country": "中国",
		"headimgurl": "https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/46",
		"privilege": ["PRIVILEGE1", "PRIVILEGE2"],
		"unionid": "o6_bmasdasdsad6_2sgVt7hMZOPfL"
	}`
	var query url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		query = r.URL.Query()
		if r.Header.Get("Authorization") != "" {
			t.Errorf("authorization header = %q; WeChat wants the token in the query", r.Header.Get("Authorization"))
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(answer))
	}))
	defer srv.Close()
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "wxapp", Userinfo: providers.UserinfoEndpoint[Profile]{URL: srv.URL + "/sns/userinfo"}}).OAuth()
	tokens := account.TokenSet{AccessToken: "ACCESS_TOKEN", Extra: map[string]any{"openid": "oLVPpjqs9BhvzwPj5A-vTYAX3GLc"}}
	req := providers.UserinfoRequest{Tokens: tokens, URL: o.UserinfoURL, HTTPClient: srv.Client()}
	p, err := o.UserinfoRequest(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	wantQuery := url.Values{"access_token": {"ACCESS_TOKEN"}, "openid": {"oLVPpjqs9BhvzwPj5A-vTYAX3GLc"}, "lang": {"zh_CN"}}
	if !reflect.DeepEqual(query, wantQuery) {
		t.Errorf("query = %v, want %v", query, wantQuery)
	}
	got, err := o.MapProfile(context.Background(), p, tokens)
	if err != nil {
		t.Fatal(err)
	}
	want := profile.User{
		ID: "o6_bmasdasdsad6_2sgVt7hMZOPfL", Name: "张三",
		Image: "https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/46",
	}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}

	answer = `{"errcode":40003,"errmsg":"invalid openid"}`
	if _, err := o.UserinfoRequest(context.Background(), req); err == nil {
		t.Error("an errcode answer gave no error")
	}
	req.Tokens.Extra = nil
	if _, err := o.UserinfoRequest(context.Background(), req); err == nil {
		t.Error("a token set without openid gave no error")
	}
}
