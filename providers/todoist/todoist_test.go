package todoist

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

const user = `{
	"auto_reminder": 0,
	"avatar_big": "https://dcff1xvirvpfp.cloudfront.net/c5cff3b0b6ab4ef8b4e0a7e4a1d0b1c2_big.jpg",
	"avatar_medium": "https://dcff1xvirvpfp.cloudfront.net/c5cff3b0b6ab4ef8b4e0a7e4a1d0b1c2_medium.jpg",
	"avatar_s640": "https://dcff1xvirvpfp.cloudfront.net/c5cff3b0b6ab4ef8b4e0a7e4a1d0b1c2_s640.jpg",
	"avatar_small": "https://dcff1xvirvpfp.cloudfront.net/c5cff3b0b6ab4ef8b4e0a7e4a1d0b1c2_small.jpg",
	"business_account_id": "1",
	"daily_goal": 15,
	"date_format": 0,
	"days_off": [6, 7],
	"email": "me@example.com",
	"full_name": "Example User",
	"id": "2671355",
	"inbox_project_id": "220474322",
	"is_premium": true,
	"joined_at": "2015-07-31T18:32:06.000000Z",
	"lang": "en",
	"start_page": "overdue",
	"tz_info": {"gmt_string": "-03:00", "hours": -3, "is_dst": 0, "minutes": 0, "timezone": "America/Sao_Paulo"}
}`

func TestUserinfo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		form, _ := url.ParseQuery(string(body))
		if r.Method != http.MethodPost || r.Header.Get("Authorization") != "Bearer tok" ||
			r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
			t.Errorf("request = %s %v", r.Method, r.Header)
		}
		if form.Get("sync_token") != "*" || form.Get("resource_types") != `["user"]` {
			t.Errorf("form = %v", form)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"full_sync": true, "sync_token": "TnYUZEpuzf2FMA9qzyY3j4xky6dXiYejmSO85S5paZ_a9y1FI85mBbIWZGpW", "temp_id_mapping": {}, "user": ` + user + `}`))
	}))
	defer srv.Close()
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", Userinfo: providers.UserinfoEndpoint[Profile]{URL: srv.URL + "/sync/v9/sync"}}).OAuth()
	p, err := o.UserinfoRequest(context.Background(), providers.UserinfoRequest{
		Tokens: account.TokenSet{AccessToken: "tok"}, URL: o.UserinfoURL, HTTPClient: srv.Client(),
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := o.MapProfile(context.Background(), p, account.TokenSet{})
	if err != nil {
		t.Fatal(err)
	}
	want := profile.User{ID: "2671355", Name: "Example User", Email: "me@example.com", Image: "https://dcff1xvirvpfp.cloudfront.net/c5cff3b0b6ab4ef8b4e0a7e4a1d0b1c2_big.jpg"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
