package checks

import "testing"

// A binding names the session and the browser; a change of either is
// told apart, and a one-digest binding names the session only.
func TestBinding(t *testing.T) {
	victim := Binding(DatabaseSession("victim-token"), "victim-csrf")
	for _, c := range []struct {
		name, recorded, now string
		want                Mismatch
	}{
		{"same", victim, victim, SameBrowser},
		{"session only", victim[:BindingLen], Binding(DatabaseSession("victim-token"), "other-csrf"), SameBrowser},
		{"other session", Binding(DatabaseSession("attacker-token"), "victim-csrf"), victim, OtherSession},
		{"no session then", Binding(NoSession(), "victim-csrf"), victim, OtherSession},
		{"other browser", Binding(DatabaseSession("victim-token"), "attacker-csrf"), victim, OtherBrowser},
		{"jwt rolled", Binding(JWTSession("jti", "sub"), "c"), Binding(JWTSession("jti", "sub"), "c"), SameBrowser},
		{"jwt other subject", Binding(JWTSession("jti", "sub"), "c"), Binding(JWTSession("jti", "sub2"), "c"), OtherSession},
		{"jwt vs database", Binding(JWTSession("tok", ""), "c"), Binding(DatabaseSession("tok"), "c"), OtherSession},
		{"empty", "", victim, NoBinding},
		{"truncated", victim[:5], victim, NoBinding},
	} {
		if got := CompareBinding(c.recorded, c.now); got != c.want {
			t.Errorf("%s: CompareBinding = %d, want %d", c.name, got, c.want)
		}
	}
	if len(victim) != 2*BindingLen {
		t.Fatalf("binding length %d", len(victim))
	}
}

// The digests do not allocate: a binding is made on every sign-in start.
func TestBindingAllocs(t *testing.T) {
	s := DatabaseSession("token")
	if n := testing.AllocsPerRun(100, func() { _ = Binding(s, "csrf") }); n > 1 {
		t.Fatalf("Binding allocates %v times", n)
	}
}
