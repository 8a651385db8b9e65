package rp

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
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
