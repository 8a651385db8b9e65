package redislimit_test

import (
	"context"
	"fmt"
	"log"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/postgres"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/limit/redislimit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/github"
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

// Several instances of one application behind a load balancer: sessions
// and e-mail tokens in Redis, users and accounts in PostgreSQL, every
// limit shared through one setting, and the client address each limit
// counts taken from the balancer's X-Forwarded-For.
func ExampleBackend() {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	pool, err := pgxpool.New(ctx, "postgres://app@127.0.0.1:5432/app") // connects on first use
	if err != nil {
		log.Fatal(err)
	}
	auth, err := gatehouse.New(gatehouse.Config{
		Secret:         []string{"a secret of at least thirty-two bytes, from AUTH_SECRET"},
		URL:            "https://app.example.com/auth",
		Providers:      []providers.Provider{github.New(providers.OAuthUserConfig[github.Profile]{ClientID: "id", ClientSecret: "secret"})},
		Adapter:        redisstore.New(rdb, postgres.New(pool), redisstore.Options{}),
		Limits:         redislimit.Backend{Client: rdb},
		TrustedProxies: []string{"10.0.0.0/8"}, // the load balancer's addresses
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(auth != nil)
	// Output: true
}
