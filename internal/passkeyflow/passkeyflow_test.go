package passkeyflow

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
)

// TestChallengesOnce: a challenge is accepted once, a full log refuses
// new ones rather than forget a live one, and a challenge without expiry
// is kept for the default timeout.
func TestChallengesOnce(t *testing.T) {
	c := newChallenges(2)
	soon := time.Now().Add(time.Minute)
	if !c.Use(context.Background(), "a", soon) {
		t.Fatal("a first use was refused")
	}
	if c.Use(context.Background(), "a", soon) {
		t.Fatal("a replayed challenge was accepted")
	}
	if !c.Use(context.Background(), "b", time.Time{}) {
		t.Fatal("a challenge without expiry was refused")
	}
	if c.Use(context.Background(), "b", soon) {
		t.Fatal("a challenge without expiry was forgotten at once")
	}
	if c.Use(context.Background(), "c", soon) {
		t.Fatal("a full log forgot a live challenge to take a new one")
	}
	if c.used.Len() != 2 {
		t.Fatalf("the log holds %d challenges, want 2", c.used.Len())
	}
}

// TestChallengesShared: two instances' logs sharing one limiter (as with
// Config.Limits) accept a challenge once between them.
func TestChallengesShared(t *testing.T) {
	shared := limit.NewMemory(1, MaxCeremony)
	one, two := newChallenges(10), newChallenges(10)
	one.Shared, two.Shared = shared, shared
	ctx := context.Background()
	if !one.Use(ctx, "c1", time.Time{}) {
		t.Fatal("a new challenge was refused")
	}
	if two.Use(ctx, "c1", time.Time{}) {
		t.Fatal("the other instance accepted a used challenge")
	}
	if !two.Use(ctx, "c2", time.Time{}) {
		t.Fatal("the other instance refused a new challenge")
	}
}

// TestFormEscapes: the helper's passkey form escapes the provider's name,
// the CSRF token and the callback, and posts to the base path's routes.
func TestFormEscapes(t *testing.T) {
	f := &Flow{}
	f.cfg.Provider.ID, f.cfg.Provider.Name = "pk", `<script>alert(1)</script>`
	got := string(f.Form("/auth", pages.HelperForm{CSRF: `"><script>`, Callback: `/x?a=1&b="`, Class: `c" onclick="x`, Lang: "en"}))
	for _, want := range []string{
		`action="/auth/callback/pk" data-webauthn data-options="/auth/webauthn-options/pk" data-callback="/auth/callback/pk"`,
		`name="csrfToken" value="&#34;&gt;&lt;script&gt;"`,
		`name="callbackUrl" value="/x?a=1&amp;b=&#34;"`,
		`class="c&#34; onclick=&#34;x"`,
		`>Sign in with &lt;script&gt;alert(1)&lt;/script&gt;</button>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("form lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, "<script") {
		t.Errorf("unescaped input: %s", got)
	}
}
