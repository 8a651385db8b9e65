// Package adaptertest is the conformance suite for adapter.Adapter
// implementations. Every implementation's own tests call Run:
//
//	func TestConformance(t *testing.T) {
//		adaptertest.Run(t, func(t *testing.T) adapter.Adapter {
//			return newEmptyAdapter(t)
//		})
//	}
//
// newAdapter must return a new, empty adapter each time it is called (for
// example on a fresh database file or schema) and arrange its clean-up with
// t.Cleanup. Subtests run in parallel, each on its own adapter.
package adaptertest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
)

// Racers is the number of goroutines the concurrency tests start at once.
const Racers = 20

// Run runs the conformance suite against the adapters newAdapter returns.
func Run(t *testing.T, newAdapter func(t *testing.T) adapter.Adapter) {
	tests := []struct {
		name string
		fn   func(t *testing.T, a adapter.Adapter)
	}{
		{"User/CreateAndGet", testCreateAndGetUser},
		{"User/CreateWithID", testCreateUserWithID},
		{"User/EmptyEmails", testEmptyEmails},
		{"User/EmailConflict", testEmailConflict},
		{"User/GetByEmail", testGetUserByEmail},
		{"User/Update", testUpdateUser},
		{"User/UpdateConflict", testUpdateUserConflict},
		{"User/NotFound", testUserNotFound},
		{"User/DeleteCascades", testDeleteUserCascades},
		{"User/TimePrecision", testTimePrecision},
		{"Account/LinkAndGet", testLinkAndGetAccount},
		{"Account/LinkConflict", testLinkAccountConflict},
		{"Account/LinkUnknownUser", testLinkAccountUnknownUser},
		{"Account/List", testListAccounts},
		{"Account/Unlink", testUnlinkAccount},
		{"Account/UpdateRotatesTokens", testUpdateAccount},
		{"Account/NotFound", testAccountNotFound},
		{"Account/ExtraIsCopied", testAccountExtraIsCopied},
		{"CreateUserWithAccount/Success", testCreateUserWithAccount},
		{"CreateUserWithAccount/EmailConflict", testCreateUserWithAccountEmailConflict},
		{"CreateUserWithAccount/AccountConflictLeavesNoUser", testCreateUserWithAccountAccountConflict},
		{"Session/CreateAndGet", testCreateAndGetSession},
		{"Session/Expired", testExpiredSession},
		{"Session/Conflict", testSessionConflict},
		{"Session/UnknownUser", testSessionUnknownUser},
		{"Session/Update", testUpdateSession},
		{"Session/Delete", testDeleteSession},
		{"Session/NotFound", testSessionNotFound},
		{"Session/DeleteUserSessions", testDeleteUserSessions},
		{"Session/DeleteProviderSessions", testDeleteProviderSessions},
		{"Account/Lock", testLockAccount},
		{"VerificationToken/UseOnce", testUseVerificationToken},
		{"VerificationToken/WrongIdentifierOrHash", testVerificationTokenMismatch},
		{"VerificationToken/Expired", testExpiredVerificationToken},
		{"VerificationToken/Conflict", testVerificationTokenConflict},
		{"Concurrency/CreateUserWithAccountSameAccountAndEmail", testRaceSameAccountAndEmail},
		{"Concurrency/CreateUserWithAccountSameAccount", testRaceSameAccount},
		{"Concurrency/CreateUserWithAccountSameEmail", testRaceSameEmail},
		{"Concurrency/UseVerificationToken", testRaceUseVerificationToken},
		{"Concurrency/CreateSession", testRaceCreateSession},
		{"Concurrency/DistinctWriters", testRaceDistinctWriters},
		{"Concurrency/LinkOnePerProvider", testRaceLinkOnePerProvider},
		{"Sweeper/DeleteExpired", testDeleteExpired},
		{"Session/List", testListSessions},
		{"Session/Metadata", testSessionMetadata},
		{"Password/Hash", testPasswordHash},
		{"TwoFactor/DeleteUser", testDeleteUserTwoFactor},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, newAdapter(t))
		})
	}
	runAuthenticators(t, newAdapter) // authenticator.go
	runTwoFactor(t, newAdapter)      // accounts.go
	runOrganizations(t, newAdapter)  // organizations.go
	runTeams(t, newAdapter)          // teams.go
	runMachineAccess(t, newAdapter)  // machineaccess.go
	runAdmin(t, newAdapter)          // admin.go
	runOwnerKeeper(t, newAdapter)    // ownerkeeper.go
}

// now is a fixed point in time with sub-millisecond digits, in a zone other
// than UTC, so that precision and zone handling show.
var now = time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.FixedZone("UTC+2", 2*60*60))

// ctx returns the context for one test's calls.
func ctx(t *testing.T) context.Context {
	return t.Context()
}

// newUser returns a user with every field set.
func newUser(email string) adapter.User {
	verified := now.Add(-time.Hour)
	return adapter.User{
		Name:          "Ada Lovelace",
		Email:         email,
		EmailVerified: &verified,
		Image:         "https://example.com/ada.png",
	}
}

// newAccount returns an account with every field of the token set set,
// including Extra values of every JSON kind.
func newAccount(userID, provider, providerAccountID string) account.Account {
	return account.Account{
		UserID:            userID,
		Type:              account.TypeOIDC,
		Provider:          provider,
		ProviderAccountID: providerAccountID,
		TokenSet: account.TokenSet{
			AccessToken:  "access-" + providerAccountID,
			IDToken:      "id-" + providerAccountID,
			RefreshToken: "refresh-" + providerAccountID,
			ExpiresAt:    1741961366,
			ExpiresIn:    3600,
			Scope:        "openid email profile",
			TokenType:    "Bearer",
			SessionState: "state-" + providerAccountID,
			Extra: map[string]any{
				"refresh_token_expires_at": float64(1742566166),
				"flag":                     true,
				"off":                      false,
				"none":                     nil,
				"text":                     "ünïcødé \"quoted\" \\ <tag>",
				"list":                     []any{"a", 1.5, map[string]any{"b": "c"}},
				"nested":                   map[string]any{"x": map[string]any{"y": []any{}}},
			},
		},
	}
}

// storeTest is a test of an adapter's optional interface S, given the
// adapter as both.
type storeTest[S any] struct {
	name string
	fn   func(t *testing.T, a adapter.Adapter, s S)
}

// runStore runs tests in parallel, each on an adapter of its own,
// skipping them when the adapter is not an S or, through wrappers, the
// adapter that does the work is not (adapter.Supports).
func runStore[S any](t *testing.T, newAdapter func(t *testing.T) adapter.Adapter, tests []storeTest[S]) {
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newAdapter(t)
			s := implements[S](t, a)
			if !adapter.Supports[S](a) {
				t.Skipf("%T does not implement %v", a, reflect.TypeFor[S]())
			}
			tc.fn(t, a, s)
		})
	}
}

// implements returns a as T, the optional interface a test is about,
// skipping the test when a does not implement it.
func implements[T any](t *testing.T, a adapter.Adapter) T {
	t.Helper()
	v, ok := a.(T)
	if !ok {
		t.Skipf("%T does not implement %v", a, reflect.TypeFor[T]())
	}
	return v
}

