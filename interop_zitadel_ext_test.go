package gatehouse_test

// private_key_jwt against zitadel/oidc's OpenID provider. (Its op package
// has no pushed authorization request endpoint: PAR is tested against
// authtest only.)

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// keyJWTStorage is the example storage with the web client registered
// for private_key_jwt, with the public keys in keys.
type keyJWTStorage struct {
	*storage.Storage
	keys jose.JSONWebKeySet
}

type keyJWTClient struct{ op.Client }

func (keyJWTClient) AuthMethod() oidc.AuthMethod { return oidc.AuthMethodPrivateKeyJWT }

func (s *keyJWTStorage) GetClientByClientID(ctx context.Context, id string) (op.Client, error) {
	c, err := s.Storage.GetClientByClientID(ctx, id)
	if err != nil || id != zitadelClientID {
		return c, err
	}
	return keyJWTClient{c}, nil
}

func (s *keyJWTStorage) GetKeyByIDAndClientID(_ context.Context, kid, clientID string) (*jose.JSONWebKey, error) {
	if keys := s.keys.Key(kid); clientID == zitadelClientID && len(keys) == 1 {
		return &keys[0], nil
	}
	return nil, errors.New("key not found")
}

func TestZitadelPrivateKeyJWT(t *testing.T) {
	current, old := newRSAKey(t, "current"), newRSAKey(t, "old")
	ln := listenLoopback(t)
	redirectURI := "http://" + ln.Addr().String() + "/auth/callback/zitadel"
	z := newZitadelOPWith(t, func(st *storage.Storage) exampleop.Storage {
		return &keyJWTStorage{Storage: st, keys: publicSet(old, current)}
	}, redirectURI)
	a := startInteropApp(t, ln, gatehouse.Config{
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{
			ID: "zitadel", Name: "ZITADEL", Type: providers.TypeOIDC, Issuer: z.issuer, ClientID: zitadelClientID,
			Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"scope": "openid profile email offline_access"}},
			Client: providers.Client{TokenEndpointAuthMethod: providers.AuthPrivateKeyJWT,
				JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{current, old}}},
		}},
		Callbacks: gatehouse.Callbacks{JWT: gatehouse.KeepTokens(nil)},
	})
	b := newBrowser(t)
	resp, body := b.zitadelSignIn(a, z, z.password, "/private")
	if resp.Request.URL.String() != a.url+"/private" || body != "hello test-user@zitadel.ch" {
		t.Fatalf("landed on %s (%d) with %q (hops %v)", resp.Request.URL, resp.StatusCode, body, b.hops)
	}

	// The refresh authenticates with a new assertion too.
	w := httptest.NewRecorder()
	ts, err := a.h.TokenSource(context.Background(), w, b.appRequest(a), "zitadel", gatehouse.MinValidity(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if tok, err := ts.Token(); err != nil || tok.AccessToken == "" {
		t.Fatalf("refresh with private_key_jwt: %v", err)
	}

	z.mu.Lock()
	forms, basic := z.tokenForms, z.tokenAuth
	z.mu.Unlock()
	if len(forms) != 2 || forms[1].Get("grant_type") != "refresh_token" {
		t.Fatalf("%d token requests, want the code exchange and a refresh", len(forms))
	}
	for i, f := range forms {
		tok, err := jwt.ParseSigned(f.Get("client_assertion"), []jose.SignatureAlgorithm{jose.RS256})
		var c jwt.Claims
		if err == nil {
			err = tok.Claims(current.Public(), &c)
		}
		if err != nil || basic[i] != "" || f.Has("client_secret") || tok.Headers[0].KeyID != "current" ||
			c.Issuer != zitadelClientID || c.Subject != zitadelClientID || !strings.EqualFold(strings.Join(c.Audience, " "), z.issuer) {
			t.Fatalf("token request %d: %v, claims %+v, basic %q, form %v", i, err, c, basic[i], f)
		}
	}
}

// zitadel refuses an assertion signed with a key it does not have.
func TestZitadelPrivateKeyJWTUnknownKey(t *testing.T) {
	registered, unknown := newRSAKey(t, "registered"), newRSAKey(t, "unknown")
	ln := listenLoopback(t)
	z := newZitadelOPWith(t, func(st *storage.Storage) exampleop.Storage {
		return &keyJWTStorage{Storage: st, keys: publicSet(registered)}
	}, "http://"+ln.Addr().String()+"/auth/callback/zitadel")
	a := startInteropApp(t, ln, gatehouse.Config{
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{
			ID: "zitadel", Name: "ZITADEL", Type: providers.TypeOIDC, Issuer: z.issuer, ClientID: zitadelClientID,
			Client: providers.Client{TokenEndpointAuthMethod: providers.AuthPrivateKeyJWT, JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{unknown}}},
		}},
	})
	b := newBrowser(t)
	resp, _ := b.zitadelSignIn(a, z, z.password, "/private")
	if q := resp.Request.URL.Query(); q.Get("error") != string(gatehouse.TokenExchangeFailed) {
		t.Fatalf("sign-in with an unknown key ended on %s", resp.Request.URL)
	}
	if s := b.session(a); s != nil {
		t.Fatalf("session = %v", s)
	}
}
