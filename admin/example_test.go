package admin_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/admin"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
)

// ExampleConfig turns on the admin routes under /auth/admin, with a
// first administrator named by address, self-deletion, and an audit log.
func ExampleConfig() {
	db := memory.New() // or sqlite, postgres, redisstore over one of them
	h, err := gatehouse.New(gatehouse.Config{
		Secret: []string{"a-secret-of-at-least-32-characters-long"},
		Providers: []providers.Provider{credentials.Config{
			Fields:    []credentials.Field{{Name: "username", Label: "Username", Required: true}},
			Authorize: func(context.Context, map[string]string, *http.Request) (*profile.User, error) { return nil, nil },
		}},
		Adapter: db,
		Admin: admin.Enable(admin.Config{
			Emails:     []string{"ops@example.com"},
			SelfDelete: true,
		}),
		Events: gatehouse.Events{
			Admin: func(ctx context.Context, e admin.Event) {
				slog.InfoContext(ctx, "admin", "action", e.Action, "by", e.ActorID, "user", e.TargetID, "ip", e.IP)
			},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("admin routes under", h.BasePath()+"/admin")
	// Output: admin routes under /auth/admin
}

// ExampleStatus_Refuses shows which sessions a ban and a revocation end.
func ExampleStatus_Refuses() {
	now := time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC)
	revoked := admin.Status{Role: admin.RoleUser, RevokedBefore: admin.RevocationTime(now)}
	fmt.Println("signed in before the revocation:", revoked.Refuses(now.Add(-time.Minute), now))
	fmt.Println("signed in after it:", revoked.Refuses(now.Add(time.Minute), now.Add(time.Minute)))

	banned := admin.Status{Ban: &admin.Ban{Reason: "spam", At: now, Expires: now.Add(time.Hour)}}
	fmt.Println("banned, during the ban:", banned.Refuses(now.Add(time.Minute), now.Add(time.Minute)))
	fmt.Println("banned, after it expired:", banned.Refuses(now.Add(2*time.Hour), now.Add(2*time.Hour)))
	// Output:
	// signed in before the revocation: true
	// signed in after it: false
	// banned, during the ban: true
	// banned, after it expired: false
}
