package passkey_test

import (
	"fmt"

	"github.com/gatehouse-auth/gatehouse/providers/passkey"
)

// The passkey provider for a site at https://app.example.com, whose
// passkeys also work on the other subdomains of example.com.
func ExampleNew() {
	p := passkey.New(passkey.WebAuthnConfig{
		RPID:   "example.com",
		RPName: "Example",
		Origin: "https://app.example.com",
	})
	fmt.Println(p.ID, p.Name, p.UserVerification, p.ResidentKey, p.Timeout)
	// Output: passkey Passkey required required 5m0s
}
