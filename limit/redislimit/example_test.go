package redislimit_test

import (
	"context"
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

	provider := credentials.Config{
		Fields: []credentials.Field{
			{Name: "email", Label: "E-mail", Type: "email", Autocomplete: "username"},
			{Name: "password", Label: "Password", Type: "password", Autocomplete: "current-password"},
		},
		Authorize: func(ctx context.Context, c map[string]string, r *http.Request) (*profile.User, error) {
			return nil, credentials.ErrInvalid // check c["email"] and c["password"] here
		},
		PerIP: &redislimit.Limiter{Client: rdb, Max: credentials.DefaultPerIP, Window: credentials.DefaultWindow,
			Prefix: "myapp:limit:ip:"},
		PerIdentifierAndIP: &redislimit.Limiter{Client: rdb, Max: credentials.DefaultPerIdentifierAndIP, Window: credentials.DefaultWindow,
			Prefix: "myapp:limit:idip:"},
		PerIdentifier: &redislimit.Limiter{Client: rdb, Max: credentials.DefaultPerIdentifier, Window: credentials.DefaultWindow,
			Prefix: "myapp:limit:id:"},
	}
	_ = provider // in gatehouse.Config{Providers: ...}
}