// result is a value and the error of the call that returned it.
type result[T any] struct {
	v   T
	err error
}

// try takes the results of a call, for its must method.
func try[T any](v T, err error) result[T] { return result[T]{v, err} }

// must returns the value, failing the test with what when the call
// returned an error.
func (r result[T]) must(t *testing.T, what string) T {
	t.Helper()
	if r.err != nil {
		t.Fatalf("%s: %v", what, r.err)
	}
	return r.v
}

// mustCreateUser creates a user or fails the test.
func mustCreateUser(t *testing.T, a adapter.Adapter, u adapter.User) adapter.User {
	t.Helper()
	return try(a.CreateUser(ctx(t), u)).must(t, fmt.Sprintf("CreateUser(%+v)", u))
}

// mustGetUser returns the user with the given id or fails the test.
func mustGetUser(t *testing.T, a adapter.Adapter, id string) adapter.User {
	t.Helper()
	return try(a.GetUser(ctx(t), id)).must(t, "GetUser")
}

// mustGetUserByAccount returns the user of the provider account or fails
// the test.
func mustGetUserByAccount(t *testing.T, a adapter.Adapter, provider, providerAccountID string) adapter.User {
	t.Helper()
	return try(a.GetUserByAccount(ctx(t), provider, providerAccountID)).must(t, "GetUserByAccount")
}

// mustGetAccount returns the provider account or fails the test.
func mustGetAccount(t *testing.T, a adapter.Adapter, provider, providerAccountID string) account.Account {
	t.Helper()
	return try(a.GetAccount(ctx(t), provider, providerAccountID)).must(t, "GetAccount")
}

// mustLinkAccount links an account or fails the test.
func mustLinkAccount(t *testing.T, a adapter.Adapter, acc account.Account) {
	t.Helper()
	if err := a.LinkAccount(ctx(t), acc); err != nil {
		t.Fatalf("LinkAccount(%s/%s): %v", acc.Provider, acc.ProviderAccountID, err)
	}
}

// mustCreateSession creates a session or fails the test.
func mustCreateSession(t *testing.T, a adapter.Adapter, s adapter.Session) adapter.Session {
	t.Helper()
	return try(a.CreateSession(ctx(t), s)).must(t, "CreateSession")
}

// mustCreateToken creates a verification token or fails the test.
func mustCreateToken(t *testing.T, a adapter.Adapter, vt adapter.VerificationToken) {
	t.Helper()
	if err := a.CreateVerificationToken(ctx(t), vt); err != nil {
		t.Fatalf("CreateVerificationToken: %v", err)
	}
}

// mustUseToken uses the verification token want (its identifier and hash)
// and checks that it comes back as want, failing the test with what
// otherwise.
func mustUseToken(t *testing.T, a adapter.Adapter, what string, want adapter.VerificationToken) {
	t.Helper()
	got := try(a.UseVerificationToken(ctx(t), want.Identifier, want.TokenHash)).must(t, what)
	checkToken(t, what, got, want)
}

// wantErr fails the test unless errors.Is(err, target).
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: got error %v, want %v", what, err, target)
	}
}

// sameTime reports whether a and b are the same instant to the millisecond.
func sameTime(a, b time.Time) bool {
	return a.Truncate(time.Millisecond).Equal(b.Truncate(time.Millisecond))
}

// checkUTC fails the test unless tm is in UTC.
func checkUTC(t *testing.T, what string, tm time.Time) {
	t.Helper()
	if tm.Location() != time.UTC {
		t.Errorf("%s: time %v is in %v, want UTC", what, tm, tm.Location())
	}
}

// checkUser compares a user as returned with the one wanted. Times are
// compared to the millisecond.
func checkUser(t *testing.T, what string, got, want adapter.User) {
	t.Helper()
	if got.ID != want.ID || got.Name != want.Name || got.Email != want.Email || got.Image != want.Image {
		t.Errorf("%s: got user %+v, want %+v", what, got, want)
	}
	switch {
	case got.EmailVerified == nil && want.EmailVerified == nil:
	case got.EmailVerified == nil || want.EmailVerified == nil:
		t.Errorf("%s: got EmailVerified %v, want %v", what, got.EmailVerified, want.EmailVerified)
	default:
		if !sameTime(*got.EmailVerified, *want.EmailVerified) {
			t.Errorf("%s: got EmailVerified %v, want %v", what, *got.EmailVerified, *want.EmailVerified)
		}
		checkUTC(t, what+": EmailVerified", *got.EmailVerified)
	}
}

// checkAccount compares an account as returned with the one wanted. A nil
// and an empty Extra are the same.
func checkAccount(t *testing.T, what string, got, want account.Account) {
	t.Helper()
	g, w := got, want
	g.Extra, w.Extra = nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: got account\n\t%+v\nwant\n\t%+v", what, g, w)
	}
	if len(got.Extra) == 0 && len(want.Extra) == 0 {
		return
	}
	if !reflect.DeepEqual(got.Extra, want.Extra) {
		t.Errorf("%s: got Extra\n\t%#v\nwant\n\t%#v", what, got.Extra, want.Extra)
	}
}

// checkSession compares a session as returned with the one wanted.
func checkSession(t *testing.T, what string, got, want adapter.Session) {
	t.Helper()
	if got.Token != want.Token || got.UserID != want.UserID || !sameTime(got.Expires, want.Expires) {
		t.Errorf("%s: got session %+v, want %+v", what, got, want)
	}
	checkUTC(t, what+": Expires", got.Expires)
}

// checkToken compares a verification token as returned with the one wanted.
func checkToken(t *testing.T, what string, got, want adapter.VerificationToken) {
	t.Helper()
	if got.Identifier != want.Identifier || got.TokenHash != want.TokenHash || !sameTime(got.Expires, want.Expires) {
		t.Errorf("%s: got token %+v, want %+v", what, got, want)
	}
	checkUTC(t, what+": Expires", got.Expires)
}

func testCreateAndGetUser(t *testing.T, a adapter.Adapter) {
	in := newUser("ada@example.com")
	u := mustCreateUser(t, a, in)
	if u.ID == "" {
		t.Fatal("CreateUser assigned no ID")
	}
	want := in
	want.ID = u.ID
	checkUser(t, "CreateUser", u, want)

	got := mustGetUser(t, a, u.ID)
	checkUser(t, "GetUser", got, want)

	// A user without a verified e-mail address keeps a nil EmailVerified.
	plain := mustCreateUser(t, a, adapter.User{Name: "Plain", Email: "plain@example.com"})
	got = mustGetUser(t, a, plain.ID)
	checkUser(t, "GetUser(plain)", got, adapter.User{ID: plain.ID, Name: "Plain", Email: "plain@example.com"})

	// Ids are random: many users, many ids.
	seen := map[string]bool{u.ID: true, plain.ID: true}
	for i := range 10 {
		v := mustCreateUser(t, a, adapter.User{Name: fmt.Sprint(i)})
		if seen[v.ID] {
			t.Fatalf("CreateUser assigned id %q twice", v.ID)
		}
		seen[v.ID] = true
	}
}

