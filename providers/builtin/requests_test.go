package builtin

import (
	"cmp"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/azuredevops"
	"github.com/gatehouse-auth/gatehouse/providers/bungie"
	"github.com/gatehouse-auth/gatehouse/providers/foursquare"
	"github.com/gatehouse-auth/gatehouse/providers/naver"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
	"github.com/gatehouse-auth/gatehouse/providers/reddit"
	"github.com/gatehouse-auth/gatehouse/providers/wechat"
)

// exchange is a request a provider must send to its stand-in server, and
// the server's answer.
type exchange struct {
	method string            // "" for GET
	path   string            // the escaped path; "" for the path of the URL the case gives
	header map[string]string // headers the request must carry; "" for one it must not
	query  url.Values        // the whole query, when not nil
	form   url.Values        // the whole form body, when not nil; nil: no body
	answer string            // JSON
	status int               // 0 for 200
}

// server is a stand-in provider: it checks each request against the
// exchange of the running case and answers it.
type server struct {
	*httptest.Server
	t  *testing.T
	ex exchange
}

func newServer(t *testing.T) *server {
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// expect makes ex, for a URL with defaultPath, the exchange of the case
// t runs.
func (s *server) expect(t *testing.T, ex exchange, defaultPath string) {
	s.t, s.ex = t, ex
	if s.ex.path == "" {
		s.ex.path, _, _ = strings.Cut(defaultPath, "?")
	}
}

func (s *server) serve(w http.ResponseWriter, r *http.Request) {
	t, ex := s.t, s.ex
	body, _ := io.ReadAll(r.Body)
	if method := cmp.Or(ex.method, http.MethodGet); r.Method != method || r.URL.EscapedPath() != ex.path {
		t.Errorf("request %s %s, want %s %s", r.Method, r.URL.EscapedPath(), method, ex.path)
	}
	for k, v := range ex.header {
		if got := r.Header.Get(k); got != v {
			t.Errorf("header %s = %q, want %q", k, got, v)
		}
	}
	if ex.query != nil && !reflect.DeepEqual(r.URL.Query(), ex.query) {
		t.Errorf("query = %v, want %v", r.URL.Query(), ex.query)
	}
	switch form, _ := url.ParseQuery(string(body)); {
	case ex.form == nil && len(body) != 0:
		t.Errorf("body %q, want none", body)
	case ex.form != nil && r.Header.Get("Content-Type") != "application/x-www-form-urlencoded":
		t.Errorf("content type %q, want a form", r.Header.Get("Content-Type"))
	case ex.form != nil && !reflect.DeepEqual(form, ex.form):
		t.Errorf("form = %v\nwant   %v", form, ex.form)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(cmp.Or(ex.status, http.StatusOK))
	io.WriteString(w, ex.answer)
}

// failure is how a request must fail.
type failure struct {
	has    string // the error, or the body of an HTTPError, holds it
	status int    // the error is an HTTPError with this status
	secret string // neither the error nor an HTTPError's URL holds it
}

// check reports on t where err is not the failure f.
func (f failure) check(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	var he *providers.HTTPError
	isHTTP := errors.As(err, &he)
	switch {
	case f.status != 0 && (!isHTTP || he.StatusCode != f.status):
		t.Errorf("err = %v, want an HTTPError %d", err, f.status)
	case !strings.Contains(err.Error(), f.has) && (!isHTTP || !strings.Contains(he.Body, f.has)):
		t.Errorf("err = %v, want one with %q", err, f.has)
	case f.secret != "" && (strings.Contains(err.Error(), f.secret) || isHTTP && strings.Contains(he.URL, f.secret)):
		t.Errorf("err = %v holds %q", err, f.secret)
	}
}

// TestUserinfoRequests runs the custom userinfo requests of the built-in
// providers that have one against a stand-in API: what each sends, and
// the user it makes of the answer (Verified: EmailVerified is set), or
// how it fails.
func TestUserinfoRequests(t *testing.T) {
	srv := newServer(t)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	bearer := func(token string) map[string]string { return map[string]string{"Authorization": "Bearer " + token} }
	noAuth := map[string]string{"Authorization": ""}
	at := func(token string) account.TokenSet { return account.TokenSet{AccessToken: token} }
	const hubspotToken = "CNGNgL3HLhICAQEYu_PmASD-t7sBKJjCgQEyGQA"
	const bungieMember = "/platform/User/GetBungieAccount/{membershipId}/254/"
	bungieTokens := account.TokenSet{AccessToken: "bungie-at", Extra: map[string]any{"membership_id": "14214042"}}
	vkTokens := account.TokenSet{AccessToken: "vk1.a.tok", ExpiresIn: 86399, Extra: map[string]any{"user_id": float64(210700286), "email": "lindsey@example.com"}}
	wechatTokens := account.TokenSet{AccessToken: "ACCESS_TOKEN", Extra: map[string]any{"openid": "oLVPpjqs9BhvzwPj5A-vTYAX3GLc"}}
	pipedrive := profile.User{ID: "777", Name: "James Bond", Email: "james@example.com", Image: "https://d3myhnqlqw2314.cloudfront.net/profile_120x120_622732.jpg"}
	nextcloudHeader := map[string]string{"OCS-APIRequest": "true", "Accept": "application/json", "Authorization": "Bearer at-1"}

	for _, tt := range []struct {
		name     string
		o        *providers.OAuth
		url      string // the userinfo URL: a path on srv, a whole URL, or "" for the configuration's
		tokens   account.TokenSet
		ex       exchange
		want     profile.User
		verified bool
		fails    *failure
	}{
		{
			name: "dropbox", o: made(providers.Dropbox, Options{}), url: "/2/users/get_current_account", tokens: at("sl.at-123"),
			ex: exchange{method: http.MethodPost, header: bearer("sl.at-123"), answer: answer(t, "dropbox")},
			want: profile.User{
				ID: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc", Name: "Franz Ferdinand (Personal)", Email: "franz@dropbox.com",
				Image: "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128",
			},
		},
		{
			name: "dropbox refusal", o: made(providers.Dropbox, Options{}), url: "/2/users/get_current_account", tokens: at("x"),
			ex:    exchange{method: http.MethodPost, answer: `{"error_summary": "invalid_access_token/.."}`, status: http.StatusUnauthorized},
			fails: &failure{has: "401", status: http.StatusUnauthorized},
		},
		{
			name: "foursquare", o: made(providers.Foursquare, Options{}), url: "/v2/users/self", tokens: at("fsq-at"),
			ex:   exchange{header: noAuth, query: url.Values{"oauth_token": {"fsq-at"}, "v": {"20230131"}}, answer: answer(t, "foursquare")},
			want: profile.User{ID: "1234567", Name: "Jimmy Foursquare", Email: "jimmy@example.com", Image: "https://fastly.4sqi.net/img/user/original/1234567-XYZ.jpg"},
		},
		{
			name: "foursquare API version option",
			o:    foursquare.New(providers.OAuthUserConfig[foursquare.Profile]{Userinfo: providers.UserinfoEndpoint[foursquare.Profile]{Params: map[string]string{"v": "20240101"}}}).OAuth(),
			url:  "/v2/users/self", tokens: at("fsq-at"),
			ex:   exchange{header: noAuth, query: url.Values{"oauth_token": {"fsq-at"}, "v": {"20240101"}}, answer: answer(t, "foursquare")},
			want: profile.User{ID: "1234567", Name: "Jimmy Foursquare", Email: "jimmy@example.com", Image: "https://fastly.4sqi.net/img/user/original/1234567-XYZ.jpg"},
		},
		{
			name: "foursquare refusal hides the token", o: made(providers.Foursquare, Options{}), url: "/", tokens: at("secret-fsq"),
			ex:    exchange{answer: `{"meta": {"code": 401, "errorType": "invalid_auth"}}`, status: http.StatusUnauthorized},
			fails: &failure{has: "401", status: http.StatusUnauthorized, secret: "secret-fsq"},
		},
		{
			name: "hubspot", o: made(providers.HubSpot, Options{}), url: "/oauth/v1/access-tokens", tokens: at(hubspotToken),
			ex:   exchange{path: "/oauth/v1/access-tokens/" + hubspotToken, header: noAuth, answer: answer(t, "hubspot")},
			want: profile.User{ID: "123", Name: "demo@hubspot.com", Email: "demo@hubspot.com"},
		},
		{
			name: "hubspot refusal hides the token", o: made(providers.HubSpot, Options{}), url: "/oauth/v1/access-tokens", tokens: at("secret-token-xyz"),
			ex:    exchange{path: "/oauth/v1/access-tokens/secret-token-xyz", header: noAuth, answer: `{"status": "error", "message": "not found"}`, status: http.StatusNotFound},
			fails: &failure{status: http.StatusNotFound, secret: "secret-token-xyz"},
		},
		{
			name: "hubspot transport error hides the token", o: made(providers.HubSpot, Options{}), url: closed.URL, tokens: at("secret-token-xyz"),
			fails: &failure{secret: "secret-token-xyz"},
		},
		{
			name: "bungie", o: bungie.NewWithAPIKey("api-key", providers.OAuthUserConfig[bungie.Profile]{}).OAuth(), url: bungieMember, tokens: bungieTokens,
			ex:   exchange{path: "/platform/User/GetBungieAccount/14214042/254/", header: map[string]string{"X-API-Key": "api-key", "Authorization": "Bearer bungie-at"}, answer: answer(t, "bungie")},
			want: profile.User{ID: "14214042", Name: "Guardian", Image: "https://www.bungie.net/img/profile/avatars/bungieday_24.jpg"},
		},
		{
			name: "bungie without an API key", o: bungie.New(providers.OAuthUserConfig[bungie.Profile]{}).OAuth(), url: "/{membershipId}", tokens: bungieTokens,
			fails: &failure{has: "API key"},
		},
		{
			name: "bungie without a membership id", o: bungie.NewWithAPIKey("api-key", providers.OAuthUserConfig[bungie.Profile]{}).OAuth(), url: "/{membershipId}", tokens: at("bungie-at"),
			fails: &failure{has: "membership_id"},
		},
		{
			name: "bungie platform error", o: bungie.NewWithAPIKey("wrong-key", providers.OAuthUserConfig[bungie.Profile]{}).OAuth(), url: "/{membershipId}/254/",
			tokens: account.TokenSet{AccessToken: "at", Extra: map[string]any{"membership_id": "1"}},
			ex:     exchange{path: "/1/254/", answer: `{"ErrorCode": 2101, "ThrottleSeconds": 0, "ErrorStatus": "ApiInvalidOrExpiredKey", "Message": "The API key is invalid.", "MessageData": {}}`},
			fails:  &failure{has: "ApiInvalidOrExpiredKey"},
		},
		{
			name: "notion", o: made(providers.Notion, Options{ClientID: "cid"}), url: "/v1/users/me", tokens: at("secret_abc"),
			ex: exchange{header: map[string]string{"Notion-Version": "2022-06-28", "Authorization": "Bearer secret_abc"}, answer: answer(t, "notion")},
			want: profile.User{
				ID: "5389a034-eb5c-47b5-8a9e-f79c99ef166c", Name: "christine makenotion", Email: "christine@makenotion.com",
				Image: "https://s3-us-west-2.amazonaws.com/public.notion-static.com/avatar.png",
			},
		},
		{
			name: "notion workspace-owned token", o: made(providers.Notion, Options{ClientID: "cid"}), url: "/v1/users/me", tokens: at("secret_abc"),
			ex:    exchange{answer: `{"object":"user","id":"x","type":"bot","bot":{"owner":{"type":"workspace","workspace":true}}}`},
			fails: &failure{},
		},
		{
			name: "reddit", o: made(providers.Reddit, Options{ClientID: "cid"}), url: "/api/v1/me", tokens: at("tok"),
			ex:   exchange{header: map[string]string{"User-Agent": reddit.UserAgent, "Authorization": "Bearer tok"}, answer: answer(t, "reddit")},
			want: profile.User{ID: "1w72", Name: "spez"},
		},
		{
			name: "todoist", o: made(providers.Todoist, Options{ClientID: "cid"}), url: "/sync/v9/sync", tokens: at("tok"),
			ex: exchange{
				method: http.MethodPost, header: bearer("tok"), form: url.Values{"sync_token": {"*"}, "resource_types": {`["user"]`}},
				answer: `{"full_sync": true, "sync_token": "TnYUZEpuzf2FMA9qzyY3j4xky6dXiYejmSO85S5paZ_a9y1FI85mBbIWZGpW", "temp_id_mapping": {}, "user": ` + answer(t, "todoist-user") + `}`,
			},
			want: profile.User{ID: "2671355", Name: "Example User", Email: "me@example.com", Image: "https://dcff1xvirvpfp.cloudfront.net/c5cff3b0b6ab4ef8b4e0a7e4a1d0b1c2_big.jpg"},
		},
		{
			name: "trakt", o: made(providers.Trakt, Options{ClientID: "cid"}), url: "/users/me?extended=full", tokens: at("tok"),
			ex: exchange{
				header: map[string]string{"trakt-api-version": "2", "trakt-api-key": "cid", "Authorization": "Bearer tok"},
				query:  url.Values{"extended": {"full"}}, answer: answer(t, "trakt"),
			},
			want: profile.User{ID: "sean", Name: "Sean Rudford", Image: "https://secure.gravatar.com/avatar/30c2f0dfbc39e77b1b0e1b8a3c1a1f1c.jpg?size=256"},
		},
		{
			name: "vk", o: made(providers.VK, Options{ClientID: "cid"}), url: "/method/users.get?fields=photo_100&v=5.131", tokens: vkTokens,
			ex: exchange{header: bearer("vk1.a.tok"), query: url.Values{"v": {"5.131"}, "fields": {"photo_100"}}, answer: answer(t, "vk")},
			want: profile.User{
				ID: "210700286", Name: "Lindsey Stirling", Email: "lindsey@example.com",
				Image: "https://sun9-1.userapi.com/s/v1/ig2/abc.jpg?size=100x100&quality=96&crop=0,0,400,400&ava=1",
			},
		},
		{
			name: "vk error", o: made(providers.VK, Options{ClientID: "cid"}), url: "/method/users.get", tokens: vkTokens,
			ex:    exchange{answer: `{"error": {"error_code": 5, "error_msg": "User authorization failed: invalid access_token (4).", "request_params": []}}`},
			fails: &failure{},
		},
		{
			name: "vk without users", o: made(providers.VK, Options{ClientID: "cid"}), url: "/method/users.get", tokens: vkTokens,
			ex: exchange{answer: `{"response": []}`}, fails: &failure{},
		},
		{
			name: "pipedrive at the company's API domain", o: made(providers.Pipedrive, Options{ClientID: "cid"}), url: "/v1/users/me",
			tokens: account.TokenSet{AccessToken: "tok", Extra: map[string]any{"api_domain": srv.URL + "/"}},
			ex:     exchange{path: "/api/v1/users/me", header: bearer("tok"), answer: answer(t, "pipedrive")}, want: pipedrive,
		},
		{
			name: "pipedrive without an API domain", o: made(providers.Pipedrive, Options{ClientID: "cid"}), url: "/v1/users/me", tokens: at("tok"),
			ex: exchange{header: bearer("tok"), answer: answer(t, "pipedrive")}, want: pipedrive,
		},
		{
			name: "pipedrive with an unusable API domain", o: made(providers.Pipedrive, Options{ClientID: "cid"}), url: "/v1/users/me",
			tokens: account.TokenSet{AccessToken: "tok", Extra: map[string]any{"api_domain": "not a url"}},
			ex:     exchange{header: bearer("tok"), answer: answer(t, "pipedrive")}, want: pipedrive,
		},
		{
			name: "nextcloud", o: made(providers.Nextcloud, Options{ClientID: "cid", Issuer: srv.URL}), url: "",
			tokens: account.TokenSet{AccessToken: "at-1", Extra: map[string]any{"user_id": "frank"}},
			ex:     exchange{path: "/ocs/v1.php/cloud/users/frank", header: nextcloudHeader, answer: answer(t, "nextcloud")},
			want:   profile.User{ID: "frank", Name: "Frank K.", Email: "frank@example.com", Image: srv.URL + "/avatar/frank/512"},
		},
		{
			name: "nextcloud OCS failure", o: made(providers.Nextcloud, Options{ClientID: "cid", Issuer: srv.URL}), url: "",
			tokens: account.TokenSet{AccessToken: "at-1", Extra: map[string]any{"user_id": "jane doe"}},
			ex: exchange{
				path: "/ocs/v1.php/cloud/users/jane%20doe", header: nextcloudHeader,
				answer: `{"ocs":{"meta":{"status":"failure","statuscode":404,"message":"User does not exist"},"data":[]}}`,
			},
			fails: &failure{has: "User does not exist"},
		},
		{
			name: "nextcloud without a user id", o: made(providers.Nextcloud, Options{ClientID: "cid", Issuer: srv.URL}), url: "", tokens: at("at-1"),
			fails: &failure{},
		},
		{
			name: "wechat", o: made(providers.WeChat, Options{ClientID: "wxapp"}), url: "/sns/userinfo", tokens: wechatTokens,
			ex: exchange{header: noAuth, query: url.Values{"access_token": {"ACCESS_TOKEN"}, "openid": {"oLVPpjqs9BhvzwPj5A-vTYAX3GLc"}, "lang": {"zh_CN"}}, answer: answer(t, "wechat")},
			want: profile.User{
				ID: "o6_bmasdasdsad6_2sgVt7hMZOPfL", Name: "张三",
				Image: "https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/46",
			},
		},
		{
			name: "wechat error", o: made(providers.WeChat, Options{ClientID: "wxapp"}), url: "/sns/userinfo", tokens: wechatTokens,
			ex: exchange{answer: `{"errcode":40003,"errmsg":"invalid openid"}`}, fails: &failure{},
		},
		{
			name: "wechat without an openid", o: made(providers.WeChat, Options{ClientID: "wxapp"}), url: "/sns/userinfo", tokens: at("ACCESS_TOKEN"),
			fails: &failure{},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u := cmp.Or(tt.url, tt.o.UserinfoURL)
			if strings.HasPrefix(u, "/") {
				u = srv.URL + u
			}
			srv.expect(t, tt.ex, strings.TrimPrefix(u, srv.URL))
			ctx := context.Background()
			p, err := tt.o.UserinfoRequest(ctx, providers.UserinfoRequest{Tokens: tt.tokens, URL: u, ClientID: tt.o.ClientID, HTTPClient: srv.Client()})
			if tt.fails != nil {
				tt.fails.check(t, err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := tt.o.MapProfile(ctx, p, tt.tokens)
			if err != nil {
				t.Fatal(err)
			}
			providertest.CheckUser(t, got, tt.want, tt.verified)
		})
	}

	// A Nextcloud profile without an e-mail address, at a fixed instance.
	providertest.CheckMapping(t, made(providers.Nextcloud, Options{ClientID: "cid", Issuer: "https://cloud.example.com"}), []providertest.MappingCase{{
		Name: "nextcloud without an e-mail address",
		JSON: `{"id": "frank", "email": null, "displayname": "Frank K.", "groups": ["admin"], "enabled": true}`,
		Want: profile.User{ID: "frank", Name: "Frank K.", Image: "https://cloud.example.com/avatar/frank/512"},
	}})
}

// TestTokenRequests runs the custom token requests of the built-in
// providers that have one against a stand-in token endpoint: what each
// sends, and the tokens it makes of the answer, or how it fails.
func TestTokenRequests(t *testing.T) {
	srv := newServer(t)
	naverReq := providers.TokenRequest{Code: "good", ClientID: "cid", ClientSecret: "sec", Params: url.Values{"code": {"good"}, "state": {"st4te"}}}
	naverForm := url.Values{"grant_type": {"authorization_code"}, "client_id": {"cid"}, "client_secret": {"sec"}, "code": {"good"}, "state": {"st4te"}}
	naverBad := naverReq
	naverBad.Code = "bad"
	naverBadForm := url.Values{"grant_type": {"authorization_code"}, "client_id": {"cid"}, "client_secret": {"sec"}, "code": {"bad"}, "state": {"st4te"}}
	wechatQuery := func(code string) url.Values {
		return url.Values{"appid": {"wxapp"}, "secret": {"sec"}, "code": {code}, "grant_type": {"authorization_code"}}
	}

	for _, tt := range []struct {
		name  string
		o     *providers.OAuth
		path  string
		req   providers.TokenRequest
		ex    exchange
		want  func(account.TokenSet) bool
		fails *failure
	}{
		{
			name: "azure-devops", o: azuredevops.New(providers.OAuthUserConfig[azuredevops.Profile]{}).OAuth(), path: "/oauth2/token",
			req: providers.TokenRequest{
				Code: "eyJ.the-code", RedirectURI: "https://app.example/auth/callback/azure-devops",
				ClientID: "app-id", ClientSecret: "eyJ.client-secret-jwt",
			},
			ex: exchange{
				method: http.MethodPost,
				form: url.Values{
					"client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
					"client_assertion":      {"eyJ.client-secret-jwt"},
					"grant_type":            {"urn:ietf:params:oauth:grant-type:jwt-bearer"},
					"assertion":             {"eyJ.the-code"},
					"redirect_uri":          {"https://app.example/auth/callback/azure-devops"},
				},
				answer: `{"access_token": "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.at", "token_type": "jwt-bearer",
			"expires_in": "3599", "refresh_token": "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.rt", "scope": "vso.profile"}`,
			},
			want: func(tok account.TokenSet) bool {
				return tok.AccessToken == "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.at" && tok.RefreshToken != "" && tok.ExpiresIn == 3599
			},
		},
		{
			name: "azure-devops refusal", o: azuredevops.New(providers.OAuthUserConfig[azuredevops.Profile]{}).OAuth(), path: "/",
			req: providers.TokenRequest{Code: "c"},
			ex: exchange{
				method: http.MethodPost, form: url.Values{
					"client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"}, "client_assertion": {""},
					"grant_type": {"urn:ietf:params:oauth:grant-type:jwt-bearer"}, "assertion": {"c"}, "redirect_uri": {""},
				},
				answer: `{"Error": "invalid_client", "ErrorDescription": "Client secret is invalid"}`, status: http.StatusUnauthorized,
			},
			fails: &failure{has: "invalid_client", status: http.StatusUnauthorized},
		},
		{
			name: "naver", o: naver.New(providers.OAuthUserConfig[naver.Profile]{}).OAuth(), path: "/", req: naverReq,
			ex: exchange{
				method: http.MethodPost, form: naverForm,
				answer: `{"access_token":"AAAAQosjWDJieBiQZc3to9YQp6HDLvrmyKC","refresh_token":"c8ceMEJisO4Se7uGisHoX","token_type":"bearer","expires_in":"3600"}`,
			},
			want: func(tok account.TokenSet) bool {
				return tok.AccessToken == "AAAAQosjWDJieBiQZc3to9YQp6HDLvrmyKC" && tok.RefreshToken == "c8ceMEJisO4Se7uGisHoX" && tok.ExpiresAt != 0
			},
		},
		{
			name: "naver error", o: naver.New(providers.OAuthUserConfig[naver.Profile]{}).OAuth(), path: "/", req: naverBad,
			ex:    exchange{method: http.MethodPost, form: naverBadForm, answer: `{"error":"invalid_request","error_description":"no valid data in session"}`},
			fails: &failure{},
		},
		{
			name: "wechat", o: wechat.New(providers.OAuthUserConfig[wechat.Profile]{}).OAuth(), path: "/sns/oauth2/access_token",
			req: providers.TokenRequest{Code: "c0de", ClientID: "wxapp", ClientSecret: "sec"},
			ex: exchange{
				header: map[string]string{"Authorization": ""}, query: wechatQuery("c0de"),
				answer: `{"access_token":"ACCESS_TOKEN","expires_in":7200,"refresh_token":"REFRESH_TOKEN","openid":"oLVPpjqs9BhvzwPj5A-vTYAX3GLc","scope":"snsapi_userinfo","unionid":"o6_bmasdasdsad6_2sgVt7hMZOPfL"}`,
			},
			want: func(tok account.TokenSet) bool {
				return tok.AccessToken == "ACCESS_TOKEN" && tok.TokenType == "bearer" && tok.ExpiresAt != 0 && tok.Extra["openid"] == "oLVPpjqs9BhvzwPj5A-vTYAX3GLc"
			},
		},
		{
			name: "wechat error", o: wechat.New(providers.OAuthUserConfig[wechat.Profile]{}).OAuth(), path: "/sns/oauth2/access_token",
			req:   providers.TokenRequest{Code: "used", ClientID: "wxapp", ClientSecret: "sec"},
			ex:    exchange{header: map[string]string{"Authorization": ""}, query: wechatQuery("used"), answer: `{"errcode":40163,"errmsg":"code been used"}`},
			fails: &failure{},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv.expect(t, tt.ex, tt.path)
			req := tt.req
			req.URL, req.HTTPClient = srv.URL+tt.path, srv.Client()
			tok, err := tt.o.Token.Request(context.Background(), req)
			if tt.fails != nil {
				tt.fails.check(t, err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.want(tok) {
				t.Errorf("tokens = %+v", tok)
			}
		})
	}
}

// answer is testdata/answers/<name>.json: a provider's documented answer.
func answer(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "answers", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// made is the OAuth configuration the factory of id makes with o.
func made(id providers.BuiltinID, o Options) *providers.OAuth {
	return registry[id](o).(providers.OAuthProvider).OAuth()
}
