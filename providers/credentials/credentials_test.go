package credentials_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
)

func none(context.Context, map[string]string, *http.Request) (*profile.User, error) { return nil, nil }

func TestPrepare(t *testing.T) {
	c, err := credentials.Config{Fields: []credentials.Field{{Name: "email"}, {Name: "password"}}, Authorize: none}.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	if c.ID != "credentials" || c.Name != "Credentials" || c.IdentifierField != "email" || c.PerIP == nil || c.PerIdentifier == nil || c.ClientIP == nil {
		t.Fatalf("defaults: %+v", c)
	}
	if _, ok := c.PerIdentifier.(*limit.Memory); !ok {
		t.Fatalf("PerIdentifier is %T", c.PerIdentifier)
	}
	if ip := c.ClientIP(&http.Request{RemoteAddr: "192.0.2.7:5555"}); ip != "192.0.2.7" {
		t.Fatalf("ClientIP = %q", ip)
	}
	for name, tc := range map[string]struct {
		c     credentials.Config
		field string
	}{
		"no authorize":  {credentials.Config{Fields: []credentials.Field{{Name: "u"}}}, "authorize"},
		"no fields":     {credentials.Config{Authorize: none}, "credentials"},
		"unnamed field": {credentials.Config{Fields: []credentials.Field{{Label: "U"}}, Authorize: none}, "credentials"},
		"reserved":      {credentials.Config{Fields: []credentials.Field{{Name: "callbackUrl"}}, Authorize: none}, "credentials"},
		"twice":         {credentials.Config{Fields: []credentials.Field{{Name: "u"}, {Name: "u"}}, Authorize: none}, "credentials"},
		"unknown ident": {credentials.Config{Fields: []credentials.Field{{Name: "u"}}, IdentifierField: "x", Authorize: none}, "identifierField"},
		"bad id":        {credentials.Config{ID: "Creds!", Fields: []credentials.Field{{Name: "u"}}, Authorize: none}, "id"},
	} {
		if _, err := tc.c.Prepare(); err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: %v, want an error about %s", name, err, tc.field)
		}
	}
}

func TestSignInErrorIsInvalid(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", &credentials.SignInError{Code: "locked"})
	var se *credentials.SignInError
	if !errors.Is(err, credentials.ErrInvalid) || !errors.As(err, &se) || se.Code != "locked" {
		t.Fatalf("%v", err)
	}
}

// A username and password form checked by the application.
func ExampleConfig() {
	p := credentials.Config{
		Name: "Password",
		Fields: []credentials.Field{
			{Name: "username", Label: "Username", Autocomplete: "username", Required: true},
			{Name: "password", Label: "Password", Type: "password", Autocomplete: "current-password", Required: true},
		},
		Authorize: func(ctx context.Context, c map[string]string, r *http.Request) (*profile.User, error) {
			if c["username"] != "alice" || c["password"] != "wonderland" { // use a password hash in real code
				return nil, credentials.ErrInvalid
			}
			return &profile.User{ID: "alice", Name: "Alice"}, nil
		},
	}
	fmt.Println(p.ProviderBase().ID, p.ProviderBase().Type)
	// Output: credentials credentials
}