func testCreateUserWithID(t *testing.T, a adapter.Adapter) {
	u := mustCreateUser(t, a, adapter.User{ID: "user-1", Email: "one@example.com"})
	if u.ID != "user-1" {
		t.Fatalf("CreateUser with ID %q returned ID %q", "user-1", u.ID)
	}
	_, err := a.CreateUser(ctx(t), adapter.User{ID: "user-1", Email: "other@example.com"})
	wantErr(t, "CreateUser(same ID)", err, adapter.ErrConflict)
	got := mustGetUser(t, a, "user-1")
	checkUser(t, "GetUser after conflict", got, adapter.User{ID: "user-1", Email: "one@example.com"})
}

func testEmptyEmails(t *testing.T, a adapter.Adapter) {
	// The e-mail address is unique only when not empty.
	first := mustCreateUser(t, a, adapter.User{Name: "first"})
	second := mustCreateUser(t, a, adapter.User{Name: "second"})
	if first.ID == second.ID {
		t.Fatal("two users got the same ID")
	}
	_, err := a.GetUserByEmail(ctx(t), "")
	wantErr(t, `GetUserByEmail("")`, err, adapter.ErrNotFound)
}

func testEmailConflict(t *testing.T, a adapter.Adapter) {
	mustCreateUser(t, a, newUser("taken@example.com"))
	_, err := a.CreateUser(ctx(t), newUser("taken@example.com"))
	wantErr(t, "CreateUser(same e-mail)", err, adapter.ErrConflict)
}

func testGetUserByEmail(t *testing.T, a adapter.Adapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	mustCreateUser(t, a, newUser("grace@example.com"))
	got, err := a.GetUserByEmail(ctx(t), "ada@example.com")
	if err != nil {
		t.Fatalf("GetUserByEmail: %v", err)
	}
	checkUser(t, "GetUserByEmail", got, u)
	_, err = a.GetUserByEmail(ctx(t), "nobody@example.com")
	wantErr(t, "GetUserByEmail(unknown)", err, adapter.ErrNotFound)
}

func testUpdateUser(t *testing.T, a adapter.Adapter) {
	u := mustCreateUser(t, a, adapter.User{Name: "Old", Email: "old@example.com", Image: "old.png"})
	verified := now.Add(time.Minute)
	changed := adapter.User{ID: u.ID, Name: "New", Email: "new@example.com", EmailVerified: &verified, Image: "new.png"}
	got, err := a.UpdateUser(ctx(t), changed)
	if err != nil {
		t.Fatalf("UpdateUser: %v", err)
	}
	checkUser(t, "UpdateUser", got, changed)
	got = mustGetUser(t, a, u.ID)
	checkUser(t, "GetUser after UpdateUser", got, changed)

	// The old address is free again, the new one is found.
	_, err = a.GetUserByEmail(ctx(t), "old@example.com")
	wantErr(t, "GetUserByEmail(old address)", err, adapter.ErrNotFound)
	got, err = a.GetUserByEmail(ctx(t), "new@example.com")
	if err != nil {
		t.Fatalf("GetUserByEmail(new address): %v", err)
	}
	checkUser(t, "GetUserByEmail(new address)", got, changed)
	mustCreateUser(t, a, adapter.User{Email: "old@example.com"})

	// Clearing fields clears them, and frees the address.
	cleared := adapter.User{ID: u.ID}
	got, err = a.UpdateUser(ctx(t), cleared)
	if err != nil {
		t.Fatalf("UpdateUser(cleared): %v", err)
	}
	checkUser(t, "UpdateUser(cleared)", got, cleared)
	got = mustGetUser(t, a, u.ID)
	checkUser(t, "GetUser after clearing", got, cleared)
	mustCreateUser(t, a, adapter.User{Email: "new@example.com"})
}

func testUpdateUserConflict(t *testing.T, a adapter.Adapter) {
	ada := mustCreateUser(t, a, newUser("ada@example.com"))
	mustCreateUser(t, a, newUser("grace@example.com"))
	changed := ada
	changed.Email = "grace@example.com"
	_, err := a.UpdateUser(ctx(t), changed)
	wantErr(t, "UpdateUser(taken e-mail)", err, adapter.ErrConflict)
	got := mustGetUser(t, a, ada.ID)
	checkUser(t, "GetUser after failed UpdateUser", got, ada)

	// Keeping one's own address is no conflict.
	same := ada
	same.Name = "Countess"
	if _, err := a.UpdateUser(ctx(t), same); err != nil {
		t.Fatalf("UpdateUser(own e-mail): %v", err)
	}
}

func testUserNotFound(t *testing.T, a adapter.Adapter) {
	_, err := a.GetUser(ctx(t), "no-such-user")
	wantErr(t, "GetUser", err, adapter.ErrNotFound)
	_, err = a.GetUser(ctx(t), "")
	wantErr(t, `GetUser("")`, err, adapter.ErrNotFound)
	_, err = a.UpdateUser(ctx(t), adapter.User{ID: "no-such-user", Name: "x"})
	wantErr(t, "UpdateUser", err, adapter.ErrNotFound)
	err = a.DeleteUser(ctx(t), "no-such-user")
	wantErr(t, "DeleteUser", err, adapter.ErrNotFound)
}

func testDeleteUserCascades(t *testing.T, a adapter.Adapter) {
	doomed := mustCreateUser(t, a, newUser("doomed@example.com"))
	kept := mustCreateUser(t, a, newUser("kept@example.com"))
	mustLinkAccount(t, a, newAccount(doomed.ID, "github", "d1"))
	mustLinkAccount(t, a, newAccount(doomed.ID, "google", "d2"))
	mustLinkAccount(t, a, newAccount(kept.ID, "github", "k1"))
	exp := now.Add(time.Hour)
	mustCreateSession(t, a, adapter.Session{Token: "doomed-1", UserID: doomed.ID, Expires: exp})
	mustCreateSession(t, a, adapter.Session{Token: "doomed-2", UserID: doomed.ID, Expires: exp})
	mustCreateSession(t, a, adapter.Session{Token: "kept-1", UserID: kept.ID, Expires: exp})

	if err := a.DeleteUser(ctx(t), doomed.ID); err != nil {
		t.Fatalf("DeleteUser: %v", err)
	}

	_, err := a.GetUser(ctx(t), doomed.ID)
	wantErr(t, "GetUser(deleted)", err, adapter.ErrNotFound)
	_, err = a.GetUserByEmail(ctx(t), "doomed@example.com")
	wantErr(t, "GetUserByEmail(deleted)", err, adapter.ErrNotFound)
	for _, pid := range []struct{ provider, id string }{{"github", "d1"}, {"google", "d2"}} {
		_, err = a.GetAccount(ctx(t), pid.provider, pid.id)
		wantErr(t, "GetAccount(of deleted user)", err, adapter.ErrNotFound)
		_, err = a.GetUserByAccount(ctx(t), pid.provider, pid.id)
		wantErr(t, "GetUserByAccount(of deleted user)", err, adapter.ErrNotFound)
	}
	list, err := a.ListAccounts(ctx(t), doomed.ID)
	if err != nil || len(list) != 0 {
		t.Errorf("ListAccounts(deleted user) = %v, %v; want none", list, err)
	}
	for _, tok := range []string{"doomed-1", "doomed-2"} {
		_, _, err = a.GetSessionAndUser(ctx(t), tok)
		wantErr(t, "GetSessionAndUser(of deleted user)", err, adapter.ErrNotFound)
	}
	err = a.DeleteUser(ctx(t), doomed.ID)
	wantErr(t, "DeleteUser(again)", err, adapter.ErrNotFound)

	// The other user is untouched.
	if _, err := a.GetUser(ctx(t), kept.ID); err != nil {
		t.Errorf("GetUser(kept): %v", err)
	}
	if _, err := a.GetAccount(ctx(t), "github", "k1"); err != nil {
		t.Errorf("GetAccount(kept): %v", err)
	}
	if _, _, err := a.GetSessionAndUser(ctx(t), "kept-1"); err != nil {
		t.Errorf("GetSessionAndUser(kept): %v", err)
	}

	// The address and the provider accounts can be used again.
	again := mustCreateUser(t, a, newUser("doomed@example.com"))
	mustLinkAccount(t, a, newAccount(again.ID, "github", "d1"))
}

