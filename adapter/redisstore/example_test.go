package redisstore_test

import (
	"cmp"
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/adapter/sqlite"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Users and accounts in SQLite, sessions and sign-in links in Redis, shared
// by every instance of the application. The handler reaches Redis only
// when a session is read or written: the requests below carry no session,
// so the example runs without a Redis server.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "gatehouse-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := sqlite.Open(ctx, filepath.Join(dir, "gatehouse.db"))
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
		// AUTH_SECRET in production: at least 32 random bytes.
		Secret: []string{cmp.Or(os.Getenv("AUTH_SECRET"), "example-secret-example-secret-0123")},
		URL:    "https://app.example.com/auth",
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{
			ID: "corp", Name: "Corp SSO", Type: providers.TypeOIDC,
			Issuer: "https://sso.example.com", ClientID: "app", ClientSecret: "secret",
		}},
		Adapter: redisstore.New(rdb, db, redisstore.Options{Prefix: "myapp:"}),
		Session: gatehouse.SessionConfig{Strategy: gatehouse.StrategyDatabase},
	})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/auth/", auth)
	// http.ListenAndServe(":8080", auth.Middleware(mux))

	for _, path := range []string{"/auth/providers", "/auth/session"} {
		w := httptest.NewRecorder()
		auth.Middleware(mux).ServeHTTP(w, httptest.NewRequest(http.MethodGet, "https://app.example.com"+path, nil))
		fmt.Println(path, w.Code, strings.Contains(w.Body.String(), `"corp"`), strings.TrimSpace(w.Body.String()) == "null")
	}
	// Output:
	// /auth/providers 200 true false
	// /auth/session 200 false true
}
