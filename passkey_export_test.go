package gatehouse

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"

	"github.com/descope/virtualwebauthn"
)

// NewTestCredential is a software passkey credential for the tests, with
// a P-256 key whose coordinates are both 32 bytes long. virtualwebauthn
// encodes them with big.Int.Bytes, without padding, so about one key in
// 128 has a short coordinate, which go-webauthn rightly refuses ("EC2 key
// x or y coordinate has invalid length"): such keys are drawn again.
func NewTestCredential() virtualwebauthn.Credential {
	for {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			panic(err)
		}
		if len(k.X.Bytes()) != 32 || len(k.Y.Bytes()) != 32 {
			continue
		}
		der, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			panic(err)
		}
		return virtualwebauthn.NewCredentialWithImportedKey(virtualwebauthn.KeyTypeEC2, der)
	}
}
