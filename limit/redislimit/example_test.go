package redislimit_test

import (
	"context"
	"fmt"
	"net/http"

	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse/limit/redislimit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
)

// Every process of the deployment gives its credentials provider limiters
// on the same Redis server: a password guessed wrong five times from one
// address is locked out on all of them.
func ExampleLimiter() {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	perIP := &redislimit.Limiter{Client: rdb, Max: credentials.DefaultPerIP, Window: credentials.DefaultWindow,
		Prefix: "myapp:limit:ip:"}
	perIdentifierAndIP := &redislimit.Limiter{Client: rdb, Max: credentials.DefaultPerIdentifierAndIP, Window: credentials.DefaultWindow,
		Prefix: "myapp:limit:idip:"}
	perIdentifier := &redislimit.Limiter{Client: rdb, Max: credentials.DefaultPerIdentifier, Window: credentials.DefaultWindow,
		Prefix: "myapp:limit:id:"}

	provider := credentials.Config{
		Fields: []credentials.Field{
			{Name: "email", Label: "E-mail", Type: "email", Autocomplete: "username"},
			{Name: "password", Label: "Password", Type: "password", Autocomplete: "current-password"},
		},
		Authorize: func(ctx context.Context, c map[string]string, r *http.Request) (*profile.User, error) {
			return nil, credentials.ErrInvalid // check c["email"] and c["password"] here
		},
		PerIP:              perIP,
		PerIdentifierAndIP: perIdentifierAndIP,
		PerIdentifier:      perIdentifier,
	}
	_ = provider // in gatehouse.Config{Providers: ...}

	// Nothing is sent to Redis before the first attempt.
	for _, l := range []*redislimit.Limiter{perIP, perIdentifierAndIP, perIdentifier} {
		fmt.Printf("%-18s %3d failures per %v\n", l.Prefix, l.Max, l.Window)
	}
	// Output:
	// myapp:limit:ip:     50 failures per 15m0s
	// myapp:limit:idip:    5 failures per 15m0s
	// myapp:limit:id:    100 failures per 15m0s
}
