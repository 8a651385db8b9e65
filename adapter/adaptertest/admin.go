package adaptertest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
	"github.com/gatehouse-auth/gatehouse/twofactor"
)

// runAdmin runs the admin.Store tests, when the adapter is one (through
// wrappers: adapter.Supports).
func runAdmin(t *testing.T, newAdapter func(t *testing.T) adapter.Adapter) {
	runStore(t, newAdapter, []storeTest[admin.Store]{
		{"Admin/Role", testAdminRole},
		{"Admin/Ban", testAdminBan},
		{"Admin/RevokeSessions", testAdminRevoke},
		{"Admin/List", testAdminList},
		{"Admin/Purge", testAdminPurge},
		{"Admin/Concurrent", testAdminConcurrent},
	})
}

// status reads the user's status or fails the test.
func status(t *testing.T, s admin.Store, userID string) admin.Status {
	t.Helper()
	st, err := s.UserStatus(ctx(t), userID)
	if err != nil {
		t.Fatalf("UserStatus(%q): %v", userID, err)
	}
	return st
}

// testAdminRole: a user has RoleUser until another is stored; an unknown
// user and an invalid role are refused.
func testAdminRole(t *testing.T, a adapter.Adapter, s admin.Store) {
	u := mustCreateUser(t, a, newUser("role@example.com"))
	if st := status(t, s, u.ID); st.Role != admin.RoleUser || st.Ban != nil || !st.RevokedBefore.IsZero() {
		t.Fatalf("new user's status = %+v; want RoleUser and nothing else", st)
	}
	if _, err := s.UserStatus(ctx(t), "no-such-user"); !errors.Is(err, adapter.ErrNotFound) {
		t.Fatalf("unknown user's status: %v; want ErrNotFound", err)
	}
	if err := s.SetUserRole(ctx(t), u.ID, admin.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	if st := status(t, s, u.ID); st.Role != admin.RoleAdmin {
		t.Fatalf("role = %q; want admin", st.Role)
	}
	if err := s.SetUserRole(ctx(t), u.ID, "root"); !errors.Is(err, admin.ErrInvalidRole) {
		t.Errorf("SetUserRole(root) = %v; want ErrInvalidRole", err)
	}
	if err := s.SetUserRole(ctx(t), "no-such-user", admin.RoleAdmin); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("SetUserRole(unknown user) = %v; want ErrNotFound", err)
	}
	if st := status(t, s, u.ID); st.Role != admin.RoleAdmin {
		t.Fatalf("role after a refused change = %q; want admin", st.Role)
	}
}

