package password

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// PwnedPasswordsURL is the range endpoint of Have I Been Pwned's Pwned
// Passwords, for [RangeAPI].
const PwnedPasswordsURL = "https://api.pwnedpasswords.com/range/"

// maxRangeResponse bounds the body read from a range API. Pwned
// Passwords answers with about a thousand lines of 40 bytes or so.
const maxRangeResponse = 1 << 20

// RangeAPI returns a [Policy.Breached] hook that asks a k-anonymity range
// API whether a password is known from a breach, in the protocol of Have
// I Been Pwned's Pwned Passwords: the hook sends only the first five hex
// digits of the password's SHA-1 (GET baseURL+"ABCDE"), and the service
// answers with the remaining 35 digits of every breached hash that starts
// with them, one "SUFFIX:COUNT" per line. The password and its full hash
// never leave the process. The hook asks for padding (the Add-Padding
// header), so the response size does not reveal the prefix; padding lines
// have a count of 0 and are ignored.
//
// A nil client means [http.DefaultClient]; give the request a deadline
// through the context or the client's Timeout.
func RangeAPI(client *http.Client, baseURL string) func(context.Context, string) (bool, error) {
	if client == nil {
		client = http.DefaultClient
	}
	return func(ctx context.Context, password string) (bool, error) {
		sum := sha1.Sum([]byte(password))
		digits := bytes.ToUpper([]byte(hex.EncodeToString(sum[:])))
		prefix, suffix := digits[:5], digits[5:]
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, baseURL+string(prefix), nil)
		if err != nil {
			return false, err
		}
		req.Header.Set("Add-Padding", "true")
		resp, err := client.Do(req)
		if err != nil {
			return false, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return false, fmt.Errorf("password: range API answered %s", resp.Status)
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxRangeResponse+1))
		if err != nil {
			return false, err
		}
		if len(body) > maxRangeResponse {
			return false, fmt.Errorf("password: range API answer over %d bytes", maxRangeResponse)
		}
		for line := range bytes.Lines(body) {
			hashSuffix, count, ok := bytes.Cut(bytes.TrimSpace(line), []byte(":"))
			if !ok || !bytes.EqualFold(hashSuffix, suffix) {
				continue
			}
			n, err := strconv.ParseUint(string(count), 10, 64)
			return err == nil && n > 0, nil
		}
		return false, nil
	}
}
