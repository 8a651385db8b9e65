package authtest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"sync"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// unknownKID is the kid of Faults.IDTokenUnknownKID.
const unknownKID = "authtest-unknown-kid"

// newKey makes a private signing key for alg, with its RFC 7638
// thumbprint as kid.
func newKey(alg jose.SignatureAlgorithm) (*jose.JSONWebKey, error) {
	var priv crypto.Signer
	var err error
	switch alg {
	case jose.ES256:
		priv, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	default:
		priv, err = rsa.GenerateKey(rand.Reader, 2048)
	}
	if err != nil {
		return nil, fmt.Errorf("authtest: generating a key: %w", err)
	}
	k := &jose.JSONWebKey{Key: priv, Algorithm: string(alg), Use: "sig"}
	tp, err := k.Thumbprint(crypto.SHA256)
	if err != nil {
		return nil, fmt.Errorf("authtest: key thumbprint: %w", err)
	}
	k.KeyID = base64.RawURLEncoding.EncodeToString(tp)
	return k, nil
}

// spare keys: the JWKS's extra keys and the foreign key of the faults are
// made once per process and shared by every Provider (a Provider's own
// signing key never is). Making an RSA key inside a request took seconds
// on a loaded machine, longer than the timeouts the tests set.
var spares struct {
	sync.Mutex
	keys map[spareID]*jose.JSONWebKey
}

type spareID struct {
	alg     jose.SignatureAlgorithm
	foreign bool
	i       int
}

// spareKey returns the i-th shared extra key for alg (or its foreign key),
// making it on first use.
func spareKey(alg jose.SignatureAlgorithm, foreign bool, i int) (*jose.JSONWebKey, error) {
	spares.Lock()
	defer spares.Unlock()
	id := spareID{alg, foreign, i}
	if k, ok := spares.keys[id]; ok {
		return k, nil
	}
	k, err := newKey(alg)
	if err != nil {
		return nil, err
	}
	if spares.keys == nil {
		spares.keys = map[spareID]*jose.JSONWebKey{}
	}
	spares.keys[id] = k
	return k, nil
}

// warmSpares makes, in the background and once per process, the spare
// keys the faults use most (the foreign key and two extra keys), so that
// the first test that needs them does not wait for them inside a request.
func warmSpares(alg jose.SignatureAlgorithm) {
	spares.Lock()
	_, done := spares.keys[spareID{alg, true, 0}]
	spares.Unlock()
	if done {
		return
	}
	go func() {
		spareKey(alg, true, 0)
		spareKey(alg, false, 0)
		spareKey(alg, false, 1)
	}()
}

// jwks returns the public JWKS under the faults f: JWKSExtraKeys other
// keys, then the signing key.
func (p *Provider) jwks(f Faults) (jose.JSONWebKeySet, error) {
	p.mu.Lock()
	have := len(p.extraKeys)
	p.mu.Unlock()
	for i := have; i < f.JWKSExtraKeys; i++ {
		k, err := spareKey(p.alg, false, i)
		if err != nil {
			return jose.JSONWebKeySet{}, err
		}
		p.mu.Lock()
		p.extraKeys = append(p.extraKeys, k)
		p.mu.Unlock()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var set jose.JSONWebKeySet
	for _, k := range p.extraKeys[:max(f.JWKSExtraKeys, 0)] {
		set.Keys = append(set.Keys, k.Public())
	}
	set.Keys = append(set.Keys, p.key.Public())
	return set, nil
}

// ensureForeignKey returns the key of Faults.IDTokenForeignKey, making it
// the first time.
func (p *Provider) ensureForeignKey() (*jose.JSONWebKey, error) {
	p.mu.Lock()
	foreign := p.foreignKey
	p.mu.Unlock()
	if foreign != nil {
		return foreign, nil
	}
	k, err := spareKey(p.alg, true, 0)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.foreignKey == nil {
		p.foreignKey = k
	}
	return p.foreignKey, nil
}

// noneSigner is a go-jose OpaqueSigner for alg "none": it signs nothing,
// so the JWS it takes part in has an empty signature.
type noneSigner struct{}

func (noneSigner) Public() *jose.JSONWebKey { return nil }

func (noneSigner) Algs() []jose.SignatureAlgorithm { return []jose.SignatureAlgorithm{"none"} }

func (noneSigner) SignPayload([]byte, jose.SignatureAlgorithm) ([]byte, error) { return nil, nil }

// signIDToken signs claims as a compact JWT, with the signature faults of
// f. The key faults (alg none, foreign key, HS256) and the kid faults
// (unknown, omitted) combine.
func (p *Provider) signIDToken(claims map[string]any, f Faults) (string, error) {
	p.mu.Lock()
	key := p.key
	p.mu.Unlock()
	var sk jose.SigningKey
	switch {
	case f.IDTokenAlgNone:
		sk = jose.SigningKey{Algorithm: "none", Key: noneSigner{}}
	case f.IDTokenForeignKey:
		foreign, err := p.ensureForeignKey()
		if err != nil {
			return "", err
		}
		sk = jose.SigningKey{Algorithm: p.alg, Key: foreign.Key}
	case f.IDTokenHS256PublicKey:
		der, err := x509.MarshalPKIXPublicKey(key.Public().Key)
		if err != nil {
			return "", fmt.Errorf("authtest: encoding the public key: %w", err)
		}
		secret := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
		sk = jose.SigningKey{Algorithm: jose.HS256, Key: secret}
	default:
		sk = jose.SigningKey{Algorithm: p.alg, Key: key.Key}
	}
	// The signer is given bare key material, so the kid header is ours to
	// set.
	opts := (&jose.SignerOptions{}).WithType("JWT")
	switch {
	case f.IDTokenOmitKID:
	case f.IDTokenUnknownKID:
		opts = opts.WithHeader("kid", unknownKID)
	default:
		opts = opts.WithHeader("kid", key.KeyID)
	}
	return signJWT(sk, opts, claims, "ID token")
}

// signJWT signs claims with sk and opts into a compact JWT; what names
// the token in an error.
func signJWT(sk jose.SigningKey, opts *jose.SignerOptions, claims any, what string) (string, error) {
	signer, err := jose.NewSigner(sk, opts)
	if err != nil {
		return "", fmt.Errorf("authtest: signer: %w", err)
	}
	tok, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		return "", fmt.Errorf("authtest: signing the %s: %w", what, err)
	}
	return tok, nil
}

// verifyIDToken checks that tok is an ID token signed with the current
// key and returns its claims. Expiry is not checked: an expired ID token
// is still a valid id_token_hint.
func (p *Provider) verifyIDToken(tok string) (map[string]any, error) {
	p.mu.Lock()
	key := p.key
	p.mu.Unlock()
	parsed, err := jwt.ParseSigned(tok, []jose.SignatureAlgorithm{p.alg})
	if err != nil {
		return nil, err
	}
	var claims map[string]any
	if err := parsed.Claims(key.Public(), &claims); err != nil {
		return nil, err
	}
	return claims, nil
}

// atHash is the at_hash of an access token for RS256 and ES256: the left
// half of its SHA-256, base64url encoded.
func atHash(accessToken string) string {
	sum := sha256.Sum256([]byte(accessToken))
	return base64.RawURLEncoding.EncodeToString(sum[:len(sum)/2])
}

// randomToken returns an unguessable token: 256 random bits in base32.
func randomToken() string {
	return rand.Text() + rand.Text()
}
