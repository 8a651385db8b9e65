package password_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gatehouse-auth/gatehouse/password"
)

func Example() {
	ctx := context.Background()
	h, err := password.NewHasher(password.DefaultParams, 0)
	if err != nil {
		panic(err)
	}
	// In production, Breached: password.RangeAPI(nil, password.PwnedPasswordsURL).
	policy := password.Policy{Breached: func(_ context.Context, pw string) (bool, error) {
		return pw == "password", nil
	}}

	// Sign-up: check the rules, then hash.
	for _, pw := range []string{"hunter2", "password", "correct horse battery staple"} {
		fmt.Printf("%q: %v\n", pw, policy.Check(ctx, pw))
	}
	encoded, err := h.Hash(ctx, "correct horse battery staple")
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.HasPrefix(encoded, "$argon2id$v=19$m=19456,t=2,p=1$"))

	// Sign-in.
	fmt.Println(h.Verify(ctx, "correct horse battery staple", encoded))
	fmt.Println(errors.Is(h.Verify(ctx, "Tr0ub4dor&3", encoded), password.ErrMismatch))
	fmt.Println(h.DummyVerify(ctx, "for an unknown user"))
	fmt.Println(h.NeedsRehash(encoded))
	// Output:
	// "hunter2": password: too short (minimum 8 characters)
	// "password": password: found in a data breach, choose another
	// "correct horse battery staple": <nil>
	// true
	// <nil>
	// true
	// password: wrong password
	// false
}
