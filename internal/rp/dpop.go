package rp

// DPoP (RFC 9449): sender-constrained access tokens. Each provider with
// Client.DPoPBoundAccessTokens has a key pair; every request to its token
// and PAR endpoints, and every API call made with its tokens through the
// Handler, carries a proof signed with the key, so that a stolen access
// token is useless without it.

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"golang.org/x/oauth2"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// dpopKey signs DPoP proofs.
type dpopKey struct {
	signer jose.Signer
	jkt    string // RFC 7638 thumbprint of the public key, base64url
}

// dpop returns the provider's DPoP key: Client.DPoPKey, or one made on
// first use that lives as long as the Handler.
func (p *Provider) dpop() (*dpopKey, error) {
	x := &p.ext
	x.dpopOnce.Do(func() {
		k := p.cfg.Client.DPoPKey
		if k == nil {
			priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
			if err != nil {
				x.dpopErr = err
				return
			}
			k = &jose.JSONWebKey{Key: priv}
		}
		alg, err := providers.SigningAlgorithm(k)
		if err != nil {
			x.dpopErr = err
			return
		}
		pub := k.Public()
		tp, err := pub.Thumbprint(crypto.SHA256)
		if err != nil {
			x.dpopErr = err
			return
		}
		// The proof's header carries the public key (RFC 9449 §4.2: typ
		// dpop+jwt, alg, jwk); go-jose embeds it from the private key.
		opts := (&jose.SignerOptions{EmbedJWK: true}).WithType("dpop+jwt")
		signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: k.Key}, opts)
		if err != nil {
			x.dpopErr = err
			return
		}
		x.dpopKey = &dpopKey{signer: signer, jkt: base64.RawURLEncoding.EncodeToString(tp)}
	})
	return x.dpopKey, x.dpopErr
}

// dpopClaims are the claims of a DPoP proof (RFC 9449 §4.2).
type dpopClaims struct {
	ID    string           `json:"jti"`
	HTM   string           `json:"htm"`
	HTU   string           `json:"htu"`
	IAT   *jwt.NumericDate `json:"iat"`
	ATH   string           `json:"ath,omitempty"`
	Nonce string           `json:"nonce,omitempty"`
}

// addProof sets the DPoP header of req: a new proof for its method and
// URL, bound to accessToken by ath when one is given (RFC 9449 §4.2,
// §7.1), with the latest nonce the server sent.
func (p *Provider) addProof(req *http.Request, accessToken string) error {
	k, err := p.dpop()
	if err != nil {
		return err
	}
	// htu: the target URI without query and fragment (RFC 9449 §4.2).
	u := url.URL{Scheme: req.URL.Scheme, Host: req.URL.Host, Path: req.URL.Path, RawPath: req.URL.RawPath}
	c := dpopClaims{ID: rand.Text(), HTM: req.Method, HTU: u.String(), IAT: jwt.NewNumericDate(time.Now())}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		c.ATH = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	c.Nonce, _ = p.ext.nonces.Get(originOf(req.URL), time.Now())
	proof, err := jwt.Signed(k.signer).Claims(c).Serialize()
	if err != nil {
		return err
	}
	req.Header.Set("DPoP", proof)
	return nil
}

// keepNonce remembers the DPoP-Nonce of resp for later proofs to its
// server, and reports whether it had one.
func (p *Provider) keepNonce(u *url.URL, resp *http.Response) bool {
	n := resp.Header.Get("DPoP-Nonce")
	// A nonce is opaque but printable ASCII (RFC 9449 §8.1, NQCHAR);
	// anything else, or an absurd length, is not kept.
	if n == "" || len(n) > 512 || strings.ContainsFunc(n, func(r rune) bool { return r < 0x21 || r > 0x7e || r == '"' || r == '\\' }) {
		return false
	}
	p.ext.nonces.Set(originOf(u), n, time.Time{}, time.Now())
	return true
}

// isDPoP reports whether a token type is DPoP (RFC 9449 §5: case
// insensitive).
func isDPoP(tokenType string) bool { return strings.EqualFold(tokenType, "DPoP") }

// apiTransport sends a request with the access token of src: as a DPoP
// token with a new proof per request (RFC 9449 §7.1) when its type is
// DPoP, else as a Bearer token (RFC 6750 §2.1). A 401 asking for a DPoP
// nonce (RFC 9449 §9) is answered by sending the request once more, when
// its body can be sent again.
type apiTransport struct {
	p    *Provider
	src  oauth2.TokenSource
	base http.RoundTripper
}

func (t *apiTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	tok, err := t.src.Token()
	if err != nil {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, err
	}
	if !isDPoP(tok.Type()) {
		req := r.Clone(r.Context())
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		return base.RoundTrip(req)
	}
	for attempt := 0; ; attempt++ {
		req := r.Clone(r.Context())
		if attempt > 0 && r.GetBody != nil {
			body, err := r.GetBody()
			if err != nil {
				return nil, err
			}
			req.Body = body
		}
		req.Header.Set("Authorization", "DPoP "+tok.AccessToken)
		if err := t.p.addProof(req, tok.AccessToken); err != nil {
			return nil, err
		}
		resp, err := base.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		retry := t.p.keepNonce(req.URL, resp) && attempt == 0 && resp.StatusCode == http.StatusUnauthorized &&
			strings.Contains(resp.Header.Get("WWW-Authenticate"), "use_dpop_nonce") &&
			(r.Body == nil || r.Body == http.NoBody || r.GetBody != nil)
		if !retry {
			return resp, nil
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
	}
}

// APIClient is the HTTP client for the provider's userinfo endpoint and
// custom handlers: p.client, sending DPoP tokens as DPoP tokens. A
// request's own Authorization header is replaced. Neither it nor
// Handler.Client follows redirects, whatever Config.HTTPClient does.
func (p *Provider) APIClient(tokens account.TokenSet) *http.Client {
	if !isDPoP(tokens.TokenType) {
		return p.client
	}
	return p.TokenClient(oauth2.StaticTokenSource(&oauth2.Token{AccessToken: tokens.AccessToken, TokenType: tokens.TokenType}))
}

// TokenClient is p.client sending the tokens of src through apiTransport.
func (p *Provider) TokenClient(src oauth2.TokenSource) *http.Client {
	return &http.Client{
		Transport:     &apiTransport{p: p, src: src, base: p.client.Transport},
		Timeout:       p.client.Timeout,
		CheckRedirect: noRedirect, // the transport adds the token to every request, a redirect's too
	}
}
