package rp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestTenantIssuer(t *testing.T) {
	const tmpl = "https://login.microsoftonline.com/{tenantid}/v2.0"
	for _, tc := range []struct {
		configured string
		ok         bool
	}{
		{"https://login.microsoftonline.com/common/v2.0", true},
		{"https://login.microsoftonline.com/organizations/v2.0", true},
		{"https://login.microsoftonline.com/v2.0", false},
		{"https://evil.example/common/v2.0", false},
		{"https://login.microsoftonline.com/a/b/v2.0", false},
	} {
		if got := tenantTemplate(tc.configured, tmpl); got != tc.ok {
			t.Errorf("tenantTemplate(%q) = %v", tc.configured, got)
		}
	}
	e := &Endpoints{Issuer: tmpl, perTenant: true}
	tid := "72f988bf-86f1-41af-91ab-2d7cd011db47"
	good := profile.Claims{"tid": tid, "iss": "https://login.microsoftonline.com/" + tid + "/v2.0"}
	if _, err := checkTenantIssuer(e, good); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []profile.Claims{
		{"tid": tid, "iss": "https://login.microsoftonline.com/00000000-0000-0000-0000-000000000000/v2.0"},
		{"iss": "https://login.microsoftonline.com/" + tid + "/v2.0"},
		{"tid": "common", "iss": "https://login.microsoftonline.com/common/v2.0"},
	} {
		if code, err := checkTenantIssuer(e, bad); err == nil || code != "issuer" {
			t.Errorf("accepted %v", bad)
		}
	}
	if _, err := checkTenantIssuer(&Endpoints{Issuer: "https://op"}, profile.Claims{}); err != nil {
		t.Fatal("fixed issuers are go-oidc's to check")
	}
}

// An https issuer may not send anything over plain http: the ID token sent
// as id_token_hint at sign-out, like the code and the client secret, would
// cross the network in clear.
func TestDiscoveryRefusesHTTPDowngrade(t *testing.T) {
	good := Metadata{Issuer: "https://op.example", AuthorizationEndpoint: "https://op.example/auth",
		TokenEndpoint: "https://op.example/token", JWKSURI: "https://op.example/jwks", EndSessionEndpoint: "HTTPS://op.example/logout"}
	if err := good.noDowngrade(); err != nil {
		t.Fatal(err)
	}
	for name, set := range map[string]func(*Metadata){
		"end_session_endpoint":                  func(m *Metadata) { m.EndSessionEndpoint = "http://op.example/logout" },
		"token_endpoint":                        func(m *Metadata) { m.TokenEndpoint = "http://op.example/token" },
		"authorization_endpoint":                func(m *Metadata) { m.AuthorizationEndpoint = "http://op.example/auth" },
		"userinfo_endpoint":                     func(m *Metadata) { m.UserinfoEndpoint = "http://op.example/me" },
		"jwks_uri":                              func(m *Metadata) { m.JWKSURI = "http://op.example/jwks" },
		"pushed_authorization_request_endpoint": func(m *Metadata) { m.PushedAuthorizationRequestEndpt = "//op.example/par" },
	} {
		m := good
		set(&m)
		if err := m.noDowngrade(); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s over http: %v", name, err)
		}
	}
	dev := Metadata{Issuer: "http://127.0.0.1:9000", TokenEndpoint: "http://127.0.0.1:9000/token", EndSessionEndpoint: "http://127.0.0.1:9000/logout"}
	if err := dev.noDowngrade(); err != nil {
		t.Errorf("an http issuer chosen by the application: %v", err)
	}
}

// Discovery itself applies the rule: a provider whose https metadata
// advertises an http end_session_endpoint is not used at all.
func TestDiscoverHTTPEndSession(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"issuer":%q,"authorization_endpoint":"%[1]s/auth","token_endpoint":"%[1]s/token","jwks_uri":"%[1]s/jwks","end_session_endpoint":"http://%s/logout"}`,
			srv.URL, r.Host)
	}))
	defer srv.Close()
	p := New(&providers.OAuth{Base: providers.Base{ID: "x"}, Issuer: srv.URL}, srv.Client(), 0, 5*time.Second)
	_, err := p.Endpoints(context.Background())
	if err == nil || !strings.Contains(err.Error(), "end_session_endpoint") {
		t.Fatalf("Endpoints = %v, want the http end_session_endpoint refused", err)
	}
}
