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

// Run runs the conformance suite against the stores newStore returns.
func Run(t *testing.T, newStore func(t *testing.T) twofactor.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s twofactor.Store)
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
			tt.fn(t, newStore(t))
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

func testNotEnrolled(t *testing.T, st twofactor.Store) {
	ctx := context.Background()
	if _, err := st.TwoFactor(ctx, "nobody"); !errors.Is(err, twofactor.ErrNotEnrolled) {
		t.Errorf("TwoFactor: %v; want ErrNotEnrolled", err)
	}
	if err := st.AdvanceTOTPStep(ctx, "nobody", 1); !errors.Is(err, twofactor.ErrNotEnrolled) {
		t.Errorf("AdvanceTOTPStep: %v; want ErrNotEnrolled", err)
	}
	if err := st.ReplaceBackupCodes(ctx, "nobody", []string{"h"}); !errors.Is(err, twofactor.ErrNotEnrolled) {
		t.Errorf("ReplaceBackupCodes: %v; want ErrNotEnrolled", err)
	}
	if err := st.ConsumeBackupCode(ctx, "nobody", "h"); !errors.Is(err, twofactor.ErrNotEnrolled) {
		t.Errorf("ConsumeBackupCode: %v; want ErrNotEnrolled", err)
	}
	if err := st.DeleteTwoFactor(ctx, "nobody"); err != nil {
		t.Errorf("DeleteTwoFactor: %v", err)
	}
}

func testSetAndGet(t *testing.T, st twofactor.Store) {
	s := sample()
	set(t, st, "alice", s)
	want(t, st, "alice", s)
	// The store keeps its own copy, and hands out copies.
	s.BackupCodes[0] = "changed"
	want(t, st, "alice", sample())
	got, _ := st.TwoFactor(context.Background(), "alice")
	got.BackupCodes[0] = "changed"
	want(t, st, "alice", sample())
	// Set replaces the whole Secret.
	fresh := twofactor.Secret{Sealed: "v1.other"}
	set(t, st, "alice", fresh)
	want(t, st, "alice", fresh)
	if _, err := st.TwoFactor(context.Background(), "bob"); !errors.Is(err, twofactor.ErrNotEnrolled) {
		t.Errorf("another user: %v; want ErrNotEnrolled", err)
	}
}

func testDelete(t *testing.T, st twofactor.Store) {
	set(t, st, "alice", sample())
	set(t, st, "bob", sample())
	if err := st.DeleteTwoFactor(context.Background(), "alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.TwoFactor(context.Background(), "alice"); !errors.Is(err, twofactor.ErrNotEnrolled) {
		t.Errorf("after DeleteTwoFactor: %v; want ErrNotEnrolled", err)
	}
	want(t, st, "bob", sample())
}

func testAdvance(t *testing.T, st twofactor.Store) {
	ctx := context.Background()
	set(t, st, "alice", sample()) // LastStep 100
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
		if err := st.AdvanceTOTPStep(ctx, "alice", tt.step); !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
			t.Errorf("AdvanceTOTPStep(%d) = %v; want %v", tt.step, err, tt.want)
		}
	}
	s := sample()
	s.LastStep = 105
	want(t, st, "alice", s)
}

func testReplaceBackupCodes(t *testing.T, st twofactor.Store) {
	set(t, st, "alice", sample())
	if err := st.ReplaceBackupCodes(context.Background(), "alice", []string{"n1", "n2"}); err != nil {
		t.Fatal(err)
	}
	s := sample()
	s.BackupCodes = []string{"n1", "n2"}
	want(t, st, "alice", s)
}

func testConsume(t *testing.T, st twofactor.Store) {
	ctx := context.Background()
	set(t, st, "alice", sample())
	set(t, st, "bob", sample())
	if err := st.ConsumeBackupCode(ctx, "alice", "h2"); err != nil {
		t.Fatalf("ConsumeBackupCode: %v", err)
	}
	for _, h := range []string{"h2", "h4", "", "h"} {
		if err := st.ConsumeBackupCode(ctx, "alice", h); !errors.Is(err, twofactor.ErrInvalidCode) {
			t.Errorf("ConsumeBackupCode(%q) = %v; want ErrInvalidCode", h, err)
		}
	}
	s := sample()
	s.BackupCodes = []string{"h1", "h3"}
	want(t, st, "alice", s)
	want(t, st, "bob", sample())
	for _, h := range s.BackupCodes {
		if err := st.ConsumeBackupCode(ctx, "alice", h); err != nil {
			t.Errorf("ConsumeBackupCode(%q): %v", h, err)
		}
	}
	s.BackupCodes = nil
	want(t, st, "alice", s)
}

func testRaceAdvance(t *testing.T, st twofactor.Store) {
	set(t, st, "alice", sample())
	errs := race(func() error { return st.AdvanceTOTPStep(context.Background(), "alice", 101) })
	oneWinner(t, "AdvanceTOTPStep", errs, twofactor.ErrReplayed)
}

func testRaceConsume(t *testing.T, st twofactor.Store) {
	set(t, st, "alice", sample())
	errs := race(func() error { return st.ConsumeBackupCode(context.Background(), "alice", "h1") })
	oneWinner(t, "ConsumeBackupCode", errs, twofactor.ErrInvalidCode)
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
