package providertest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// recorder keeps the errors reported to it instead of failing the test.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func oauth() *providers.OAuth {
	return providers.OAuthConfig[profile.Claims]{
		ID: "x", Name: "X", Type: providers.TypeOIDC, Issuer: "https://x.example",
		Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"scope": "openid"}},
	}.OAuth()
}

func TestCheckConfig(t *testing.T) {
	o := oauth()
	want := ConfigOf(o)
	var r recorder
	CheckConfig(&r, o, want)
	if len(r.errs) != 0 {
		t.Fatalf("CheckConfig of its own ConfigOf: %q", r.errs)
	}
	want.Name, want.AuthParams = "Y", nil
	CheckConfig(&r, o, want)
	if len(r.errs) != 2 || r.errs[0] != `config Name = "X", want "Y"` {
		t.Errorf("errors = %q, want one for Name and one for AuthParams", r.errs)
	}
}

func TestCheckFields(t *testing.T) {
	var r recorder
	CheckFields(&r, []Field{{Name: "same", Got: 1, Want: 1}, {Name: "differs", Got: "a", Want: "b"}})
	if len(r.errs) != 1 || r.errs[0] != `differs = "a", want "b"` {
		t.Errorf("errors = %q", r.errs)
	}
}

func TestMapJSON(t *testing.T) {
	u := MapJSON(t, oauth(), `{"sub":"1","name":"N","email":"n@example.com"}`, account.TokenSet{})
	if u.ID != "1" || u.Name != "N" || u.Email != "n@example.com" {
		t.Errorf("user = %+v", u)
	}
}

func TestCheckMapping(t *testing.T) {
	CheckMapping(t, oauth(), []MappingCase{
		{Name: "verified", JSON: `{"sub":"1","email":"a@example.com","email_verified":true}`,
			Want: profile.User{ID: "1", Email: "a@example.com"}, Verified: true},
	})
	failing := providers.OAuthConfig[profile.Claims]{
		ID: "x", Name: "X", Type: providers.TypeOAuth,
		Profile: func(context.Context, profile.Claims, account.TokenSet) (profile.User, error) {
			return profile.User{}, errors.New("no user")
		},
	}.OAuth()
	CheckMapping(t, failing, []MappingCase{{Name: "error", JSON: `{}`, WantErr: true}})
}
