package sessions

import (
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
)

// Empty secrets are dropped; none, or a short one, is refused outside
// Development mode, and accepted in it (none replaced by a random one).
func TestCheckSecrets(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	long := strings.Repeat("s", MinSecretLen)
	if got, err := CheckSecrets([]string{"", long, ""}, false, quiet); err != nil || len(got) != 1 || got[0] != long {
		t.Fatalf("CheckSecrets = %q, %v", got, err)
	}
	for _, secrets := range [][]string{nil, {""}, {long, "short"}} {
		_, err := CheckSecrets(secrets, false, quiet)
		var ce *autherr.ConfigError
		if !errors.As(err, &ce) || ce.Field != "Secret" {
			t.Fatalf("CheckSecrets(%q) = %v, want a ConfigError on Secret", secrets, err)
		}
	}
	if got, err := CheckSecrets(nil, true, quiet); err != nil || len(got) != 1 || len(got[0]) < MinSecretLen {
		t.Fatalf("Development, no secret: %q, %v; want one random secret", got, err)
	}
	if got, err := CheckSecrets([]string{"short"}, true, quiet); err != nil || len(got) != 1 || got[0] != "short" {
		t.Fatalf("Development, a short secret: %q, %v", got, err)
	}
}
