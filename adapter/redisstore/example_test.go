package redisstore_test

import (
	"context"
	"log"
	"net/http"
	"os"

	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/adapter/sqlite"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Users and accounts in SQLite, sessions and sign-in links in Redis, shared
// by every instance of the application. The example needs a Redis server,
// so it is compiled but not run (it has no Output comment).
func Example() {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, "gatehouse.db")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		log.Fatal(err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	defer rdb.Close()

	auth, err := gatehouse.New(gatehouse.Config{
		Secret: []string{os.Getenv("AUTH_SECRET")},
		URL:    "https://app.example.com/auth",
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{
			ID: "corp", Name: "Corp SSO", Type: providers.TypeOIDC,
			Issuer: "https://sso.example.com", ClientID: "app", ClientSecret: os.Getenv("AUTH_CORP_SECRET"),
		}},
		Adapter: redisstore.New(rdb, db, redisstore.Options{Prefix: "myapp:"}),
		Session: gatehouse.SessionConfig{Strategy: gatehouse.StrategyDatabase},
	})
	if err != nil {
		log.Fatal(err)
	}
	http.Handle("/auth/", auth)
	log.Fatal(http.ListenAndServe(":8080", nil))
}
