package adaptertest

import (
	"slices"
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// testDeleteUserSessions: the optional adapter.SessionRevoker ends every
// session of one user and no other user's (back-channel logout).
func testDeleteUserSessions(t *testing.T, a adapter.Adapter) {
	r := implements[adapter.SessionRevoker](t, a)
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

// testDeleteProviderSessions: the optional adapter.ProviderSessionRevoker
// ends the sessions of one provider session (sid), or of one user at one
// provider, and no other.
func testDeleteProviderSessions(t *testing.T, a adapter.Adapter) {
	r := implements[adapter.ProviderSessionRevoker](t, a)
	u := mustCreateUser(t, a, newUser("ada@example.com"))
	other := mustCreateUser(t, a, newUser("grace@example.com"))
	for _, s := range []adapter.Session{
		{Token: "s1", UserID: u.ID, Expires: now, Provider: "corp", SID: "sid-1"},
		{Token: "s2", UserID: u.ID, Expires: now, Provider: "corp", SID: "sid-2"},
		{Token: "s3", UserID: u.ID, Expires: now, Provider: "github"},
		{Token: "s4", UserID: other.ID, Expires: now, Provider: "corp", SID: "sid-4"},
		{Token: "s5", UserID: u.ID, Expires: now}, // before providers were recorded
	} {
		mustCreateSession(t, a, s)
	}
	gone := func(tokens ...string) {
		t.Helper()
		for _, tok := range []string{"s1", "s2", "s3", "s4", "s5"} {
			_, _, err := a.GetSessionAndUser(ctx(t), tok)
			want := slices.Contains(tokens, tok)
			if (err != nil) != want {
				t.Errorf("session %s: GetSessionAndUser error %v, want gone %v", tok, err, want)
			}
		}
	}
	if n, err := r.DeleteProviderSessions(ctx(t), "corp", "", "sid-1"); err != nil || n != 1 {
		t.Fatalf("by sid: %d, %v; want 1", n, err)
	}
	gone("s1")
	if n, err := r.DeleteProviderSessions(ctx(t), "corp", other.ID, "sid-2"); err != nil || n != 0 {
		t.Fatalf("by sid of another user: %d, %v; want 0", n, err)
	}
	if n, err := r.DeleteProviderSessions(ctx(t), "corp", u.ID, ""); err != nil || n != 1 {
		t.Fatalf("by user at corp: %d, %v; want 1", n, err)
	}
	gone("s1", "s2")
	if n, err := r.DeleteProviderSessions(ctx(t), "corp", "", ""); err != nil || n != 0 {
		t.Fatalf("neither sid nor user: %d, %v; want 0 (nothing)", n, err)
	}
	gone("s1", "s2")
	if n, err := r.DeleteProviderSessions(ctx(t), "", u.ID, ""); err != nil || n != 1 {
		t.Fatalf("by user, no provider recorded: %d, %v; want 1", n, err)
	}
	gone("s1", "s2", "s5")
}
