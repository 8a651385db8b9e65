package passwordaccount_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
	"github.com/gatehouse-auth/gatehouse/password"
	"github.com/gatehouse-auth/gatehouse/providers/email"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
)

// cheap are small argon2id parameters, so the tests run fast.
var cheap = password.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

var links = passwordaccount.Links{Verify: "https://app.test/auth/password/verify", Reset: "https://app.test/auth/password/reset", Forgot: "https://app.test/auth/password/forgot"}

type fixture struct {
	svc   *passwordaccount.Service
	store *memory.Adapter
	box   *flowtest.Outbox[passwordaccount.Message]
}

func newFixture(t *testing.T, edit func(*passwordaccount.Config)) fixture {
	t.Helper()
	h, err := password.NewHasher(cheap, 0)
	if err != nil {
		t.Fatal(err)
	}
	box := &flowtest.Outbox[passwordaccount.Message]{}
	cfg := passwordaccount.Config{Hasher: h, Send: box.Send}
	if edit != nil {
		edit(&cfg)
	}
	store := memory.New()
	svc, err := passwordaccount.NewService(cfg, store, passwordaccount.Options{Secrets: []string{"a secret of thirty-two bytes or more!"}})
	if err != nil {
		t.Fatal(err)
	}
	return fixture{svc, store, box}
}

// token returns the token and address of a message's link.
func token(t *testing.T, m passwordaccount.Message) (tok, addr string) {
	t.Helper()
	u, err := url.Parse(m.URL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("token"), u.Query().Get("email")
}

// signUp signs up and returns the confirmation message.
func (f fixture) signUp(t *testing.T, addr, pw string) passwordaccount.Message {
	t.Helper()
	ctx := context.Background()
	if err := f.svc.SignUp(ctx, addr, pw, "Alice", links); err != nil {
		t.Fatalf("SignUp: %v", err)
	}
	f.svc.Wait()
	sent := f.box.Take()
	if len(sent) != 1 || sent[0].Kind != passwordaccount.KindVerify {
		t.Fatalf("sent %+v, want one confirmation", sent)
	}
	return sent[0]
}

func TestSignUpVerifySignIn(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil)
	m := f.signUp(t, "Alice@Example.com", "correct horse battery")
	if m.To != "alice@example.com" || !strings.HasPrefix(m.URL, links.Verify+"?") || m.Host != "app.test" {
		t.Fatalf("message %+v", m)
	}
	if c, err := m.Content(); err != nil || !strings.Contains(c.Subject, "Confirm") || !strings.Contains(c.Text, m.URL) || !strings.Contains(c.HTML, "Confirm address") {
		t.Errorf("content %q %q %v", c.Subject, c.Text, err)
	}

	// Before confirming: the right password is ErrUnverified, a wrong one
	// ErrInvalidCredentials.
	if _, err := f.svc.SignIn(ctx, "alice@example.com", "correct horse battery"); !errors.Is(err, passwordaccount.ErrUnverified) {
		t.Fatalf("SignIn before confirming: %v, want ErrUnverified", err)
	}
	if _, err := f.svc.SignIn(ctx, "alice@example.com", "wrong horse battery"); !errors.Is(err, passwordaccount.ErrInvalidCredentials) {
		t.Fatalf("SignIn with a wrong password: %v", err)
	}

	tok, addr := token(t, m)
	u, err := f.svc.Verify(ctx, addr, tok)
	if err != nil || u.EmailVerified == nil || u.Name != "Alice" {
		t.Fatalf("Verify: %+v, %v", u, err)
	}
	if _, err := f.svc.Verify(ctx, addr, tok); !errors.Is(err, passwordaccount.ErrInvalidToken) {
		t.Fatalf("second Verify: %v, want ErrInvalidToken (single use)", err)
	}
	got, err := f.svc.SignIn(ctx, " ALICE@example.com", "correct horse battery")
	if err != nil || got.ID != u.ID {
		t.Fatalf("SignIn: %+v, %v", got, err)
	}
	for _, c := range []struct{ addr, pw string }{
		{"alice@example.com", "correct horse batterY"},
		{"nobody@example.com", "correct horse battery"},
		{"not an address", "correct horse battery"},
	} {
		if _, err := f.svc.SignIn(ctx, c.addr, c.pw); !errors.Is(err, passwordaccount.ErrInvalidCredentials) {
			t.Errorf("SignIn(%q): %v, want ErrInvalidCredentials", c.addr, err)
		}
	}
}