func testTimePrecision(t *testing.T, a adapter.Adapter) {
	// Times far apart, with nanoseconds, in zones other than UTC.
	times := []time.Time{
		now,
		time.Date(1970, 1, 1, 0, 0, 0, 1_000_000, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 999_000_000, time.UTC),
		time.Date(2999, 12, 31, 23, 59, 59, 999_999_999, time.FixedZone("west", -7*60*60)),
		time.Now(), // with a monotonic clock reading
	}
	for i, tm := range times {
		u := mustCreateUser(t, a, adapter.User{EmailVerified: &tm})
		got := mustGetUser(t, a, u.ID)
		checkUser(t, fmt.Sprintf("time %d: GetUser", i), got, adapter.User{ID: u.ID, EmailVerified: &tm})

		token := fmt.Sprintf("session-%d", i)
		mustCreateSession(t, a, adapter.Session{Token: token, UserID: u.ID, Expires: tm})
		s, _, err := a.GetSessionAndUser(ctx(t), token)
		if err != nil {
			t.Fatalf("GetSessionAndUser: %v", err)
		}
		checkSession(t, fmt.Sprintf("time %d: GetSessionAndUser", i), s, adapter.Session{Token: token, UserID: u.ID, Expires: tm})
	}
}

func testLinkAndGetAccount(t *testing.T, a adapter.Adapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	acc := newAccount(u.ID, "github", "12345")
	mustLinkAccount(t, a, acc)

	got := mustGetAccount(t, a, "github", "12345")
	checkAccount(t, "GetAccount", got, acc)

	owner := mustGetUserByAccount(t, a, "github", "12345")
	checkUser(t, "GetUserByAccount", owner, u)

	// A minimal account: no tokens, no Extra.
	bare := account.Account{UserID: u.ID, Type: account.TypeEmail, Provider: "email", ProviderAccountID: "ada@example.com"}
	mustLinkAccount(t, a, bare)
	got, err := a.GetAccount(ctx(t), "email", "ada@example.com")
	if err != nil {
		t.Fatalf("GetAccount(bare): %v", err)
	}
	checkAccount(t, "GetAccount(bare)", got, bare)
}

func testLinkAccountConflict(t *testing.T, a adapter.Adapter) {
	ada := mustCreateUser(t, a, newUser("ada@example.com"))
	grace := mustCreateUser(t, a, newUser("grace@example.com"))
	first := newAccount(ada.ID, "github", "1")
	mustLinkAccount(t, a, first)

	err := a.LinkAccount(ctx(t), newAccount(ada.ID, "github", "1"))
	wantErr(t, "LinkAccount(same user again)", err, adapter.ErrConflict)
	second := newAccount(grace.ID, "github", "1")
	second.AccessToken = "other"
	err = a.LinkAccount(ctx(t), second)
	wantErr(t, "LinkAccount(other user)", err, adapter.ErrConflict)

	got := mustGetAccount(t, a, "github", "1")
	checkAccount(t, "GetAccount after conflict", got, first)

	// The same provider account id at another provider is another account.
	mustLinkAccount(t, a, newAccount(grace.ID, "gitlab", "1"))
	owner := mustGetUserByAccount(t, a, "gitlab", "1")
	if owner.ID != grace.ID {
		t.Errorf("GetUserByAccount(gitlab/1) = %q, want %q", owner.ID, grace.ID)
	}
}

func testLinkAccountUnknownUser(t *testing.T, a adapter.Adapter) {
	err := a.LinkAccount(ctx(t), newAccount("no-such-user", "github", "1"))
	wantErr(t, "LinkAccount(unknown user)", err, adapter.ErrNotFound)
	_, err = a.GetAccount(ctx(t), "github", "1")
	wantErr(t, "GetAccount after failed LinkAccount", err, adapter.ErrNotFound)
}

func testListAccounts(t *testing.T, a adapter.Adapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	other := mustCreateUser(t, a, newUser("grace@example.com"))

	list, err := a.ListAccounts(ctx(t), u.ID)
	if err != nil {
		t.Fatalf("ListAccounts(no accounts): %v", err)
	}
	if len(list) != 0 {
		t.Fatalf("ListAccounts(no accounts) = %v, want none", list)
	}
	list, err = a.ListAccounts(ctx(t), "no-such-user")
	if err != nil || len(list) != 0 {
		t.Fatalf("ListAccounts(unknown user) = %v, %v; want none, nil", list, err)
	}

	want := map[string]account.Account{}
	for _, p := range []string{"google", "github", "apple"} {
		acc := newAccount(u.ID, p, "id-at-"+p)
		mustLinkAccount(t, a, acc)
		want[p] = acc
	}
	mustLinkAccount(t, a, newAccount(other.ID, "github", "someone-else"))

	list, err = a.ListAccounts(ctx(t), u.ID)
	if err != nil {
		t.Fatalf("ListAccounts: %v", err)
	}
	if len(list) != len(want) {
		t.Fatalf("ListAccounts returned %d accounts, want %d", len(list), len(want))
	}
	for _, got := range list {
		w, ok := want[got.Provider]
		if !ok {
			t.Errorf("ListAccounts returned unexpected account %s/%s", got.Provider, got.ProviderAccountID)
			continue
		}
		checkAccount(t, "ListAccounts", got, w)
		delete(want, got.Provider)
	}
}

