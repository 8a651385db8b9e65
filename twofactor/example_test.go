package twofactor_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/twofactor"
)

// The whole life of a second factor: enrolment, a sign-in with a TOTP
// code and one with a backup code, a replay refused.
func Example() {
	ctx := context.Background()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	svc, err := twofactor.New(twofactor.Config{
		TOTP:   twofactor.TOTP{Issuer: "Example"},
		Secret: []string{"an app secret of at least 32 bytes"},
		Store:  &twofactor.MemoryStore{},
		Now:    func() time.Time { return now },
	})
	if err != nil {
		panic(err)
	}

	// Settings page: show the QR code, then confirm a code from the app.
	e, err := svc.Enroll(ctx, "user-1", "alice@example.com")
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.SplitN(e.URI, "?", 2)[0])
	fmt.Println(strings.HasPrefix(e.QRDataURL(), "data:image/png;base64,"))
	app := twofactor.TOTP{} // what the authenticator app computes
	code, _ := app.Code(e.Secret, now)
	backup, err := svc.Confirm(ctx, "user-1", code)
	if err != nil {
		panic(err)
	}
	st, _ := svc.Status(ctx, "user-1")
	fmt.Printf("enabled: %v, backup codes: %d\n", st.Enabled, len(backup))

	// Sign-in, a minute later: the password passed, so a pending sign-in
	// bound to the browser's CSRF cookie goes to the browser.
	now = now.Add(time.Minute)
	sealed, _, err := svc.StartPending(twofactor.Pending{UserID: "user-1", Provider: "credentials"}, "csrf-cookie-value")
	if err != nil {
		panic(err)
	}
	// The second step: open the pending sign-in, then check the code.
	p, err := svc.OpenPending(sealed, "csrf-cookie-value")
	if err != nil {
		panic(err)
	}
	code, _ = app.Code(e.Secret, now)
	method, err := svc.Verify(ctx, p.UserID, code)
	fmt.Println(p.UserID, p.Provider, method, err)
	_, err = svc.Verify(ctx, p.UserID, code)
	fmt.Println(err)
	method, err = svc.Verify(ctx, p.UserID, backup[0])
	fmt.Println(method, err)
	_, err = svc.OpenPending(sealed, "another browser's cookie")
	fmt.Println(err)

	// Output:
	// otpauth://totp/Example:alice@example.com
	// true
	// enabled: true, backup codes: 10
	// user-1 credentials totp <nil>
	// twofactor: code already used
	// backup <nil>
	// twofactor: pending sign-in bound to another browser
}