func TestAllowUnverified(t *testing.T) {
	f := newFixture(t, func(c *passwordaccount.Config) { c.AllowUnverified = true })
	f.signUp(t, "bob@example.com", "correct horse battery")
	u, err := f.svc.SignIn(context.Background(), "bob@example.com", "correct horse battery")
	if err != nil || u.EmailVerified != nil {
		t.Fatalf("SignIn: %+v, %v", u, err)
	}
}

func TestSignUpPolicy(t *testing.T) {
	f := newFixture(t, func(c *passwordaccount.Config) {
		c.Policy.Breached = func(_ context.Context, pw string) (bool, error) { return pw == "password1234", nil }
	})
	ctx := context.Background()
	for pw, want := range map[string]error{
		"short":                   password.ErrTooShort,
		strings.Repeat("x", 129):  password.ErrTooLong,
		"password1234":            password.ErrBreached,
		"":                        password.ErrTooShort,
		strings.Repeat("é", 5000): password.ErrTooLong,
	} {
		if err := f.svc.SignUp(ctx, "carol@example.com", pw, "", links); !errors.Is(err, want) {
			t.Errorf("SignUp(%d chars): %v, want %v", len(pw), err, want)
		}
	}
	if err := f.svc.SignUp(ctx, "carol@@example.com", "correct horse battery", "", links); !errors.Is(err, email.ErrInvalidAddress) {
		t.Errorf("SignUp with a bad address: %v", err)
	}
	f.svc.Wait()
	if sent := f.box.Take(); len(sent) != 0 {
		t.Errorf("refused sign-ups sent %+v", sent)
	}
	if _, err := f.store.GetUserByEmail(ctx, "carol@example.com"); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("a refused sign-up stored a user: %v", err)
	}
}

// A sign-up with a known address changes nothing and tells the owner.
func TestSignUpKnownAddress(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil)
	m := f.signUp(t, "dave@example.com", "first password!")
	tok, addr := token(t, m)
	if _, err := f.svc.Verify(ctx, addr, tok); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.SignUp(ctx, "dave@example.com", "attacker password", "Mallory", links); err != nil {
		t.Fatalf("SignUp of a known address: %v (must answer as a new one)", err)
	}
	f.svc.Wait()
	sent := f.box.Take()
	if len(sent) != 1 || sent[0].Kind != passwordaccount.KindExists || sent[0].To != "dave@example.com" || strings.Contains(sent[0].URL, "token") {
		t.Fatalf("sent %+v, want one KindExists message without a token", sent)
	}
	if _, err := f.svc.SignIn(ctx, "dave@example.com", "attacker password"); !errors.Is(err, passwordaccount.ErrInvalidCredentials) {
		t.Fatalf("the second sign-up's password works: %v", err)
	}
	if _, err := f.svc.SignIn(ctx, "dave@example.com", "first password!"); err != nil {
		t.Fatalf("the first password stopped working: %v", err)
	}
}

