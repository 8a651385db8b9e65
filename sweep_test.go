package gatehouse_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// TestSweep: Handler.Sweep deletes expired sessions and e-mail tokens,
// keeps live ones, and stops with its context.
func TestSweep(t *testing.T) {
	store := memory.New()
	op := newOP(t, authtest.Options{})
	h, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Adapter: store, Providers: []providers.Provider{devProvider(op)}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	u, _ := store.CreateUser(ctx, adapter.User{Email: "a@example.com"})
	store.CreateSession(ctx, adapter.Session{Token: "old", UserID: u.ID, Expires: time.Now().Add(-time.Hour)})
	store.CreateSession(ctx, adapter.Session{Token: "live", UserID: u.ID, Expires: time.Now().Add(time.Hour)})
	store.CreateVerificationToken(ctx, adapter.VerificationToken{Identifier: "a@example.com", TokenHash: "old", Expires: time.Now().Add(-time.Minute)})

	sweepCtx, stop := context.WithCancel(ctx)
	done := make(chan error)
	go func() { done <- h.Sweep(sweepCtx, time.Hour) }()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, _, err := store.GetSessionAndUser(ctx, "old"); errors.Is(err, adapter.ErrNotFound) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the expired session was not swept")
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Sweep returned %v, want context.Canceled", err)
	}
	if _, _, err := store.GetSessionAndUser(ctx, "live"); err != nil {
		t.Fatalf("the live session was swept: %v", err)
	}
	if _, err := store.UseVerificationToken(ctx, "a@example.com", "old"); !errors.Is(err, adapter.ErrNotFound) {
		t.Fatalf("the expired token is still there: %v", err)
	}
	// Without an adapter there is nothing to sweep: said at once.
	jwt, _ := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Providers: []providers.Provider{devProvider(op)}})
	var ce *gatehouse.ConfigError
	if err := jwt.Sweep(ctx, 0); !errors.As(err, &ce) {
		t.Fatalf("Sweep without an adapter = %v", err)
	}
}
