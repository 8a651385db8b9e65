package adaptertest

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// testDeleteUserSessions: the optional adapter.SessionRevoker ends every
// session of one user and no other user's (back-channel logout).
func testDeleteUserSessions(t *testing.T, a adapter.Adapter) {
	r, ok := a.(adapter.SessionRevoker)
	if !ok {
		t.Skip("the adapter does not implement adapter.SessionRevoker")
	}
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	other := mustCreateUser(t, a, newUser("grace@example.com"))
	mustCreateSession(t, a, adapter.Session{Token: "a1", UserID: u.ID, Expires: now})
	mustCreateSession(t, a, adapter.Session{Token: "a2", UserID: u.ID, Expires: now})
	mustCreateSession(t, a, adapter.Session{Token: "g1", UserID: other.ID, Expires: now})

	n, err := r.DeleteUserSessions(ctx(t), u.ID)
	if err != nil || n != 2 {
		t.Fatalf("DeleteUserSessions = %d, %v; want 2, nil", n, err)
	}
	for _, tok := range []string{"a1", "a2"} {
		_, _, err := a.GetSessionAndUser(ctx(t), tok)
		wantErr(t, "GetSessionAndUser("+tok+")", err, adapter.ErrNotFound)
	}
	if _, _, err := a.GetSessionAndUser(ctx(t), "g1"); err != nil {
		t.Errorf("the other user's session went too: %v", err)
	}
	if _, err := a.GetUser(ctx(t), u.ID); err != nil {
		t.Errorf("the user went with the sessions: %v", err)
	}
	// Again, and for nobody: zero, not an error.
	if n, err := r.DeleteUserSessions(ctx(t), u.ID); err != nil || n != 0 {
		t.Errorf("DeleteUserSessions(again) = %d, %v; want 0, nil", n, err)
	}
	if n, err := r.DeleteUserSessions(ctx(t), "no-such-user"); err != nil || n != 0 {
		t.Errorf("DeleteUserSessions(unknown) = %d, %v; want 0, nil", n, err)
	}
}
