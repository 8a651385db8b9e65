package gatehouse_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// TestProviderBodiesNotLogged: a failing userinfo endpoint whose answer
// carries profile data is logged with its status, content type and size
// only. Failed before: 200 characters of the body reached the log.
func TestProviderBodiesNotLogged(t *testing.T) {
	const secretProfile = `{"error":"boom","email":"carol.private@example.com","phone":"+1 555 0100"}`
	userinfo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(secretProfile))
	}))
	t.Cleanup(userinfo.Close)
	var logs syncBuffer // email_test.go
	a := newApp(t, authtest.Options{}, func(c *gatehouse.Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		withDev(func(p *providers.OAuthConfig[profile.Claims]) {
			p.Userinfo = providers.UserinfoEndpoint[profile.Claims]{URL: userinfo.URL + "/me"}
		})(c)
	})
	resp, _ := newBrowser(t).signIn(a, "dev", "/")
	if got := resp.Request.URL.Query().Get("error"); got != string(gatehouse.UserinfoFailed) {
		t.Fatalf("ended on %s, want UserinfoFailed", resp.Request.URL)
	}
	out := logs.String()
	if strings.Contains(out, "carol.private") || strings.Contains(out, "555 0100") {
		t.Fatalf("the provider's answer reached the log:\n%s", out)
	}
	if !strings.Contains(out, "500") || !strings.Contains(out, "application/json") || !strings.Contains(out, "bytes") {
		t.Fatalf("the log does not say status, content type and size:\n%s", out)
	}
}