func testUnlinkAccount(t *testing.T, a adapter.Adapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	mustLinkAccount(t, a, newAccount(u.ID, "github", "1"))
	mustLinkAccount(t, a, newAccount(u.ID, "google", "1"))

	if err := a.UnlinkAccount(ctx(t), "github", "1"); err != nil {
		t.Fatalf("UnlinkAccount: %v", err)
	}
	_, err := a.GetAccount(ctx(t), "github", "1")
	wantErr(t, "GetAccount(unlinked)", err, adapter.ErrNotFound)
	_, err = a.GetUserByAccount(ctx(t), "github", "1")
	wantErr(t, "GetUserByAccount(unlinked)", err, adapter.ErrNotFound)
	err = a.UnlinkAccount(ctx(t), "github", "1")
	wantErr(t, "UnlinkAccount(again)", err, adapter.ErrNotFound)

	// The user and the other account stay.
	if _, err := a.GetUser(ctx(t), u.ID); err != nil {
		t.Errorf("GetUser after UnlinkAccount: %v", err)
	}
	if _, err := a.GetAccount(ctx(t), "google", "1"); err != nil {
		t.Errorf("GetAccount(other account): %v", err)
	}
	// The provider account can be linked again.
	mustLinkAccount(t, a, newAccount(u.ID, "github", "1"))
}

func testUpdateAccount(t *testing.T, a adapter.Adapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	acc := newAccount(u.ID, "google", "g1")
	mustLinkAccount(t, a, acc)

	// A refresh: new access and refresh tokens, a new expiry, Extra with
	// one key dropped, one changed and one added.
	rotated := acc
	rotated.TokenSet = account.TokenSet{
		AccessToken:  "access-2",
		IDToken:      "id-2",
		RefreshToken: "refresh-2",
		ExpiresAt:    1741964966,
		Scope:        "openid email",
		TokenType:    "bearer",
		Extra: map[string]any{
			"refresh_token_expires_at": float64(1742569766),
			"added":                    "yes",
		},
	}
	if err := a.UpdateAccount(ctx(t), rotated); err != nil {
		t.Fatalf("UpdateAccount: %v", err)
	}
	got := mustGetAccount(t, a, "google", "g1")
	checkAccount(t, "GetAccount after UpdateAccount", got, rotated)

	// Dropping Extra altogether.
	plain := rotated
	plain.TokenSet = account.TokenSet{AccessToken: "access-3"}
	if err := a.UpdateAccount(ctx(t), plain); err != nil {
		t.Fatalf("UpdateAccount(no Extra): %v", err)
	}
	got = mustGetAccount(t, a, "google", "g1")
	checkAccount(t, "GetAccount after UpdateAccount(no Extra)", got, plain)

	// UpdateAccount replaces the token set only: the account stays with
	// its user and keeps its type.
	other := mustCreateUser(t, a, newUser("grace@example.com"))
	moved := plain
	moved.UserID = other.ID
	moved.Type = account.TypeOAuth
	moved.AccessToken = "access-4"
	if err := a.UpdateAccount(ctx(t), moved); err != nil {
		t.Fatalf("UpdateAccount(other user): %v", err)
	}
	got = mustGetAccount(t, a, "google", "g1")
	want := plain
	want.AccessToken = "access-4"
	checkAccount(t, "GetAccount after UpdateAccount(other user)", got, want)

	err := a.UpdateAccount(ctx(t), newAccount(u.ID, "google", "no-such-account"))
	wantErr(t, "UpdateAccount(unknown)", err, adapter.ErrNotFound)
}

func testAccountNotFound(t *testing.T, a adapter.Adapter) {
	_, err := a.GetAccount(ctx(t), "github", "nobody")
	wantErr(t, "GetAccount", err, adapter.ErrNotFound)
	_, err = a.GetUserByAccount(ctx(t), "github", "nobody")
	wantErr(t, "GetUserByAccount", err, adapter.ErrNotFound)
	err = a.UnlinkAccount(ctx(t), "github", "nobody")
	wantErr(t, "UnlinkAccount", err, adapter.ErrNotFound)
	err = a.UpdateAccount(ctx(t), account.Account{Provider: "github", ProviderAccountID: "nobody"})
	wantErr(t, "UpdateAccount", err, adapter.ErrNotFound)
}

func testAccountExtraIsCopied(t *testing.T, a adapter.Adapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	acc := newAccount(u.ID, "github", "1")
	mustLinkAccount(t, a, acc)
	// Changing the caller's maps after the call changes nothing stored.
	acc.Extra["flag"] = "changed"
	got := mustGetAccount(t, a, "github", "1")
	checkAccount(t, "GetAccount after changing the linked map", got, newAccount(u.ID, "github", "1"))
	got.Extra["flag"] = "changed again"
	got.Extra["nested"].(map[string]any)["x"] = "gone"
	again := mustGetAccount(t, a, "github", "1")
	checkAccount(t, "GetAccount after changing a returned map", again, newAccount(u.ID, "github", "1"))
}

func testCreateUserWithAccount(t *testing.T, a adapter.Adapter) {
	in := newUser("ada@example.com")
	acc := newAccount("ignored", "github", "42")
	u, err := a.CreateUserWithAccount(ctx(t), in, acc)
	if err != nil {
		t.Fatalf("CreateUserWithAccount: %v", err)
	}
	if u.ID == "" || u.ID == "ignored" {
		t.Fatalf("CreateUserWithAccount returned user ID %q", u.ID)
	}
	want := in
	want.ID = u.ID
	checkUser(t, "CreateUserWithAccount", u, want)

	got := mustGetUser(t, a, u.ID)
	checkUser(t, "GetUser", got, want)
	owner := mustGetUserByAccount(t, a, "github", "42")
	checkUser(t, "GetUserByAccount", owner, want)
	gotAcc := mustGetAccount(t, a, "github", "42")
	wantAcc := acc
	wantAcc.UserID = u.ID
	checkAccount(t, "GetAccount", gotAcc, wantAcc)

	// With an ID given, the ID is kept.
	v, err := a.CreateUserWithAccount(ctx(t), adapter.User{ID: "chosen"}, newAccount("", "github", "43"))
	if err != nil {
		t.Fatalf("CreateUserWithAccount(with ID): %v", err)
	}
	if v.ID != "chosen" {
		t.Errorf("CreateUserWithAccount(with ID) returned ID %q, want %q", v.ID, "chosen")
	}
}

func testCreateUserWithAccountEmailConflict(t *testing.T, a adapter.Adapter) {
	mustCreateUser(t, a, newUser("ada@example.com"))
	_, err := a.CreateUserWithAccount(ctx(t), newUser("ada@example.com"), newAccount("", "github", "1"))
	wantErr(t, "CreateUserWithAccount(taken e-mail)", err, adapter.ErrConflict)
	_, err = a.GetAccount(ctx(t), "github", "1")
	wantErr(t, "GetAccount after failed CreateUserWithAccount", err, adapter.ErrNotFound)
}