// testAdminBan: a ban is stored whole, revokes sessions from its time,
// keeps the role, and an unban removes it but not the revocation.
func testAdminBan(t *testing.T, a adapter.Adapter, s admin.Store) {
	u := mustCreateUser(t, a, newUser("ban@example.com"))
	if err := s.SetUserRole(ctx(t), u.ID, admin.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	b := admin.Ban{Reason: "spam", ShowReason: true, Expires: now.Add(time.Hour), By: "boss", At: now}
	if err := s.BanUser(ctx(t), u.ID, b); err != nil {
		t.Fatal(err)
	}
	st := status(t, s, u.ID)
	if st.Ban == nil || st.Ban.Reason != "spam" || !st.Ban.ShowReason || st.Ban.By != "boss" ||
		!sameTime(st.Ban.At, now) || !sameTime(st.Ban.Expires, now.Add(time.Hour)) {
		t.Fatalf("ban = %+v; want %+v", st.Ban, b)
	}
	checkUTC(t, "Ban.At", st.Ban.At)
	if st.Role != admin.RoleAdmin {
		t.Errorf("role after ban = %q; want it kept", st.Role)
	}
	if !st.RevokedBefore.Equal(admin.RevocationTime(now)) {
		t.Errorf("RevokedBefore = %v; want %v", st.RevokedBefore, admin.RevocationTime(now))
	}
	if !st.Ban.Active(now) || st.Ban.Active(now.Add(2*time.Hour)) {
		t.Errorf("ban active now %v, after expiry %v; want true, false", st.Ban.Active(now), st.Ban.Active(now.Add(2*time.Hour)))
	}
	// A ban without expiry replaces the first.
	if err := s.BanUser(ctx(t), u.ID, admin.Ban{By: "boss", At: now.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	st = status(t, s, u.ID)
	if st.Ban == nil || !st.Ban.Expires.IsZero() || st.Ban.Reason != "" || !st.Ban.Active(now.Add(1000*time.Hour)) {
		t.Fatalf("second ban = %+v; want a ban that never lifts, no reason", st.Ban)
	}
	if !st.RevokedBefore.Equal(admin.RevocationTime(now)) {
		t.Errorf("RevokedBefore moved back to %v by an earlier ban; want %v", st.RevokedBefore, admin.RevocationTime(now))
	}
	if err := s.UnbanUser(ctx(t), u.ID); err != nil {
		t.Fatal(err)
	}
	st = status(t, s, u.ID)
	if st.Ban != nil || st.RevokedBefore.IsZero() || st.Role != admin.RoleAdmin {
		t.Fatalf("after unban %+v; want no ban, the revocation and role kept", st)
	}
	if err := s.UnbanUser(ctx(t), u.ID); err != nil {
		t.Errorf("unban of a user not banned = %v; want nil", err)
	}
	if err := s.BanUser(ctx(t), "no-such-user", b); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("BanUser(unknown) = %v; want ErrNotFound", err)
	}
}

// testAdminRevoke: RevokeSessions moves RevokedBefore forward only, to
// the microsecond rounded up.
func testAdminRevoke(t *testing.T, a adapter.Adapter, s admin.Store) {
	u := mustCreateUser(t, a, newUser("revoke@example.com"))
	at := time.Date(2025, 1, 2, 3, 4, 5, 600, time.UTC)
	if err := s.RevokeSessions(ctx(t), u.ID, at); err != nil {
		t.Fatal(err)
	}
	want := time.Date(2025, 1, 2, 3, 4, 5, int(time.Microsecond), time.UTC)
	if st := status(t, s, u.ID); !st.RevokedBefore.Equal(want) || st.Role != admin.RoleUser {
		t.Fatalf("status = %+v; want RevokedBefore %v", st, want)
	}
	if err := s.RevokeSessions(ctx(t), u.ID, at.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if st := status(t, s, u.ID); !st.RevokedBefore.Equal(want) {
		t.Errorf("RevokedBefore moved back to %v", st.RevokedBefore)
	}
	if !(admin.Status{RevokedBefore: want}).Refuses(at, at) || (admin.Status{RevokedBefore: want}).Refuses(want, want) {
		t.Error("Refuses: a session from before the revocation must be refused, one from its second-after not")
	}
	if err := s.RevokeSessions(ctx(t), "no-such-user", at); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("RevokeSessions(unknown) = %v; want ErrNotFound", err)
	}
}

// testAdminList: search by substring of e-mail or name in any ASCII case
// (LIKE's wildcards taken literally), filters by role and active ban, and
// pages by cursor through every user exactly once.
func testAdminList(t *testing.T, a adapter.Adapter, s admin.Store) {
	var ids []string
	for i := range 7 {
		u := newUser(fmt.Sprintf("user%d@list.example", i))
		u.Name = fmt.Sprintf("Person %d", i)
		if i == 3 {
			u.Name = "Grace_Hopper 100%"
		}
		ids = append(ids, mustCreateUser(t, a, u).ID)
	}
	if err := s.SetUserRole(ctx(t), ids[1], admin.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	if err := s.BanUser(ctx(t), ids[2], admin.Ban{At: now}); err != nil {
		t.Fatal(err)
	}
	if err := s.BanUser(ctx(t), ids[4], admin.Ban{At: now.Add(-2 * time.Hour), Expires: now.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	list := func(q admin.Query) []string {
		t.Helper()
		if q.Limit == 0 {
			q.Limit = 100
		}
		q.Now = now
		p, err := s.ListUsers(ctx(t), q)
		if err != nil {
			t.Fatalf("ListUsers(%+v): %v", q, err)
		}
		var out []string
		for _, l := range p.Users {
			out = append(out, l.User.ID)
		}
		return out
	}
	same := func(what string, got []string, want ...string) {
		t.Helper()
		gs, ws := map[string]bool{}, map[string]bool{}
		for _, g := range got {
			gs[g] = true
		}
		for _, w := range want {
			ws[w] = true
		}
		if len(got) != len(want) || fmt.Sprint(gs) != fmt.Sprint(ws) {
			t.Errorf("%s = %v; want %v", what, got, want)
		}
	}
	same("search USER3@LIST", list(admin.Query{Search: "USER3@LIST"}), ids[3])
	same("search person 5", list(admin.Query{Search: "person 5"}), ids[5])
	same("search %", list(admin.Query{Search: "100%"}), ids[3])
	same("search _", list(admin.Query{Search: "e_h"}), ids[3])
	same("search nothing", list(admin.Query{Search: "nobody"}))
	same("role admin", list(admin.Query{Role: admin.RoleAdmin}), ids[1])
	same("banned", list(admin.Query{BannedOnly: true}), ids[2])
	same("banned admins", list(admin.Query{BannedOnly: true, Role: admin.RoleAdmin}))

	p, err := s.ListUsers(ctx(t), admin.Query{Search: "@list.example", Limit: 100, Now: now})
	if err != nil || len(p.Users) != 7 {
		t.Fatalf("ListUsers = %d users, %v; want 7", len(p.Users), err)
	}
	for _, l := range p.Users {
		if l.User.ID == ids[2] && (l.Status.Ban == nil || !l.Status.Ban.Active(now)) {
			t.Errorf("listed status of the banned user = %+v", l.Status)
		}
		if l.User.ID == ids[1] && l.Status.Role != admin.RoleAdmin {
			t.Errorf("listed role of the admin = %q", l.Status.Role)
		}
	}
	seen := map[string]int{}
	after := ""
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("paging does not end")
		}
		p, err := s.ListUsers(ctx(t), admin.Query{Search: "@list.example", Limit: 3, After: after})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Users) > 3 {
			t.Fatalf("page of %d users; want at most 3", len(p.Users))
		}
		for _, l := range p.Users {
			seen[l.User.ID]++
		}
		if p.Next == "" {
			break
		}
		after = p.Next
	}
	if len(seen) != 7 {
		t.Errorf("paging saw %d users; want 7", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("paging saw %s %d times", id, n)
		}
	}
}

// testAdminPurge: PurgeUser leaves nothing of the user (read back through
// every interface the adapter has) and nothing of anyone else is touched.
func testAdminPurge(t *testing.T, a adapter.Adapter, s admin.Store) {
	u := mustCreateUser(t, a, newUser("purge@example.com"))
	other := mustCreateUser(t, a, newUser("keep@example.com"))
	for _, id := range []string{u.ID, other.ID} {
		if err := a.LinkAccount(ctx(t), account.Account{UserID: id, Type: account.TypeOAuth, Provider: "github", ProviderAccountID: "gh-" + id}); err != nil {
			t.Fatal(err)
		}
		if _, err := a.CreateSession(ctx(t), adapter.Session{Token: "tok-" + id, UserID: id, Expires: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if err := s.BanUser(ctx(t), id, admin.Ban{At: now}); err != nil {
			t.Fatal(err)
		}
	}
	for _, email := range []string{u.Email, other.Email} {
		if err := a.CreateVerificationToken(ctx(t), adapter.VerificationToken{Identifier: email, TokenHash: "h", Expires: time.Now().Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	ps, hasPasswords := a.(adapter.PasswordStore)
	hasPasswords = hasPasswords && adapter.Supports[adapter.PasswordStore](a)
	if hasPasswords {
		if err := ps.SetPasswordHash(ctx(t), u.ID, "$argon2id$x"); err != nil {
			t.Fatal(err)
		}
	}
	tf, hasTwoFactor := a.(twofactor.Store)
	hasTwoFactor = hasTwoFactor && adapter.Supports[twofactor.Store](a)
	if hasTwoFactor {
		if err := tf.SetTwoFactor(ctx(t), u.ID, twofactor.Secret{Sealed: "s", Enabled: true, BackupCodes: []string{"b"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PurgeUser(ctx(t), u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.GetUser(ctx(t), u.ID); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("GetUser after purge = %v; want ErrNotFound", err)
	}
	if _, err := a.GetAccount(ctx(t), "github", "gh-"+u.ID); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("GetAccount after purge = %v; want ErrNotFound", err)
	}
	if _, _, err := a.GetSessionAndUser(ctx(t), "tok-"+u.ID); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("GetSessionAndUser after purge = %v; want ErrNotFound", err)
	}
	if _, err := a.UseVerificationToken(ctx(t), u.Email, "h"); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("the purged address's verification token: %v; want ErrNotFound", err)
	}
	if st, err := s.UserStatus(ctx(t), u.ID); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("status after purge = %+v, %v; want ErrNotFound", st, err)
	}
	if hasPasswords {
		if _, err := ps.PasswordHash(ctx(t), u.ID); !errors.Is(err, adapter.ErrNotFound) {
			t.Errorf("PasswordHash after purge = %v; want ErrNotFound", err)
		}
	}
	if hasTwoFactor {
		if _, err := tf.TwoFactor(ctx(t), u.ID); !errors.Is(err, twofactor.ErrNotEnrolled) {
			t.Errorf("TwoFactor after purge = %v; want ErrNotEnrolled", err)
		}
	}
	if err := s.PurgeUser(ctx(t), u.ID); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("second PurgeUser = %v; want ErrNotFound", err)
	}
	// The other user keeps everything.
	if _, _, err := a.GetSessionAndUser(ctx(t), "tok-"+other.ID); err != nil {
		t.Errorf("the other user's session: %v", err)
	}
	if _, err := a.UseVerificationToken(ctx(t), other.Email, "h"); err != nil {
		t.Errorf("the other user's verification token: %v", err)
	}
	if st := status(t, s, other.ID); st.Ban == nil {
		t.Error("the other user's ban is gone")
	}
}

// testAdminConcurrent: 50 concurrent role changes, bans and unbans of one
// user leave a valid status whose RevokedBefore is the latest ban's, and
// a role and ban that the last writer of each could have left.
func testAdminConcurrent(t *testing.T, a adapter.Adapter, s admin.Store) {
	u := mustCreateUser(t, a, newUser("race@example.com"))
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	latest := now.Add(49 * time.Second)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			switch i % 3 {
			case 0:
				err = s.SetUserRole(ctx(t), u.ID, []admin.Role{admin.RoleUser, admin.RoleAdmin}[i%2])
			case 1:
				err = s.BanUser(ctx(t), u.ID, admin.Ban{Reason: fmt.Sprint(i), By: "x", At: now.Add(time.Duration(i) * time.Second)})
			case 2:
				err = s.UnbanUser(ctx(t), u.ID)
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent change: %v", err)
	}
	st := status(t, s, u.ID)
	if !st.Role.Valid() {
		t.Errorf("role = %q", st.Role)
	}
	// The latest ban (i = 49) set RevokedBefore; no earlier one moved it back.
	if !st.RevokedBefore.Equal(admin.RevocationTime(latest)) {
		t.Errorf("RevokedBefore = %v; want the latest ban's %v", st.RevokedBefore, admin.RevocationTime(latest))
	}
	if st.Ban != nil && (st.Ban.By != "x" || st.Ban.Reason == "") {
		t.Errorf("ban = %+v: a mix of two bans", st.Ban)
	}
}