func TestForgotReset(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil)
	m := f.signUp(t, "erin@example.com", "old password!")
	if vtok, vaddr := token(t, m); true {
		if _, err := f.svc.Verify(ctx, vaddr, vtok); err != nil {
			t.Fatal(err)
		}
	}
	u, err := f.store.GetUserByEmail(ctx, "erin@example.com")
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{"s1", "s2"} {
		if _, err := f.store.CreateSession(ctx, adapter.Session{Token: tok, UserID: u.ID, Expires: time.Now().Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}

	// Unknown addresses: the same answer, nothing sent.
	if err := f.svc.Forgot(ctx, "nobody@example.com", links); err != nil {
		t.Fatalf("Forgot(unknown): %v", err)
	}
	f.svc.Wait()
	if sent := f.box.Take(); len(sent) != 0 {
		t.Fatalf("Forgot(unknown) sent %+v", sent)
	}
	if err := f.svc.Forgot(ctx, "Erin@example.com", links); err != nil {
		t.Fatal(err)
	}
	f.svc.Wait()
	sent := f.box.Take()
	if len(sent) != 1 || sent[0].Kind != passwordaccount.KindReset || !strings.HasPrefix(sent[0].URL, links.Reset+"?") {
		t.Fatalf("sent %+v", sent)
	}
	tok, addr := token(t, sent[0])

	// The confirmation token is no reset token, nor the reverse.
	vtok, _ := token(t, m)
	if _, _, err := f.svc.Reset(ctx, addr, vtok, "new password!"); !errors.Is(err, passwordaccount.ErrInvalidToken) {
		t.Fatalf("Reset with the confirmation token: %v", err)
	}
	if _, err := f.svc.Verify(ctx, addr, tok); !errors.Is(err, passwordaccount.ErrInvalidToken) {
		t.Fatalf("Verify with the reset token: %v", err)
	}
	// A refused password leaves the link usable.
	if _, _, err := f.svc.Reset(ctx, addr, tok, "short"); !errors.Is(err, password.ErrTooShort) {
		t.Fatalf("Reset with a short password: %v", err)
	}
	got, n, err := f.svc.Reset(ctx, addr, tok, "new password!")
	if err != nil || got.ID != u.ID || n != 2 || got.EmailVerified == nil {
		t.Fatalf("Reset: %+v, %d sessions, %v", got, n, err)
	}
	if _, _, err := f.svc.Reset(ctx, addr, tok, "newer password!"); !errors.Is(err, passwordaccount.ErrInvalidToken) {
		t.Fatalf("second Reset: %v (single use)", err)
	}
	if _, _, err := f.store.GetSessionAndUser(ctx, "s1"); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("a session survived the reset: %v", err)
	}
	if _, err := f.svc.SignIn(ctx, addr, "old password!"); !errors.Is(err, passwordaccount.ErrInvalidCredentials) {
		t.Errorf("the old password works: %v", err)
	}
	if _, err := f.svc.SignIn(ctx, addr, "new password!"); err != nil {
		t.Errorf("the new password: %v", err)
	}
}

// A reset of an address whose sign-up was never confirmed (perhaps an
// attacker's, made with the victim's address) gives the mailbox's owner a
// user of their own: the squatter's user, password, name and sessions are
// gone.
func TestResetOfUnconfirmedSignUp(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, func(c *passwordaccount.Config) { c.AllowUnverified = true })
	if err := f.svc.SignUp(ctx, "ivy@example.com", "attacker password", "Mallory", links); err != nil {
		t.Fatal(err)
	}
	f.svc.Wait()
	f.box.Take()
	squatter, err := f.svc.SignIn(ctx, "ivy@example.com", "attacker password")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.CreateSession(ctx, adapter.Session{Token: "squat", UserID: squatter.ID, Expires: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Forgot(ctx, "ivy@example.com", links); err != nil {
		t.Fatal(err)
	}
	f.svc.Wait()
	tok, addr := token(t, f.box.Take()[0])
	owner, _, err := f.svc.Reset(ctx, addr, tok, "owner password!")
	if err != nil {
		t.Fatal(err)
	}
	if owner.ID == squatter.ID || owner.Name != "" || owner.EmailVerified == nil {
		t.Fatalf("the reset kept the squatter's user: %+v (squatter %+v)", owner, squatter)
	}
	if _, err := f.svc.SignIn(ctx, addr, "attacker password"); !errors.Is(err, passwordaccount.ErrInvalidCredentials) {
		t.Fatalf("the squatter's password still works: %v", err)
	}
	if _, _, err := f.store.GetSessionAndUser(ctx, "squat"); !errors.Is(err, adapter.ErrNotFound) {
		t.Fatalf("the squatter's session survived: %v", err)
	}
	if got, err := f.svc.SignIn(ctx, addr, "owner password!"); err != nil || got.ID != owner.ID {
		t.Fatalf("the owner's password: %+v, %v", got, err)
	}
}

func TestResetExpired(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, func(c *passwordaccount.Config) { c.ResetMaxAge = time.Millisecond })
	f.signUp(t, "fay@example.com", "old password!")
	if err := f.svc.Forgot(ctx, "fay@example.com", links); err != nil {
		t.Fatal(err)
	}
	f.svc.Wait()
	tok, addr := token(t, f.box.Take()[0])
	time.Sleep(5 * time.Millisecond)
	if _, _, err := f.svc.Reset(ctx, addr, tok, "new password!"); !errors.Is(err, passwordaccount.ErrInvalidToken) {
		t.Fatalf("Reset with an expired link: %v", err)
	}
}

