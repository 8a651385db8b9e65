// Package storetest is the conformance suite for twofactor.Store
// implementations. Every implementation's own tests call Run:
//
//	func TestTwoFactorStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) twofactor.Store {
//			return newEmptyStore(t)
//		})
//	}
//
// newStore must return a new, empty store each time it is called and
// arrange its clean-up with t.Cleanup. Subtests run in parallel, each on
// its own store.
//
// The suite names its users "alice", "bob" and "nobody". A store that
// keeps secrets only for users that exist (an adapter whose table
// references its users) calls RunWithUsers instead, with a function that
// creates each user and returns its id.
package storetest

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"

	"github.com/gatehouse-auth/gatehouse/twofactor"
)

// Racers is the number of goroutines the concurrency tests start at once.
const Racers = 20

// Run runs the conformance suite against the stores newStore returns,
// using the suite's user names as user ids.
func Run(t *testing.T, newStore func(t *testing.T) twofactor.Store) {
	RunWithUsers(t, newStore, func(t *testing.T, s twofactor.Store, name string) string { return name })
}

// RunWithUsers is Run for a store that keeps secrets only for users that
// exist: each test calls createUser once for every user name it uses
// ("nobody" included, a user without a secret), on the store it was
// given, and uses the id it returns. createUser fails the test with
// t.Fatal when it cannot create the user.
func RunWithUsers(t *testing.T, newStore func(t *testing.T) twofactor.Store,
	createUser func(t *testing.T, s twofactor.Store, name string) string) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s twofactor.Store, id func(name string) string)
	}{
		{"NotEnrolled", testNotEnrolled},
		{"SetAndGet", testSetAndGet},
		{"Delete", testDelete},
		{"AdvanceTOTPStep", testAdvance},
		{"ReplaceBackupCodes", testReplaceBackupCodes},
		{"ConsumeBackupCode", testConsume},
		{"RaceAdvance", testRaceAdvance},
		{"RaceConsume", testRaceConsume},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st := newStore(t)
			ids := make(map[string]string)
			id := func(name string) string {
				if _, ok := ids[name]; !ok {
					ids[name] = createUser(t, st, name)
				}
				return ids[name]
			}
			tt.fn(t, st, id)
		})
	}
}

// sample is a Secret as an enrolled user's.
func sample() twofactor.Secret {
	return twofactor.Secret{Sealed: "v1.sealed", Enabled: true, LastStep: 100, BackupCodes: []string{"h1", "h2", "h3"}}
}

// set stores s for userID or fails the test.
func set(t *testing.T, st twofactor.Store, userID string, s twofactor.Secret) {
	t.Helper()
	if err := st.SetTwoFactor(context.Background(), userID, s); err != nil {
		t.Fatalf("SetTwoFactor(%q): %v", userID, err)
	}
}

// want checks that userID's stored Secret is s.
func want(t *testing.T, st twofactor.Store, userID string, s twofactor.Secret) {
	t.Helper()
	got, err := st.TwoFactor(context.Background(), userID)
	if err != nil {
		t.Fatalf("TwoFactor(%q): %v", userID, err)
	}
	if len(got.BackupCodes) == 0 && len(s.BackupCodes) == 0 {
		got.BackupCodes, s.BackupCodes = nil, nil // nil and empty are alike
	}
	if !reflect.DeepEqual(got, s) {
		t.Errorf("TwoFactor(%q) = %+v; want %+v", userID, got, s)
	}
}

func testNotEnrolled(t *testing.T, st twofactor.Store, id func(string) string) {
	ctx := context.Background()
	if _, err := st.TwoFactor(ctx, id("nobody")); !errors.Is(err, twofactor.ErrNotEnrolled) {
		t.Errorf("TwoFactor: %v; want ErrNotEnrolled", err)
	}
	if err := st.AdvanceTOTPStep(ctx, id("nobody"), 1); !errors.Is(err, twofactor.ErrNotEnrolled) {
		t.Errorf("AdvanceTOTPStep: %v; want ErrNotEnrolled", err)
	}
	if err := st.ReplaceBackupCodes(ctx, id("nobody"), []string{"h"}); !errors.Is(err, twofactor.ErrNotEnrolled) {
		t.Errorf("ReplaceBackupCodes: %v; want ErrNotEnrolled", err)
	}
	if err := st.ConsumeBackupCode(ctx, id("nobody"), "h"); !errors.Is(err, twofactor.ErrNotEnrolled) {
		t.Errorf("ConsumeBackupCode: %v; want ErrNotEnrolled", err)
	}
	if err := st.DeleteTwoFactor(ctx, id("nobody")); err != nil {
		t.Errorf("DeleteTwoFactor: %v", err)
	}
}

