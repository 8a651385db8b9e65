package sessions

import (
	"context"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
)

// TestEndOthers: a password change ends every database session of the
// user but this browser's, and none of another user's; with JWT sessions
// there is nothing to end.
func TestEndOthers(t *testing.T) {
	ctx := context.Background()
	m := memory.New()
	expires := time.Now().Add(time.Hour)
	var ada, bob adapter.User
	for _, u := range []*adapter.User{&ada, &bob} {
		stored, err := m.CreateUser(ctx, adapter.User{})
		if err != nil {
			t.Fatal(err)
		}
		*u = stored
	}
	for _, s := range []adapter.Session{
		{Token: "here", UserID: ada.ID, Expires: expires},
		{Token: "phone", UserID: ada.ID, Expires: expires},
		{Token: "laptop", UserID: ada.ID, Expires: expires},
		{Token: "bobs", UserID: bob.ID, Expires: expires},
	} {
		if _, err := m.CreateSession(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	alive := func(token string) bool {
		for _, user := range []string{ada.ID, bob.ID} {
			list, err := m.ListSessions(ctx, user)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range list {
				if s.Token == token {
					return true
				}
			}
		}
		return false
	}
	jwt, err := New(Config{Adapter: m, Secret: []string{"a-secret-of-enough-length-for-tests"}})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := jwt.EndOthers(ctx, ada.ID, "here"); n != 0 || err != nil || !alive("phone") {
		t.Fatalf("JWT sessions: EndOthers = %d, %v; phone alive %v", n, err, alive("phone"))
	}
	db, err := New(Config{Database: true, Adapter: m, Secret: []string{"a-secret-of-enough-length-for-tests"}})
	if err != nil {
		t.Fatal(err)
	}
	n, err := db.EndOthers(ctx, ada.ID, "here")
	if err != nil || n != 2 {
		t.Fatalf("EndOthers = %d, %v, want 2", n, err)
	}
	if !alive("here") || alive("phone") || alive("laptop") || !alive("bobs") {
		t.Errorf("after EndOthers: here %v, phone %v, laptop %v, bob's %v", alive("here"), alive("phone"), alive("laptop"), alive("bobs"))
	}
	if n, err := db.EndOthers(ctx, ada.ID, "here"); n != 0 || err != nil {
		t.Errorf("again: EndOthers = %d, %v, want 0 (nothing left to end)", n, err)
	}
}