func testCreateUserWithAccountAccountConflict(t *testing.T, a adapter.Adapter) {
	first, err := a.CreateUserWithAccount(ctx(t), newUser("first@example.com"), newAccount("", "github", "1"))
	if err != nil {
		t.Fatalf("CreateUserWithAccount: %v", err)
	}
	// The user row would be written before the account row fails: the
	// failure must leave no new user behind.
	second := newUser("second@example.com")
	second.ID = "second"
	_, err = a.CreateUserWithAccount(ctx(t), second, newAccount("", "github", "1"))
	wantErr(t, "CreateUserWithAccount(taken account)", err, adapter.ErrConflict)
	_, err = a.GetUser(ctx(t), "second")
	wantErr(t, "GetUser(user of failed CreateUserWithAccount)", err, adapter.ErrNotFound)
	_, err = a.GetUserByEmail(ctx(t), "second@example.com")
	wantErr(t, "GetUserByEmail(user of failed CreateUserWithAccount)", err, adapter.ErrNotFound)

	// The account still belongs to the first user, and the address and
	// id of the failed attempt are free.
	owner := mustGetUserByAccount(t, a, "github", "1")
	if owner.ID != first.ID {
		t.Errorf("GetUserByAccount = %q, want %q", owner.ID, first.ID)
	}
	mustCreateUser(t, a, second)
}

func testCreateAndGetSession(t *testing.T, a adapter.Adapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	in := adapter.Session{Token: "token-hash-1", UserID: u.ID, Expires: now.Add(30 * 24 * time.Hour)}
	s := mustCreateSession(t, a, in)
	checkSession(t, "CreateSession", s, in)

	gs, gu, err := a.GetSessionAndUser(ctx(t), "token-hash-1")
	if err != nil {
		t.Fatalf("GetSessionAndUser: %v", err)
	}
	checkSession(t, "GetSessionAndUser", gs, in)
	checkUser(t, "GetSessionAndUser", gu, u)

	// A second session of the same user.
	in2 := adapter.Session{Token: "token-hash-2", UserID: u.ID, Expires: now.Add(time.Hour)}
	mustCreateSession(t, a, in2)
	gs, _, err = a.GetSessionAndUser(ctx(t), "token-hash-2")
	if err != nil {
		t.Fatalf("GetSessionAndUser: %v", err)
	}
	checkSession(t, "GetSessionAndUser(second)", gs, in2)
}

func testExpiredSession(t *testing.T, a adapter.Adapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	in := adapter.Session{Token: "old", UserID: u.ID, Expires: time.Now().Add(-time.Hour)}
	mustCreateSession(t, a, in)
	gs, gu, err := a.GetSessionAndUser(ctx(t), "old")
	if err != nil {
		t.Fatalf("GetSessionAndUser(expired): %v", err)
	}
	checkSession(t, "GetSessionAndUser(expired)", gs, in)
	checkUser(t, "GetSessionAndUser(expired)", gu, u)
}

func testSessionConflict(t *testing.T, a adapter.Adapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	other := mustCreateUser(t, a, newUser("grace@example.com"))
	in := adapter.Session{Token: "same", UserID: u.ID, Expires: now}
	mustCreateSession(t, a, in)
	_, err := a.CreateSession(ctx(t), adapter.Session{Token: "same", UserID: other.ID, Expires: now.Add(time.Hour)})
	wantErr(t, "CreateSession(same token)", err, adapter.ErrConflict)
	gs, _, err := a.GetSessionAndUser(ctx(t), "same")
	if err != nil {
		t.Fatalf("GetSessionAndUser: %v", err)
	}
	checkSession(t, "GetSessionAndUser after conflict", gs, in)
}

func testSessionUnknownUser(t *testing.T, a adapter.Adapter) {
	_, err := a.CreateSession(ctx(t), adapter.Session{Token: "t", UserID: "no-such-user", Expires: now})
	wantErr(t, "CreateSession(unknown user)", err, adapter.ErrNotFound)
	_, _, err = a.GetSessionAndUser(ctx(t), "t")
	wantErr(t, "GetSessionAndUser after failed CreateSession", err, adapter.ErrNotFound)
}

func testUpdateSession(t *testing.T, a adapter.Adapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	mustCreateSession(t, a, adapter.Session{Token: "t", UserID: u.ID, Expires: now})
	later := now.Add(30 * 24 * time.Hour)
	want := adapter.Session{Token: "t", UserID: u.ID, Expires: later}
	s, err := a.UpdateSession(ctx(t), "t", later)
	if err != nil {
		t.Fatalf("UpdateSession: %v", err)
	}
	checkSession(t, "UpdateSession", s, want)
	gs, _, err := a.GetSessionAndUser(ctx(t), "t")
	if err != nil {
		t.Fatalf("GetSessionAndUser: %v", err)
	}
	checkSession(t, "GetSessionAndUser after UpdateSession", gs, want)

	_, err = a.UpdateSession(ctx(t), "no-such-token", later)
	wantErr(t, "UpdateSession(unknown)", err, adapter.ErrNotFound)
}

func testDeleteSession(t *testing.T, a adapter.Adapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	in := adapter.Session{Token: "t", UserID: u.ID, Expires: now}
	mustCreateSession(t, a, in)
	mustCreateSession(t, a, adapter.Session{Token: "other", UserID: u.ID, Expires: now})
	s, err := a.DeleteSession(ctx(t), "t")
	if err != nil {
		t.Fatalf("DeleteSession: %v", err)
	}
	checkSession(t, "DeleteSession", s, in)
	_, _, err = a.GetSessionAndUser(ctx(t), "t")
	wantErr(t, "GetSessionAndUser(deleted)", err, adapter.ErrNotFound)
	_, err = a.DeleteSession(ctx(t), "t")
	wantErr(t, "DeleteSession(again)", err, adapter.ErrNotFound)

	// The user and the user's other session stay.
	if _, err := a.GetUser(ctx(t), u.ID); err != nil {
		t.Errorf("GetUser after DeleteSession: %v", err)
	}
	if _, _, err := a.GetSessionAndUser(ctx(t), "other"); err != nil {
		t.Errorf("GetSessionAndUser(other session): %v", err)
	}
}

func testSessionNotFound(t *testing.T, a adapter.Adapter) {
	_, _, err := a.GetSessionAndUser(ctx(t), "no-such-token")
	wantErr(t, "GetSessionAndUser", err, adapter.ErrNotFound)
	_, _, err = a.GetSessionAndUser(ctx(t), "")
	wantErr(t, `GetSessionAndUser("")`, err, adapter.ErrNotFound)
	_, err = a.UpdateSession(ctx(t), "no-such-token", now)
	wantErr(t, "UpdateSession", err, adapter.ErrNotFound)
	_, err = a.DeleteSession(ctx(t), "no-such-token")
	wantErr(t, "DeleteSession", err, adapter.ErrNotFound)
}

func testUseVerificationToken(t *testing.T, a adapter.Adapter) {
	in := adapter.VerificationToken{Identifier: "ada@example.com", TokenHash: "hash-1", Expires: now.Add(24 * time.Hour)}
	mustCreateToken(t, a, in)
	mustUseToken(t, a, "UseVerificationToken", in)
	_, err := a.UseVerificationToken(ctx(t), "ada@example.com", "hash-1")
	wantErr(t, "UseVerificationToken(second use)", err, adapter.ErrNotFound)
}

