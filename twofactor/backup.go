package twofactor

import (
	"crypto/rand"
	"strings"
)

// BackupCodeCount is how many backup codes a user gets at a time.
const BackupCodeCount = 10

// backupAlphabet is Crockford's base32: digits and lower-case letters
// without i, l, o and u, so that no two characters look alike.
const backupAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// backupCodeLen is the length of a backup code without its hyphen: 10
// characters of 5 bits, 50 bits of entropy.
const backupCodeLen = 10

// NewBackupCodes returns BackupCodeCount new random backup codes, such as
// "7kq2m-x9d0c", to show the user once, and their hashes, to store. The
// codes themselves must not be stored or logged.
//
// Why an HMAC and not a slow password hash suffices: a code is 50 random
// bits from crypto/rand, not a human choice, so there is no dictionary to
// try and guessing online against the rate limits is hopeless (10 codes in
// 2^50). Offline, the hashes are keyed with a key derived from the app
// secret, which the database does not hold: a database leak alone gives
// nothing to guess against. Whoever has the app secret too can open the
// sealed TOTP secrets anyway, so slowing down the backup code hashes
// would protect nothing more.
func (k *Keys) NewBackupCodes() (codes, hashes []string, err error) {
	raw := make([]byte, BackupCodeCount*backupCodeLen)
	if _, err := rand.Read(raw); err != nil {
		return nil, nil, err
	}
	for i := range BackupCodeCount {
		var b strings.Builder
		for j, r := range raw[i*backupCodeLen : (i+1)*backupCodeLen] {
			if j == backupCodeLen/2 {
				b.WriteByte('-')
			}
			// 256 is a multiple of 32: every character is equally likely.
			b.WriteByte(backupAlphabet[r%32])
		}
		codes = append(codes, b.String())
		hashes = append(hashes, k.HashBackupCode(b.String()))
	}
	return codes, hashes, nil
}

// NormalizeBackupCode returns code as it is hashed: lower case, without
// spaces and hyphens, with the letters Crockford's base32 leaves out read
// as the digits they look like (i and l as 1, o as 0).
func NormalizeBackupCode(code string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-':
			return -1
		case 'i', 'I', 'l', 'L':
			return '1'
		case 'o', 'O':
			return '0'
		}
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, code)
}

// looksLikeBackupCode tells whether code, normalized, has the shape of a
// backup code.
func looksLikeBackupCode(code string) bool {
	code = NormalizeBackupCode(code)
	return len(code) == backupCodeLen && strings.Trim(code, backupAlphabet) == ""
}
