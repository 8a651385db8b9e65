package rp

import (
	"context"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// The front-channel URL, built in one buffer over the pre-encoded fixed
// part, must carry exactly the parameters the general path (url.Values,
// as PAR pushes them) gives.
func TestAuthorizationURLFrontChannel(t *testing.T) {
	const auth = "https://op.example/authorize"
	configs := []*providers.OAuth{
		{Base: providers.Base{ID: "plain", Type: providers.TypeOAuth}, ClientID: "client id/é"},
		{Base: providers.Base{ID: "oidc", Type: providers.TypeOIDC}, ClientID: "c"},
		{Base: providers.Base{ID: "params", Type: providers.TypeOAuth}, ClientID: "c",
			Authorization: providers.AuthorizationEndpoint{URL: auth + "?audience=api&scope=a+b", Params: map[string]string{
				"response_type": "code token", // never a front-channel token (RFC 9700 §2.1.2)
				"state":         "configured", // never a fixed state
				"prompt":        "consent",
				"response_mode": "form_post",
			}}},
	}
	signIns := []SignIn{
		{RedirectURI: "https://app.example/auth/callback/x?a=b c&d=%", CodeChallenge: "ch-_", State: "st", Nonce: "no"},
		{RedirectURI: "http://localhost:3000/auth/callback/x"},
		{RedirectURI: "http://localhost/cb", State: "only-state"},
	}
	for _, c := range configs {
		if c.Authorization.URL == "" {
			c.Authorization.URL = auth
		}
		p := New(c, nil, 0, 0)
		e := &Endpoints{auth: c.Authorization.URL}
		for _, s := range signIns {
			got, err := p.AuthorizationURL(context.Background(), e, s)
			if err != nil {
				t.Fatal(err)
			}
			a := p.authRequest(e)
			want := url.Values{}
			for k, v := range a.params {
				want[k] = v
			}
			s.set(want)
			base, query, _ := strings.Cut(got, "?")
			q, err := url.ParseQuery(query)
			if err != nil || base != auth || !reflect.DeepEqual(q, want) {
				t.Errorf("%s: %s\ngot  %v (%v)\nwant %v", c.ID, got, q, err, want)
			}
			if q.Get("response_type") == "code token" || q.Get("state") == "configured" {
				t.Errorf("%s: a configured value survived: %s", c.ID, got)
			}
		}
	}
}

// Extra parameters go the general way and replace configured ones, but
// never the sign-in's own.
func TestAuthorizationURLExtra(t *testing.T) {
	c := &providers.OAuth{Base: providers.Base{ID: "x", Type: providers.TypeOAuth}, ClientID: "c",
		Authorization: providers.AuthorizationEndpoint{URL: "https://op.example/authorize", Params: map[string]string{"prompt": "consent"}}}
	p := New(c, nil, 0, 0)
	e := &Endpoints{auth: c.Authorization.URL}
	got, err := p.AuthorizationURL(context.Background(), e, SignIn{RedirectURI: "https://app/cb", State: "s",
		Extra: url.Values{"prompt": {"login"}, "state": {"planted"}, "login_hint": {"a@b"}}})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(got)
	q := u.Query()
	if q.Get("prompt") != "login" || q.Get("login_hint") != "a@b" || q.Get("state") != "s" || q.Get("redirect_uri") != "https://app/cb" || q.Get("client_id") != "c" {
		t.Errorf("got %s", got)
	}
}

func TestAppendQueryEscape(t *testing.T) {
	var all strings.Builder
	for i := range 256 {
		all.WriteByte(byte(i))
	}
	for _, s := range []string{"", "abc", "https://app.example/a b?c=d&e=f~g_h.i-j", "é€", all.String()} {
		var b strings.Builder
		appendQueryEscape(&b, s)
		if b.String() != url.QueryEscape(s) {
			t.Errorf("appendQueryEscape(%q) = %q, want %q", s, b.String(), url.QueryEscape(s))
		}
	}
}