func TestChange(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, func(c *passwordaccount.Config) { c.AllowUnverified = true })
	f.signUp(t, "gus@example.com", "old password!")
	u, err := f.svc.SignIn(ctx, "gus@example.com", "old password!")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Change(ctx, u.ID, "wrong password", "new password!"); !errors.Is(err, passwordaccount.ErrInvalidCredentials) {
		t.Fatalf("Change with a wrong current password: %v", err)
	}
	if _, err := f.svc.Change(ctx, u.ID, "old password!", "short"); !errors.Is(err, password.ErrTooShort) {
		t.Fatalf("Change to a short password: %v", err)
	}
	if _, err := f.svc.Change(ctx, u.ID, "old password!", "new password!"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.SignIn(ctx, "gus@example.com", "new password!"); err != nil {
		t.Fatalf("the new password: %v", err)
	}
	other, _ := f.store.CreateUser(ctx, adapter.User{Email: "oauth@example.com"})
	if _, err := f.svc.Change(ctx, other.ID, "anything at all", "new password!"); !errors.Is(err, passwordaccount.ErrNoPassword) {
		t.Fatalf("Change of a user without a password: %v", err)
	}
}

// A hash stored with weaker parameters is replaced at the next sign-in.
func TestRehash(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, func(c *passwordaccount.Config) { c.AllowUnverified = true })
	u, err := f.store.CreateUser(ctx, adapter.User{Email: "hal@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	weaker, _ := password.NewHasher(password.Params{Memory: 32, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 0)
	old, _ := weaker.Hash(ctx, "a long password")
	if err := f.store.SetPasswordHash(ctx, u.ID, old); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.SignIn(ctx, "hal@example.com", "a long password"); err != nil {
		t.Fatal(err)
	}
	now, _ := f.store.PasswordHash(ctx, u.ID)
	if now == old || !strings.Contains(now, "m=64,") {
		t.Fatalf("the hash was not replaced: %s", now)
	}
}

func TestPrepare(t *testing.T) {
	c, err := passwordaccount.Config{Server: "smtp://localhost:1025?tls=none", From: "Site <no-reply@example.com>"}.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	if c.ID != "password" || c.Name != "Email and password" || c.Hasher == nil || c.Send == nil || c.VerifyMaxAge != 24*time.Hour || c.ResetMaxAge != time.Hour {
		t.Errorf("defaults: %+v", c)
	}
	if _, err := (passwordaccount.Config{}).Prepare(); err == nil {
		t.Error("a config without a way to send mail was accepted")
	}
	if _, err := (passwordaccount.Config{Server: "smtp://localhost:1025?tls=none"}).Prepare(); err == nil {
		t.Error("SMTP without From was accepted")
	}
}
