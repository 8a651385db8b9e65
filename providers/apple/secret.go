package apple

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// MaxClientSecretTTL is the longest lifetime Apple accepts for a client
// secret: 15777000 seconds, about six months.
const MaxClientSecretTTL = 15777000 * time.Second

// ClientSecret makes the client secret Apple's token endpoint expects: a
// JWT signed with ES256 by the key keyID of the team teamID, with
//
//	header  {"alg": "ES256", "kid": keyID}
//	claims  {"iss": teamID, "iat": now, "exp": now+ttl,
//	         "aud": "https://appleid.apple.com", "sub": clientID}
//
// clientID is the Services ID. key is the P-256 private key downloaded
// from the developer account (see ParsePrivateKey). ttl must be positive
// and at most MaxClientSecretTTL; make a new secret before it runs out.
func ClientSecret(teamID, keyID, clientID string, key *ecdsa.PrivateKey, ttl time.Duration) (string, error) {
	return clientSecret(teamID, keyID, clientID, key, ttl, time.Now())
}

func clientSecret(teamID, keyID, clientID string, key *ecdsa.PrivateKey, ttl time.Duration, now time.Time) (string, error) {
	switch {
	case teamID == "" || keyID == "" || clientID == "":
		return "", errors.New("apple: client secret needs the team id, the key id and the client id")
	case key == nil || key.Curve != elliptic.P256():
		return "", errors.New("apple: client secret needs a P-256 private key")
	case ttl <= 0 || ttl > MaxClientSecretTTL:
		return "", fmt.Errorf("apple: client secret lifetime %v is not in (0, %v]", ttl, MaxClientSecretTTL)
	}
	signer, err := jose.NewSigner(
		jose.SigningKey{Algorithm: jose.ES256, Key: key},
		(&jose.SignerOptions{}).WithHeader("kid", keyID),
	)
	if err != nil {
		return "", fmt.Errorf("apple: client secret: %w", err)
	}
	now = now.Truncate(time.Second)
	claims := jwt.Claims{
		Issuer:   teamID,
		Subject:  clientID,
		Audience: jwt.Audience{Issuer},
		IssuedAt: jwt.NewNumericDate(now),
		Expiry:   jwt.NewNumericDate(now.Add(ttl)),
	}
	s, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		return "", fmt.Errorf("apple: client secret: %w", err)
	}
	return s, nil
}

// ParsePrivateKey reads the private key file (AuthKey_<keyID>.p8) that the
// Apple developer account gives: a PEM "PRIVATE KEY" block holding a
// PKCS #8 P-256 key.
func ParsePrivateKey(pemBytes []byte) (*ecdsa.PrivateKey, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return nil, errors.New("apple: private key: no PEM block")
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("apple: private key: %w", err)
	}
	ec, ok := k.(*ecdsa.PrivateKey)
	if !ok || ec.Curve != elliptic.P256() {
		return nil, errors.New("apple: private key is not a P-256 key")
	}
	return ec, nil
}
