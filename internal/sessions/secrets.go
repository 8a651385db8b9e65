package sessions

import (
	"fmt"
	"log/slog"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
)

// MinSecretLen is the shortest secret accepted outside Development mode.
const MinSecretLen = 32

// CheckSecrets returns Config.Secret without its empty strings, checked:
// at least one, each at least MinSecretLen bytes. In Development mode a
// short secret is accepted with a warning, and none at all is replaced by
// a random one for this process (sessions then end at restart).
func CheckSecrets(secrets []string, development bool, logger *slog.Logger) ([]string, error) {
	var kept []string
	for _, s := range secrets {
		if s != "" {
			kept = append(kept, s)
		}
	}
	if len(kept) == 0 {
		if !development {
			return nil, &autherr.ConfigError{Field: "Secret", Reason: "is required (set AUTH_SECRET to at least 32 random bytes, e.g. `openssl rand -base64 33`)"}
		}
		logger.Warn("gatehouse: no secret set; using a random one for this process (Development mode). Sessions end at restart.")
		return []string{RandomToken()}, nil
	}
	for i, s := range kept {
		if len(s) < MinSecretLen {
			if !development {
				return nil, &autherr.ConfigError{Field: "Secret", Reason: fmt.Sprintf("secret %d is %d bytes; at least %d are required", i+1, len(s), MinSecretLen)}
			}
			logger.Warn("gatehouse: short secret accepted in Development mode", "index", i+1, "bytes", len(s))
		}
	}
	return kept, nil
}
