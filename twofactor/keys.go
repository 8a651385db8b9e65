package twofactor

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/gorilla/securecookie"
)

// MinSecretLen is the shortest app secret NewKeys accepts, in bytes, as
// gatehouse.New requires outside development.
const MinSecretLen = 32

// Keys holds the keys this package derives from the app's secrets with
// HKDF (RFC 5869), each for one purpose so that none can stand in for
// another: sealing TOTP secrets, hashing backup codes and sealing pending
// sign-ins. The newest secret comes first and is used to seal and hash;
// every secret is tried to open and to match, so a new secret can be put
// in front without locking anyone out. A secret taken out of the list
// takes with it the TOTP secrets sealed and backup codes hashed under it:
// keep it until the users who enrolled under it have enrolled again.
type Keys struct {
	sets []keySet
}

// keySet is the keys derived from one secret.
type keySet struct {
	seal    cipher.AEAD        // AES-256-GCM for TOTP secrets
	backup  []byte             // HMAC-SHA-256 key for backup codes
	pending securecookie.Codec // for pending sign-ins
}

// NewKeys derives the keys from secrets, newest first. Each secret must
// have at least MinSecretLen bytes.
func NewKeys(secrets []string) (*Keys, error) {
	if len(secrets) == 0 {
		return nil, errors.New("twofactor: no secret")
	}
	k := &Keys{}
	for i, s := range secrets {
		if len(s) < MinSecretLen {
			return nil, fmt.Errorf("twofactor: secret %d is %d bytes; at least %d are required", i+1, len(s), MinSecretLen)
		}
		set, err := deriveKeySet(s)
		if err != nil {
			return nil, err
		}
		k.sets = append(k.sets, set)
	}
	return k, nil
}

func deriveKeySet(secret string) (keySet, error) {
	derive := func(info string, n int) ([]byte, error) {
		return hkdf.Key(sha256.New, []byte(secret), []byte("gatehouse two-factor"), info, n)
	}
	sealKey, err := derive("Gatehouse TOTP secret sealing", 32)
	if err != nil {
		return keySet{}, err
	}
	block, err := aes.NewCipher(sealKey)
	if err != nil {
		return keySet{}, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return keySet{}, err
	}
	backup, err := derive("Gatehouse backup code hash", 32)
	if err != nil {
		return keySet{}, err
	}
	pending, err := derive("Gatehouse pending two-factor sign-in", 64)
	if err != nil {
		return keySet{}, err
	}
	codec := securecookie.New(pending[:32], pending[32:])
	codec.MaxAge(0) // the age is checked by OpenPending, against its clock
	codec.SetSerializer(securecookie.JSONEncoder{})
	return keySet{seal: aead, backup: backup, pending: codec}, nil
}

// sealedPrefix starts every sealed TOTP secret: the format's version.
const sealedPrefix = "v1."

// sealAD is the associated data of userID's sealed secret. It binds the
// ciphertext to the user: someone who can write the database but does not
// know the app secret cannot copy their own sealed secret (whose codes
// they know) into another user's row.
func sealAD(userID string) []byte { return []byte("gatehouse totp secret\x00" + userID) }

// SealSecret encrypts userID's TOTP secret (base32) with AES-256-GCM under
// the newest key, for the Store. A leak of the database alone then yields
// no TOTP secret.
func (k *Keys) SealSecret(userID, secret string) (string, error) {
	aead := k.sets[0].seal
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(secret)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	sealed := aead.Seal(nonce, nonce, []byte(secret), sealAD(userID))
	return sealedPrefix + base64.RawURLEncoding.EncodeToString(sealed), nil
}

// OpenSecret decrypts a secret sealed by SealSecret for userID, trying
// every key.
func (k *Keys) OpenSecret(userID, sealed string) (string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(sealed, sealedPrefix))
	if err != nil || !strings.HasPrefix(sealed, sealedPrefix) {
		return "", errors.New("twofactor: malformed sealed secret")
	}
	for _, set := range k.sets {
		n := set.seal.NonceSize()
		if len(raw) < n {
			break
		}
		if plain, err := set.seal.Open(nil, raw[:n], raw[n:], sealAD(userID)); err == nil {
			return string(plain), nil
		}
	}
	return "", errors.New("twofactor: sealed secret does not open with any key (tampered, another user's, or sealed with a retired secret)")
}

// HashBackupCode returns the stored form of a backup code: HMAC-SHA-256
// under the newest key, base64url. Code is normalized first (see
// NormalizeBackupCode).
func (k *Keys) HashBackupCode(code string) string {
	return k.hashBackupCodes(code)[0]
}

// hashBackupCodes returns code's hash under every key, newest first.
func (k *Keys) hashBackupCodes(code string) []string {
	code = NormalizeBackupCode(code)
	hashes := make([]string, len(k.sets))
	for i, set := range k.sets {
		m := hmac.New(sha256.New, set.backup)
		m.Write([]byte(code))
		hashes[i] = base64.RawURLEncoding.EncodeToString(m.Sum(nil))
	}
	return hashes
}
