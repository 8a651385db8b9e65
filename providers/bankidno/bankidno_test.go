package bankidno

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// jwt returns an unsigned-looking compact JWS with claims as its payload;
// FetchProfile does not check signatures, so any third part will do.
func jwt(t *testing.T, claims map[string]any) string {
	t.Helper()
	b, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(`{"alg":"RS256","kid":"k1","typ":"JWT"}`)) + "." + enc.EncodeToString(b) + ".c2lnbmF0dXJl"
}

func TestFetchProfile(t *testing.T) {
	const sub = "9a8b7c6d-5e4f-4a3b-2c1d-0e9f8a7b6c5d"
	userinfoJWT := jwt(t, map[string]any{
		"sub": sub, "iss": Issuer, "aud": "cid", "name": "Kari Nordmann",
		"given_name": "Kari", "family_name": "Nordmann", "birthdate": "1985-04-17",
		"email": "kari.nordmann@example.no", "phone_number": "+4791234567",
	})
	idToken := jwt(t, map[string]any{"sub": sub, "iss": Issuer, "aud": "cid", "name": "Kari Nordmann"})
	tests := []struct {
		name    string
		status  int
		ctype   string
		body    string
		idToken string
		want    Profile
		wantErr string
	}{
		{name: "signed JWT", status: 200, ctype: "application/jwt", body: userinfoJWT, idToken: idToken,
			want: Profile{Sub: sub, Iss: Issuer, Name: "Kari Nordmann", GivenName: "Kari", FamilyName: "Nordmann",
				Birthdate: "1985-04-17", Email: "kari.nordmann@example.no", PhoneNumber: "+4791234567"}},
		{name: "JSON", status: 200, ctype: "application/json", body: `{"sub": "` + sub + `", "email": "k@example.no"}`, idToken: idToken,
			want: Profile{Sub: sub, Email: "k@example.no"}},
		{name: "sub differs from the ID token", status: 200, ctype: "application/jwt", body: jwt(t, map[string]any{"sub": "someone-else"}),
			idToken: idToken, wantErr: "differs"},
		{name: "encrypted", status: 200, ctype: "application/jwt", body: "a.b.c.d.e", wantErr: "JWE"},
		{name: "error answer", status: 401, ctype: "application/json", body: `{"error": "invalid_token"}`, wantErr: "401"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodGet || r.Header.Get("Authorization") != "Bearer at-123" {
					t.Errorf("request %s with Authorization %q, want GET with the Bearer token", r.Method, r.Header.Get("Authorization"))
				}
				w.Header().Set("Content-Type", tt.ctype)
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			c := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", Userinfo: providers.UserinfoEndpoint[Profile]{URL: srv.URL + "/userinfo"}})
			o := c.OAuth()
			if o.UserinfoRequest == nil {
				t.Fatal("no userinfo handler")
			}
			got, err := o.UserinfoRequest(context.Background(), providers.UserinfoRequest{
				URL:        c.Userinfo.URL,
				Tokens:     account.TokenSet{AccessToken: "at-123", IDToken: tt.idToken},
				HTTPClient: srv.Client(),
			})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one mentioning %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("profile = %+v\nwant      %+v", got, tt.want)
			}
			u, err := o.MapProfile(context.Background(), got, account.TokenSet{})
			if err != nil || u.ID != sub || u.Email != tt.want.Email {
				t.Errorf("mapped user = %+v, %v", u, err)
			}
		})
	}
}
