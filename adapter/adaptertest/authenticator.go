package adaptertest

import (
	"bytes"
	"math"
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// authenticatorTests are the cases for adapter.AuthenticatorAdapter. Run
// runs them too; an adapter that does not implement the method set skips
// them (it cannot serve the WebAuthn provider types).
var authenticatorTests = []storeTest[adapter.AuthenticatorAdapter]{
	{"Authenticator/CreateAndGet", testCreateAndGetAuthenticator},
	{"Authenticator/Conflict", testAuthenticatorConflict},
	{"Authenticator/UnknownUser", testAuthenticatorUnknownUser},
	{"Authenticator/NotFound", testAuthenticatorNotFound},
	{"Authenticator/List", testListAuthenticators},
	{"Authenticator/CounterAdvancesOnly", testAuthenticatorCounter},
	{"Authenticator/ZeroCounter", testAuthenticatorZeroCounter},
	{"Authenticator/DeleteUserCascades", testAuthenticatorDeleteUser},
	{"Concurrency/UpdateAuthenticatorCounter", testRaceAuthenticatorCounter},
}

func runAuthenticators(t *testing.T, newAdapter func(t *testing.T) adapter.Adapter) {
	runStore(t, newAdapter, authenticatorTests)
}

// newAuthenticator returns an authenticator with every field set; the
// counter is near the top of its range, so that a column too narrow shows.
func newAuthenticator(userID, credentialID string) adapter.Authenticator {
	return adapter.Authenticator{
		CredentialID:         credentialID,
		UserID:               userID,
		ProviderAccountID:    credentialID,
		CredentialPublicKey:  []byte{0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x00, 0xff, 0x80},
		Counter:              math.MaxUint32 - 10,
		CredentialDeviceType: adapter.MultiDevice,
		CredentialBackedUp:   true,
		Transports:           "internal,hybrid",
	}
}

// mustCreateAuthenticator stores a or fails the test.
func mustCreateAuthenticator(t *testing.T, s adapter.AuthenticatorAdapter, a adapter.Authenticator) adapter.Authenticator {
	t.Helper()
	return try(s.CreateAuthenticator(ctx(t), a)).must(t, "CreateAuthenticator("+a.CredentialID+")")
}

// mustCreateCounter creates a user and its authenticator "cred" with the
// given sign counter, or fails the test.
func mustCreateCounter(t *testing.T, a adapter.Adapter, s adapter.AuthenticatorAdapter, counter uint32) {
	t.Helper()
	au := newAuthenticator(mustCreateUser(t, a, newUser("ada@example.com")).ID, "cred")
	au.Counter = counter
	mustCreateAuthenticator(t, s, au)
}

func checkAuthenticator(t *testing.T, what string, got, want adapter.Authenticator) {
	t.Helper()
	pk := bytes.Equal(got.CredentialPublicKey, want.CredentialPublicKey)
	if !pk || got.CredentialID != want.CredentialID || got.UserID != want.UserID ||
		got.ProviderAccountID != want.ProviderAccountID || got.Counter != want.Counter ||
		got.CredentialDeviceType != want.CredentialDeviceType || got.CredentialBackedUp != want.CredentialBackedUp ||
		got.Transports != want.Transports {
		t.Errorf("%s: got %+v (public key equal: %v), want %+v", what, got, pk, want)
	}
}

func testCreateAndGetAuthenticator(t *testing.T, a adapter.Adapter, s adapter.AuthenticatorAdapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	want := newAuthenticator(u.ID, "Y3JlZC0x")
	got := mustCreateAuthenticator(t, s, want)
	checkAuthenticator(t, "CreateAuthenticator", got, want)
	got, err := s.GetAuthenticator(ctx(t), want.CredentialID)
	if err != nil {
		t.Fatalf("GetAuthenticator: %v", err)
	}
	checkAuthenticator(t, "GetAuthenticator", got, want)

	// Single-device, not backed up, no transports, counter 0.
	plain := adapter.Authenticator{CredentialID: "Y3JlZC0y", UserID: u.ID, ProviderAccountID: "Y3JlZC0y",
		CredentialPublicKey: []byte{1}, CredentialDeviceType: adapter.SingleDevice}
	mustCreateAuthenticator(t, s, plain)
	got, err = s.GetAuthenticator(ctx(t), plain.CredentialID)
	if err != nil {
		t.Fatalf("GetAuthenticator(plain): %v", err)
	}
	checkAuthenticator(t, "GetAuthenticator(plain)", got, plain)

	// The returned key is a copy: changing it changes nothing stored.
	got.CredentialPublicKey[0] = 9
	again, _ := s.GetAuthenticator(ctx(t), plain.CredentialID)
	if again.CredentialPublicKey[0] != 1 {
		t.Errorf("the stored public key changed through a returned slice")
	}
}

func testAuthenticatorConflict(t *testing.T, a adapter.Adapter, s adapter.AuthenticatorAdapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	other := mustCreateUser(t, a, newUser("bob@example.com"))
	first := mustCreateAuthenticator(t, s, newAuthenticator(u.ID, "cred"))
	_, err := s.CreateAuthenticator(ctx(t), newAuthenticator(other.ID, "cred"))
	wantErr(t, "CreateAuthenticator(same credential id)", err, adapter.ErrConflict)
	got, err := s.GetAuthenticator(ctx(t), "cred")
	if err != nil {
		t.Fatalf("GetAuthenticator: %v", err)
	}
	checkAuthenticator(t, "GetAuthenticator after conflict", got, first)
}

func testAuthenticatorUnknownUser(t *testing.T, _ adapter.Adapter, s adapter.AuthenticatorAdapter) {
	_, err := s.CreateAuthenticator(ctx(t), newAuthenticator("no-such-user", "cred"))
	wantErr(t, "CreateAuthenticator(unknown user)", err, adapter.ErrNotFound)
	_, err = s.GetAuthenticator(ctx(t), "cred")
	wantErr(t, "GetAuthenticator(never stored)", err, adapter.ErrNotFound)
}

func testAuthenticatorNotFound(t *testing.T, a adapter.Adapter, s adapter.AuthenticatorAdapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	mustCreateAuthenticator(t, s, newAuthenticator(u.ID, "cred"))
	_, err := s.GetAuthenticator(ctx(t), "CRED") // ids are case-sensitive
	wantErr(t, "GetAuthenticator(other case)", err, adapter.ErrNotFound)
	_, err = s.UpdateAuthenticatorCounter(ctx(t), "missing", 1)
	wantErr(t, "UpdateAuthenticatorCounter(unknown)", err, adapter.ErrNotFound)
}

func testListAuthenticators(t *testing.T, a adapter.Adapter, s adapter.AuthenticatorAdapter) {
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	other := mustCreateUser(t, a, newUser("bob@example.com"))
	list, err := s.ListAuthenticatorsByUserID(ctx(t), u.ID)
	if err != nil || len(list) != 0 {
		t.Fatalf("ListAuthenticatorsByUserID(none) = %v, %v; want empty, nil", list, err)
	}
	want := map[string]adapter.Authenticator{}
	for _, id := range []string{"b-cred", "a-cred"} {
		want[id] = mustCreateAuthenticator(t, s, newAuthenticator(u.ID, id))
	}
	mustCreateAuthenticator(t, s, newAuthenticator(other.ID, "c-cred"))
	list, err = s.ListAuthenticatorsByUserID(ctx(t), u.ID)
	if err != nil || len(list) != 2 {
		t.Fatalf("ListAuthenticatorsByUserID = %v, %v; want 2", list, err)
	}
	for _, got := range list {
		w, ok := want[got.CredentialID]
		if !ok {
			t.Errorf("ListAuthenticatorsByUserID returned %q, another user's or unknown", got.CredentialID)
			continue
		}
		checkAuthenticator(t, "ListAuthenticatorsByUserID", got, w)
	}
	list, err = s.ListAuthenticatorsByUserID(ctx(t), "no-such-user")
	if err != nil || len(list) != 0 {
		t.Errorf("ListAuthenticatorsByUserID(unknown user) = %v, %v; want empty, nil", list, err)
	}
}

func testAuthenticatorCounter(t *testing.T, a adapter.Adapter, s adapter.AuthenticatorAdapter) {
	mustCreateCounter(t, a, s, 5)
	got, err := s.UpdateAuthenticatorCounter(ctx(t), "cred", 6)
	if err != nil || got.Counter != 6 {
		t.Fatalf("UpdateAuthenticatorCounter(6) = %+v, %v", got, err)
	}
	// Equal or lower: a possible clone (WebAuthn §6.1.1), refused.
	for _, c := range []uint32{6, 3, 0} {
		_, err = s.UpdateAuthenticatorCounter(ctx(t), "cred", c)
		wantErr(t, "UpdateAuthenticatorCounter(regression)", err, adapter.ErrCounterRegression)
		wantErr(t, "UpdateAuthenticatorCounter(regression) is a conflict", err, adapter.ErrConflict)
	}
	got, err = s.GetAuthenticator(ctx(t), "cred")
	if err != nil || got.Counter != 6 {
		t.Fatalf("counter after refused updates = %d, %v; want 6", got.Counter, err)
	}
	got, err = s.UpdateAuthenticatorCounter(ctx(t), "cred", math.MaxUint32)
	if err != nil || got.Counter != math.MaxUint32 {
		t.Fatalf("UpdateAuthenticatorCounter(max) = %+v, %v", got, err)
	}
}

func testAuthenticatorZeroCounter(t *testing.T, a adapter.Adapter, s adapter.AuthenticatorAdapter) {
	mustCreateCounter(t, a, s, 0)
	// An authenticator that does not count always sends 0.
	for range 3 {
		if got, err := s.UpdateAuthenticatorCounter(ctx(t), "cred", 0); err != nil || got.Counter != 0 {
			t.Fatalf("UpdateAuthenticatorCounter(0 after 0) = %+v, %v", got, err)
		}
	}
	// Once it has counted, 0 is a regression.
	if _, err := s.UpdateAuthenticatorCounter(ctx(t), "cred", 1); err != nil {
		t.Fatalf("UpdateAuthenticatorCounter(1): %v", err)
	}
	_, err := s.UpdateAuthenticatorCounter(ctx(t), "cred", 0)
	wantErr(t, "UpdateAuthenticatorCounter(0 after 1)", err, adapter.ErrCounterRegression)
}

func testAuthenticatorDeleteUser(t *testing.T, a adapter.Adapter, s adapter.AuthenticatorAdapter) {
	doomed := mustCreateUser(t, a, newUser("doomed@example.com"))
	kept := mustCreateUser(t, a, newUser("kept@example.com"))
	mustCreateAuthenticator(t, s, newAuthenticator(doomed.ID, "d1"))
	mustCreateAuthenticator(t, s, newAuthenticator(kept.ID, "k1"))
	if err := a.DeleteUser(ctx(t), doomed.ID); err != nil {
		t.Fatalf("DeleteUser: %v", err)
	}
	_, err := s.GetAuthenticator(ctx(t), "d1")
	wantErr(t, "GetAuthenticator(of deleted user)", err, adapter.ErrNotFound)
	if _, err := s.GetAuthenticator(ctx(t), "k1"); err != nil {
		t.Errorf("GetAuthenticator(kept): %v", err)
	}
	// The credential id can be stored again.
	again := mustCreateUser(t, a, newUser("doomed@example.com"))
	mustCreateAuthenticator(t, s, newAuthenticator(again.ID, "d1"))
}

// testRaceAuthenticatorCounter: of concurrent sign-ins presenting the same
// counter, exactly one may succeed; the others look like a clone.
func testRaceAuthenticatorCounter(t *testing.T, a adapter.Adapter, s adapter.AuthenticatorAdapter) {
	mustCreateCounter(t, a, s, 1)
	errs := race(func(int) error {
		_, err := s.UpdateAuthenticatorCounter(ctx(t), "cred", 2)
		return err
	})
	oneWinner(t, "UpdateAuthenticatorCounter", errs, adapter.ErrCounterRegression)
	if got, err := s.GetAuthenticator(ctx(t), "cred"); err != nil || got.Counter != 2 {
		t.Errorf("counter after the race = %d, %v; want 2", got.Counter, err)
	}
}
