package sessions

import (
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
)

// live is an adapter that reads sessions live, as redisstore does.
type live struct{ adapter.Adapter }

func (live) LiveSessions() bool { return true }

// The cookie cache is left off for an adapter that reads sessions live:
// a copy in a cookie would outlive a session ended elsewhere.
func TestCookieCacheOffForLiveSessions(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	secret := []string{strings.Repeat("s", MinSecretLen)}
	m, err := New(Config{Database: true, Adapter: live{memory.New()}, Secret: secret, CookieCache: time.Minute, Logger: quiet})
	if err != nil || m.cache != nil || m.cfg.CookieCache != 0 {
		t.Fatalf("live adapter: cache %v, CookieCache %v, %v; want off", m.cache, m.cfg.CookieCache, err)
	}
	m, err = New(Config{Database: true, Adapter: memory.New(), Secret: secret, CookieCache: time.Minute, Logger: quiet})
	if err != nil || m.cache == nil {
		t.Fatalf("memory adapter: cookie cache off (%v)", err)
	}
}