func testSetAndGet(t *testing.T, st twofactor.Store, id func(string) string) {
	s := sample()
	set(t, st, id("alice"), s)
	want(t, st, id("alice"), s)
	// The store keeps its own copy, and hands out copies.
	s.BackupCodes[0] = "changed"
	want(t, st, id("alice"), sample())
	got, _ := st.TwoFactor(context.Background(), id("alice"))
	got.BackupCodes[0] = "changed"
	want(t, st, id("alice"), sample())
	// Set replaces the whole Secret.
	fresh := twofactor.Secret{Sealed: "v1.other"}
	set(t, st, id("alice"), fresh)
	want(t, st, id("alice"), fresh)
	if _, err := st.TwoFactor(context.Background(), id("bob")); !errors.Is(err, twofactor.ErrNotEnrolled) {
		t.Errorf("another user: %v; want ErrNotEnrolled", err)
	}
}

func testDelete(t *testing.T, st twofactor.Store, id func(string) string) {
	set(t, st, id("alice"), sample())
	set(t, st, id("bob"), sample())
	if err := st.DeleteTwoFactor(context.Background(), id("alice")); err != nil {
		t.Fatal(err)
	}
	if _, err := st.TwoFactor(context.Background(), id("alice")); !errors.Is(err, twofactor.ErrNotEnrolled) {
		t.Errorf("after DeleteTwoFactor: %v; want ErrNotEnrolled", err)
	}
	want(t, st, id("bob"), sample())
}

func testAdvance(t *testing.T, st twofactor.Store, id func(string) string) {
	ctx := context.Background()
	set(t, st, id("alice"), sample()) // LastStep 100
	for _, tt := range []struct {
		step int64
		want error
	}{
		{100, twofactor.ErrReplayed},
		{99, twofactor.ErrReplayed},
		{101, nil},
		{101, twofactor.ErrReplayed},
		{105, nil},
		{103, twofactor.ErrReplayed},
	} {
		if err := st.AdvanceTOTPStep(ctx, id("alice"), tt.step); !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
			t.Errorf("AdvanceTOTPStep(%d) = %v; want %v", tt.step, err, tt.want)
		}
	}
	s := sample()
	s.LastStep = 105
	want(t, st, id("alice"), s)
}

func testReplaceBackupCodes(t *testing.T, st twofactor.Store, id func(string) string) {
	set(t, st, id("alice"), sample())
	if err := st.ReplaceBackupCodes(context.Background(), id("alice"), []string{"n1", "n2"}); err != nil {
		t.Fatal(err)
	}
	s := sample()
	s.BackupCodes = []string{"n1", "n2"}
	want(t, st, id("alice"), s)
}

func testConsume(t *testing.T, st twofactor.Store, id func(string) string) {
	ctx := context.Background()
	set(t, st, id("alice"), sample())
	set(t, st, id("bob"), sample())
	if err := st.ConsumeBackupCode(ctx, id("alice"), "h2"); err != nil {
		t.Fatalf("ConsumeBackupCode: %v", err)
	}
	for _, h := range []string{"h2", "h4", "", "h"} {
		if err := st.ConsumeBackupCode(ctx, id("alice"), h); !errors.Is(err, twofactor.ErrInvalidCode) {
			t.Errorf("ConsumeBackupCode(%q) = %v; want ErrInvalidCode", h, err)
		}
	}
	s := sample()
	s.BackupCodes = []string{"h1", "h3"}
	want(t, st, id("alice"), s)
	want(t, st, id("bob"), sample())
	for _, h := range s.BackupCodes {
		if err := st.ConsumeBackupCode(ctx, id("alice"), h); err != nil {
			t.Errorf("ConsumeBackupCode(%q): %v", h, err)
		}
	}
	s.BackupCodes = nil
	want(t, st, id("alice"), s)
}

func testRaceAdvance(t *testing.T, st twofactor.Store, id func(string) string) {
	alice := id("alice")
	set(t, st, alice, sample())
	warm(st, alice)
	errs := race(func() error { return st.AdvanceTOTPStep(context.Background(), alice, 101) })
	oneWinner(t, "AdvanceTOTPStep", errs, twofactor.ErrReplayed)
}

func testRaceConsume(t *testing.T, st twofactor.Store, id func(string) string) {
	alice := id("alice")
	set(t, st, alice, sample())
	warm(st, alice)
	errs := race(func() error { return st.ConsumeBackupCode(context.Background(), alice, "h1") })
	oneWinner(t, "ConsumeBackupCode", errs, twofactor.ErrInvalidCode)
}

// warm reads userID's Secret from Racers goroutines at once, so that a
// store on a connection pool has its connections open before a race:
// racers that queue for a first connection run one after another, and
// would let a store that is not atomic pass.
func warm(st twofactor.Store, userID string) {
	race(func() error {
		_, err := st.TwoFactor(context.Background(), userID)
		return err
	})
}

// race runs fn in Racers goroutines released at once and returns their
// errors.
func race(fn func() error) []error {
	errs := make([]error, Racers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range Racers {
		wg.Go(func() {
			<-start
			errs[i] = fn()
		})
	}
	close(start)
	wg.Wait()
	return errs
}

// oneWinner checks that exactly one error is nil and every other is loss.
func oneWinner(t *testing.T, what string, errs []error, loss error) {
	t.Helper()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, loss):
			t.Errorf("%s: %v; want nil or %v", what, err, loss)
		}
	}
	if won != 1 {
		t.Errorf("%s: %d of %d racers succeeded; want 1", what, won, len(errs))
	}
}