func testVerificationTokenMismatch(t *testing.T, a adapter.Adapter) {
	// CVE-2022-39263: a token must be bound to its identifier. A valid
	// hash with another identifier, or no identifier, finds nothing.
	in := adapter.VerificationToken{Identifier: "ada@example.com", TokenHash: "hash-1", Expires: now.Add(time.Hour)}
	mustCreateToken(t, a, in)
	other := adapter.VerificationToken{Identifier: "eve@example.com", TokenHash: "hash-2", Expires: now.Add(time.Hour)}
	mustCreateToken(t, a, other)
	cases := []struct{ identifier, hash string }{
		{"eve@example.com", "hash-1"},
		{"", "hash-1"},
		{"ADA@example.com", "hash-1"},
		{"ada@example.com", "hash-2"},
		{"ada@example.com", ""},
		{"ada@example.com", "HASH-1"},
		{"ada@example.com", "hash-1 "},
	}
	for _, c := range cases {
		_, err := a.UseVerificationToken(ctx(t), c.identifier, c.hash)
		wantErr(t, fmt.Sprintf("UseVerificationToken(%q, %q)", c.identifier, c.hash), err, adapter.ErrNotFound)
	}
	// The failed attempts consumed nothing.
	mustUseToken(t, a, "UseVerificationToken after failed attempts", in)
	mustUseToken(t, a, "UseVerificationToken(other)", other)
}

func testExpiredVerificationToken(t *testing.T, a adapter.Adapter) {
	in := adapter.VerificationToken{Identifier: "ada@example.com", TokenHash: "hash-1", Expires: time.Now().Add(-time.Hour)}
	mustCreateToken(t, a, in)
	mustUseToken(t, a, "UseVerificationToken(expired)", in)
	_, err := a.UseVerificationToken(ctx(t), "ada@example.com", "hash-1")
	wantErr(t, "UseVerificationToken(expired, second use)", err, adapter.ErrNotFound)
}

func testVerificationTokenConflict(t *testing.T, a adapter.Adapter) {
	in := adapter.VerificationToken{Identifier: "ada@example.com", TokenHash: "hash-1", Expires: now}
	mustCreateToken(t, a, in)
	err := a.CreateVerificationToken(ctx(t), adapter.VerificationToken{Identifier: "ada@example.com", TokenHash: "hash-1", Expires: now.Add(time.Hour)})
	wantErr(t, "CreateVerificationToken(same)", err, adapter.ErrConflict)
	// The same hash for another identifier, and another hash for the same
	// identifier, are other tokens.
	for _, vt := range []adapter.VerificationToken{
		{Identifier: "grace@example.com", TokenHash: "hash-1", Expires: now},
		{Identifier: "ada@example.com", TokenHash: "hash-2", Expires: now},
	} {
		if err := a.CreateVerificationToken(ctx(t), vt); err != nil {
			t.Errorf("CreateVerificationToken(%+v): %v", vt, err)
		}
	}
	mustUseToken(t, a, "UseVerificationToken after conflict", in)
}

// race runs fn in Racers goroutines released at once and returns their
// errors, indexed by goroutine.
func race(fn func(i int) error) []error { return raceN(Racers, fn) }

// raceN runs fn in n goroutines released at once and returns their
// errors, by index.
func raceN(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = fn(i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// oneWinner checks that exactly one error is nil and all others match
// loss, and returns the index of the one that succeeded.
func oneWinner(t *testing.T, what string, errs []error, loss error) int {
	t.Helper()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Errorf("%s: goroutines %d and %d both succeeded", what, winner, i)
		case err == nil:
			winner = i
		case !errors.Is(err, loss):
			t.Errorf("%s: goroutine %d: got error %v, want %v", what, i, err, loss)
		}
	}
	if winner < 0 {
		t.Fatalf("%s: no goroutine succeeded", what)
	}
	return winner
}

// checkRaceUsers checks that of the users racers tried to create, with ids
// "racer-<i>", only the winner's exists, and that it owns want accounts.
func checkRaceUsers(t *testing.T, a adapter.Adapter, winner, want int) {
	t.Helper()
	for i := range Racers {
		id := fmt.Sprintf("racer-%d", i)
		_, err := a.GetUser(ctx(t), id)
		if i == winner {
			if err != nil {
				t.Errorf("GetUser(winner %s): %v", id, err)
			}
			list, err := a.ListAccounts(ctx(t), id)
			if err != nil || len(list) != want {
				t.Errorf("ListAccounts(winner %s) = %d accounts, %v; want %d", id, len(list), err, want)
			}
			continue
		}
		wantErr(t, fmt.Sprintf("GetUser(loser %s)", id), err, adapter.ErrNotFound)
		list, err := a.ListAccounts(ctx(t), id)
		if err != nil || len(list) != 0 {
			t.Errorf("ListAccounts(loser %s) = %d accounts, %v; want none", id, len(list), err)
		}
	}
}

// raceNewUsers runs Racers CreateUserWithAccount at once, racer i's user
// (ID racer-i) at the address email(i) with the GitHub account
// accountID(i), and returns the one that succeeded, the others having
// failed with ErrConflict and left nothing behind (see checkRaceUsers).
func raceNewUsers(t *testing.T, a adapter.Adapter, email, accountID func(i int) string) int {
	t.Helper()
	errs := race(func(i int) error {
		u := newUser(email(i))
		u.ID = fmt.Sprintf("racer-%d", i)
		_, err := a.CreateUserWithAccount(ctx(t), u, newAccount("", "github", accountID(i)))
		return err
	})
	winner := oneWinner(t, "CreateUserWithAccount", errs, adapter.ErrConflict)
	checkRaceUsers(t, a, winner, 1)
	return winner
}

func testRaceSameAccountAndEmail(t *testing.T, a adapter.Adapter) {
	winner := raceNewUsers(t, a, func(int) string { return "racer@example.com" }, func(int) string { return "same" })
	owner, err := a.GetUserByAccount(ctx(t), "github", "same")
	if err != nil || owner.ID != fmt.Sprintf("racer-%d", winner) {
		t.Errorf("GetUserByAccount = %q, %v; want racer-%d", owner.ID, err, winner)
	}
	byEmail, err := a.GetUserByEmail(ctx(t), "racer@example.com")
	if err != nil || byEmail.ID != owner.ID {
		t.Errorf("GetUserByEmail = %q, %v; want %q", byEmail.ID, err, owner.ID)
	}
}

func testRaceSameAccount(t *testing.T, a adapter.Adapter) {
	// Distinct addresses: only the account conflicts, after the user row
	// of every racer has been written in its transaction.
	winner := raceNewUsers(t, a, func(i int) string { return fmt.Sprintf("racer-%d@example.com", i) }, func(int) string { return "same" })
	for i := range Racers {
		if i == winner {
			continue
		}
		_, err := a.GetUserByEmail(ctx(t), fmt.Sprintf("racer-%d@example.com", i))
		wantErr(t, fmt.Sprintf("GetUserByEmail(loser %d)", i), err, adapter.ErrNotFound)
	}
}

