package microsoftentraid

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestDefaults(t *testing.T) {
	o := New(providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"}).OAuth()
	if o.ID != "microsoft-entra-id" || o.Name != "Microsoft Entra ID" || o.Type != providers.TypeOIDC {
		t.Fatalf("base = %+v", o.Base)
	}
	if o.Issuer != "https://login.microsoftonline.com/common/v2.0" {
		t.Errorf("issuer = %q", o.Issuer)
	}
	if s, _ := o.Authorization.Scope(); s != "openid profile email User.Read" {
		t.Errorf("scope = %q", s)
	}
	if o.Style != (providers.Style{BrandColor: "#0072c6"}) {
		t.Errorf("style = %+v", o.Style)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	// The default mapping is FromClaims.
	u, err := o.MapProfile(context.Background(), profile.Claims{"sub": "AAAAA", "name": "Megan Bowen", "email": "megan@contoso.com", "tid": "x"}, account.TokenSet{})
	if err != nil || u.ID != "AAAAA" || u.Name != "Megan Bowen" || u.Email != "megan@contoso.com" || u.Image != "" {
		t.Errorf("user = %+v, %v", u, err)
	}
}

func TestTenant(t *testing.T) {
	const tid = "72f988bf-86f1-41af-91ab-2d7cd011db47"
	c := NewForTenant(tid, providers.OAuthUserConfig[profile.Claims]{ClientID: "cid"})
	if c.Issuer != "https://login.microsoftonline.com/"+tid+"/v2.0" {
		t.Errorf("issuer = %q", c.Issuer)
	}
	c = NewForTenant(tid, providers.OAuthUserConfig[profile.Claims]{Issuer: "https://login.microsoftonline.com/other/v2.0"})
	if c.Issuer != "https://login.microsoftonline.com/other/v2.0" {
		t.Errorf("an explicit issuer was replaced: %q", c.Issuer)
	}
	c = New(providers.OAuthUserConfig[profile.Claims]{Issuer: IssuerForTenant(TenantOrganizations)})
	if c.Issuer != "https://login.microsoftonline.com/organizations/v2.0" || c.Type != providers.TypeOIDC {
		t.Errorf("issuer option: %q", c.Issuer)
	}
}

func TestIssuerRules(t *testing.T) {
	const tid = "72f988bf-86f1-41af-91ab-2d7cd011db47"
	tests := []struct {
		name     string
		iss, tid string
		want     bool
	}{
		{"token of its tenant", "https://login.microsoftonline.com/" + tid + "/v2.0", tid, true},
		{"personal account", "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0", "9188040d-6c67-4c5b-b112-36a304b66dad", true},
		{"iss of another tenant", "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0", tid, false},
		{"no tid", "https://login.microsoftonline.com//v2.0", "", false},
		{"template itself", DiscoveredIssuerTemplate, "{tenantid}", false},
		{"v1 issuer", "https://sts.windows.net/" + tid + "/", tid, false},
		{"tid not a GUID", "https://login.microsoftonline.com/common/v2.0", "common", false},
		{"other host", "https://login.example.com/" + tid + "/v2.0", tid, false},
	}
	for _, tt := range tests {
		if got := ValidMultiTenantIssuer(tt.iss, tt.tid); got != tt.want {
			t.Errorf("%s: ValidMultiTenantIssuer = %v", tt.name, got)
		}
	}
	for iss, want := range map[string]bool{
		Issuer: true, IssuerForTenant(TenantOrganizations): true, IssuerForTenant(TenantConsumers): true,
		IssuerForTenant(tid): false, "https://accounts.google.com": false,
	} {
		if IsMultiTenant(iss) != want {
			t.Errorf("IsMultiTenant(%q) = %v", iss, !want)
		}
	}
	if tn, ok := TenantOf(IssuerForTenant(tid)); !ok || tn != tid {
		t.Errorf("TenantOf = %q %v", tn, ok)
	}
	if _, ok := TenantOf("https://login.microsoftonline.com/a/b/v2.0"); ok {
		t.Error("TenantOf accepted a nested path")
	}
	disc := []struct {
		configured, discovered string
		want                   bool
	}{
		{Issuer, DiscoveredIssuerTemplate, true},
		{IssuerForTenant(TenantConsumers), IssuerForTenant("9188040d-6c67-4c5b-b112-36a304b66dad"), true},
		{IssuerForTenant(tid), IssuerForTenant(tid), true},
		{IssuerForTenant(tid), DiscoveredIssuerTemplate, false},
		{IssuerForTenant(tid), IssuerForTenant("9188040d-6c67-4c5b-b112-36a304b66dad"), false},
		{Issuer, "https://evil.example/{tenantid}/v2.0", false},
	}
	for _, d := range disc {
		if got := ValidDiscoveredIssuer(d.configured, d.discovered); got != d.want {
			t.Errorf("ValidDiscoveredIssuer(%q, %q) = %v", d.configured, d.discovered, got)
		}
	}
}

func TestPhotoProfile(t *testing.T) {
	jpeg := []byte{0xff, 0xd8, 0xff, 0xe0, 'J', 'F', 'I', 'F'}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Header.Get("Authorization") == "Bearer no-photo":
			http.Error(w, `{"error":{"code":"ImageNotFound"}}`, http.StatusNotFound)
		case r.Header.Get("Authorization") != "Bearer graph-token":
			http.Error(w, "unauthorized", http.StatusUnauthorized)
		case r.URL.Path != "/v1.0/me/photos/96x96/$value":
			http.NotFound(w, r)
		default:
			w.Header().Set("Content-Type", "image/jpeg")
			w.Write(jpeg)
		}
	}))
	defer srv.Close()
	cb, err := photoProfile(srv.URL+"/v1.0", 96, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	c := New(providers.OAuthUserConfig[profile.Claims]{Profile: cb}).OAuth()
	claims := profile.Claims{"sub": "s", "name": "Megan"}
	u, err := c.MapProfile(context.Background(), claims, account.TokenSet{AccessToken: "graph-token"})
	if err != nil {
		t.Fatal(err)
	}
	if u.Image != "data:image/jpeg;base64,/9j/4EpGSUY=" || u.ID != "s" || u.Name != "Megan" {
		t.Errorf("user = %+v", u)
	}
	for _, tok := range []string{"no-photo", "bad", ""} {
		u, err := c.MapProfile(context.Background(), claims, account.TokenSet{AccessToken: tok})
		if err != nil || u.Image != "" || u.ID != "s" {
			t.Errorf("token %q: user = %+v, %v", tok, u, err)
		}
	}
	if _, err := PhotoProfile(50, nil); err == nil {
		t.Error("size 50 accepted")
	}
	if _, err := PhotoProfile(48, nil); err != nil {
		t.Errorf("size 48: %v", err)
	}
}
