package accountlink

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/profile"
)

func signIn(email string) SignIn {
	return SignIn{
		User:    profile.User{ID: "sub-1", Email: email, Name: "Ann"},
		Account: account.Account{Type: account.TypeOIDC, Provider: "dev", ProviderAccountID: "sub-1"},
	}
}

// winnerFirst is an adapter in which a concurrent first sign-in of the
// same account writes its user and account just after this sign-in's
// account lookup missed: the interleaving that made first sign-ins fail
// with email_in_use.
type winnerFirst struct {
	adapter.Adapter
	once sync.Once
}

func (w *winnerFirst) GetUserByEmail(ctx context.Context, email string) (adapter.User, error) {
	w.once.Do(func() {
		s := signIn(email)
		if _, err := w.Adapter.CreateUserWithAccount(ctx, adapter.User{Email: email}, s.Account); err != nil {
			panic(err)
		}
	})
	return w.Adapter.GetUserByEmail(ctx, email)
}

// TestLostRaceSignsInTheWinnersUser: a sign-in that loses the race to
// create a new user ends signed in to the user the winner created, not in
// OAuthAccountNotLinked (email_in_use). Failed before: the e-mail lookup
// found the winner's user and refused.
func TestLostRaceSignsInTheWinnersUser(t *testing.T) {
	ctx := context.Background()
	a := &winnerFirst{Adapter: memory.New()}
	u, isNew, err := Linker{Adapter: a}.Link(ctx, signIn("ann@example.com"))
	if err != nil {
		t.Fatalf("Link: %v", err)
	}
	winner, err := a.GetUserByAccount(ctx, "dev", "sub-1")
	if err != nil || u.ID != winner.ID || isNew {
		t.Fatalf("signed in to %q (new %v), the winner created %q (%v)", u.ID, isNew, winner.ID, err)
	}
}

// TestEmailInUseStillRefused: an address that belongs to another user,
// with no race, is still refused.
func TestEmailInUseStillRefused(t *testing.T) {
	ctx := context.Background()
	a := memory.New()
	if _, err := a.CreateUser(ctx, adapter.User{Email: "ann@example.com"}); err != nil {
		t.Fatal(err)
	}
	_, _, err := Linker{Adapter: a}.Link(ctx, signIn("ann@example.com"))
	var e *autherr.Error
	if !errors.As(err, &e) || e.Type != autherr.OAuthAccountNotLinked || e.Code != "email_in_use" {
		t.Fatalf("Link = %v, want OAuthAccountNotLinked email_in_use", err)
	}
}

// TestConcurrentFirstSignIns: many first sign-ins of one account at once
// make one user and one account, and every one of them signs in to it.
func TestConcurrentFirstSignIns(t *testing.T) {
	ctx := context.Background()
	a := memory.New()
	var created int
	var mu sync.Mutex
	l := Linker{Adapter: a, CreateUser: func(context.Context, profile.User) { mu.Lock(); created++; mu.Unlock() }}
	const n = 50
	ids := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			u, _, err := l.Link(ctx, signIn("ann@example.com"))
			ids[i], errs[i] = u.ID, err
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || ids[i] != ids[0] {
			t.Fatalf("sign-in %d: user %q, err %v (first: %q)", i, ids[i], errs[i], ids[0])
		}
	}
	if created != 1 {
		t.Fatalf("CreateUser fired %d times", created)
	}
	if accts, err := a.ListAccounts(ctx, ids[0]); err != nil || len(accts) != 1 {
		t.Fatal(fmt.Sprint("accounts: ", accts, err))
	}
}

// slowList makes ListAccounts wait (up to a moment), once it has read,
// until two callers have read: without a lock, both see the same two
// accounts.
type slowList struct {
	adapter.Adapter
	mu      sync.Mutex
	waiting int
	both    chan struct{}
}

func (s *slowList) ListAccounts(ctx context.Context, userID string) ([]account.Account, error) {
	list, err := s.Adapter.ListAccounts(ctx, userID)
	s.mu.Lock()
	s.waiting++
	if s.waiting == 2 {
		close(s.both)
	}
	s.mu.Unlock()
	select {
	case <-s.both:
	case <-time.After(200 * time.Millisecond):
	}
	return list, err
}

// LockAccount is the wrapped adapter's (the embedded interface hides it).
func (s *slowList) LockAccount(ctx context.Context, provider, id string, fn func(context.Context) error) error {
	return s.Adapter.(adapter.AccountLocker).LockAccount(ctx, provider, id, fn)
}

// TestConcurrentUnlinkKeepsOne: two unlinks at once of a user's last two
// accounts: one wins, the other is ErrLastWay (the user's lock).
func TestConcurrentUnlinkKeepsOne(t *testing.T) {
	ctx := context.Background()
	m := memory.New()
	u, err := m.CreateUserWithAccount(ctx, adapter.User{Email: "ann@example.com"}, account.Account{Provider: "a", ProviderAccountID: "1", Type: account.TypeOIDC})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.LinkAccount(ctx, account.Account{UserID: u.ID, Provider: "b", ProviderAccountID: "2", Type: account.TypeOIDC}); err != nil {
		t.Fatal(err)
	}
	l := Linker{Adapter: &slowList{Adapter: m, both: make(chan struct{})}}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, p := range []string{"a", "b"} {
		wg.Go(func() { _, errs[i] = l.Unlink(ctx, u.ID, p, 0) })
	}
	wg.Wait()
	left, _ := m.ListAccounts(ctx, u.ID)
	if len(left) != 1 || (errs[0] == nil) == (errs[1] == nil) {
		t.Fatalf("errors %v, accounts left %v", errs, left)
	}
}