// testListSessions: an adapter.SessionLister lists a user's sessions,
// latest expiry first, with provider and sid, and no other user's.
func testListSessions(t *testing.T, a adapter.Adapter) {
	sl := implements[adapter.SessionLister](t, a)
	u, _ := a.CreateUser(ctx(t), newUser("lister@example.com"))
	other, _ := a.CreateUser(ctx(t), newUser("other@example.com"))
	for i, exp := range []time.Time{now.Add(time.Hour), now.Add(3 * time.Hour), now.Add(2 * time.Hour)} {
		if _, err := a.CreateSession(ctx(t), adapter.Session{Token: fmt.Sprint("list-", i), UserID: u.ID, Expires: exp, Provider: "github", SID: fmt.Sprint("sid-", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.CreateSession(ctx(t), adapter.Session{Token: "not-mine", UserID: other.ID, Expires: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	list, err := sl.ListSessions(ctx(t), u.ID)
	if err != nil || len(list) != 3 {
		t.Fatalf("ListSessions = %v, %v; want 3 sessions", list, err)
	}
	for i, want := range []string{"list-1", "list-2", "list-0"} {
		if s := list[i]; s.Token != want || s.Provider != "github" || s.SID != "sid-"+want[5:] || s.UserID != u.ID {
			t.Errorf("session %d = %+v, want token %s", i, s, want)
		}
	}
	if none, err := sl.ListSessions(ctx(t), "nobody"); err != nil || none == nil || len(none) != 0 {
		t.Fatalf("ListSessions(nobody) = %#v, %v; want an empty list", none, err)
	}
}

// testDeleteExpired: an adapter.Sweeper deletes expired sessions and
// verification tokens, and nothing that is still valid.
func testDeleteExpired(t *testing.T, a adapter.Adapter) {
	sw := implements[adapter.Sweeper](t, a)
	u := mustCreateUser(t, a, newUser("sweep@example.com"))
	for i, exp := range []time.Time{now.Add(-time.Hour), now.Add(-time.Minute), now.Add(time.Hour)} {
		if _, err := a.CreateSession(ctx(t), adapter.Session{Token: fmt.Sprint("sweep-", i), UserID: u.ID, Expires: exp}); err != nil {
			t.Fatal(err)
		}
		if err := a.CreateVerificationToken(ctx(t), adapter.VerificationToken{Identifier: "sweep@example.com", TokenHash: fmt.Sprint("h", i), Expires: exp}); err != nil {
			t.Fatal(err)
		}
	}
	s, tk, err := sw.DeleteExpired(ctx(t), now)
	if err != nil || s != 2 || tk != 2 {
		t.Fatalf("DeleteExpired = %d sessions, %d tokens, %v; want 2, 2", s, tk, err)
	}
	if _, _, err := a.GetSessionAndUser(ctx(t), "sweep-2"); err != nil {
		t.Fatalf("the live session was swept: %v", err)
	}
	if _, _, err := a.GetSessionAndUser(ctx(t), "sweep-0"); !errors.Is(err, adapter.ErrNotFound) {
		t.Fatalf("an expired session is still there: %v", err)
	}
	if _, err := a.UseVerificationToken(ctx(t), "sweep@example.com", "h2"); err != nil {
		t.Fatalf("the live token was swept: %v", err)
	}
	if _, err := a.UseVerificationToken(ctx(t), "sweep@example.com", "h1"); !errors.Is(err, adapter.ErrNotFound) {
		t.Fatalf("an expired token is still there: %v", err)
	}
}

// testRaceLinkOnePerProvider: a user has at most one account per
// provider, in the schema: of many concurrent links of different accounts
// at one provider to one user, one is stored, the others are ErrConflict.
// A check in code alone let up to 47 of 50 through.
func testRaceLinkOnePerProvider(t *testing.T, a adapter.Adapter) {
	u := mustCreateUser(t, a, newUser("linker@example.com"))
	errs := race(func(i int) error {
		return a.LinkAccount(ctx(t), newAccount(u.ID, "github", fmt.Sprint("gh-", i)))
	})
	oneWinner(t, "LinkAccount", errs, adapter.ErrConflict)
	list, err := a.ListAccounts(ctx(t), u.ID)
	if err != nil || len(list) != 1 {
		t.Fatalf("%d accounts at github linked to one user (%v), want 1", len(list), err)
	}
	// Another provider still links.
	if err := a.LinkAccount(ctx(t), newAccount(u.ID, "gitlab", "gl-1")); err != nil {
		t.Fatalf("LinkAccount at another provider: %v", err)
	}
}

func testRaceSameEmail(t *testing.T, a adapter.Adapter) {
	winner := raceNewUsers(t, a, func(int) string { return "racer@example.com" }, func(i int) string { return fmt.Sprint(i) })
	for i := range Racers {
		if i == winner {
			continue
		}
		_, err := a.GetAccount(ctx(t), "github", fmt.Sprint(i))
		wantErr(t, fmt.Sprintf("GetAccount(loser %d)", i), err, adapter.ErrNotFound)
	}
}

func testRaceUseVerificationToken(t *testing.T, a adapter.Adapter) {
	in := adapter.VerificationToken{Identifier: "ada@example.com", TokenHash: "hash-1", Expires: now.Add(time.Hour)}
	mustCreateToken(t, a, in)
	got := make([]adapter.VerificationToken, Racers)
	errs := race(func(i int) error {
		var err error
		got[i], err = a.UseVerificationToken(ctx(t), "ada@example.com", "hash-1")
		return err
	})
	winner := oneWinner(t, "UseVerificationToken", errs, adapter.ErrNotFound)
	checkToken(t, "UseVerificationToken(winner)", got[winner], in)
}

func testRaceCreateSession(t *testing.T, a adapter.Adapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	errs := race(func(i int) error {
		_, err := a.CreateSession(ctx(t), adapter.Session{Token: "same", UserID: u.ID, Expires: now.Add(time.Duration(i) * time.Minute)})
		return err
	})
	winner := oneWinner(t, "CreateSession", errs, adapter.ErrConflict)
	gs, _, err := a.GetSessionAndUser(ctx(t), "same")
	if err != nil {
		t.Fatalf("GetSessionAndUser: %v", err)
	}
	checkSession(t, "GetSessionAndUser(winner)", gs, adapter.Session{Token: "same", UserID: u.ID, Expires: now.Add(time.Duration(winner) * time.Minute)})
}

func testRaceDistinctWriters(t *testing.T, a adapter.Adapter) {
	// Writers that do not conflict all succeed: concurrency is no excuse
	// for a spurious error (such as SQLite's "database is locked").
	errs := race(func(i int) error {
		u, err := a.CreateUserWithAccount(ctx(t), newUser(fmt.Sprintf("w%d@example.com", i)), newAccount("", "github", fmt.Sprint(i)))
		if err != nil {
			return err
		}
		if _, err := a.CreateSession(ctx(t), adapter.Session{Token: fmt.Sprint("s", i), UserID: u.ID, Expires: now}); err != nil {
			return err
		}
		if _, _, err := a.GetSessionAndUser(ctx(t), fmt.Sprint("s", i)); err != nil {
			return err
		}
		if _, err := a.UpdateSession(ctx(t), fmt.Sprint("s", i), now.Add(time.Hour)); err != nil {
			return err
		}
		return a.DeleteUser(ctx(t), u.ID)
	})
	for i, err := range errs {
		if err != nil {
			t.Errorf("goroutine %d: %v", i, err)
		}
	}
}
