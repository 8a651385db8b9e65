package redisreplay_test

import (
	"net/http"

	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse/bearer"
	"github.com/gatehouse-auth/gatehouse/bearer/redisreplay"
)

// Every instance of the service gives its Verifier the same Redis: a DPoP
// proof one instance accepted is refused by all of them.
func Example() {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	v, err := bearer.New(bearer.Config{
		Issuer:   "https://app.example.com/auth", // keys found in its metadata
		Audience: []string{"https://reports.example.com"},
		DPoP:     bearer.DPoP{Replay: redisreplay.New(rdb, ""), BaseURL: "https://reports.example.com"},
	})
	if err != nil {
		panic(err)
	}
	http.Handle("/reports", v.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("hello, " + bearer.FromContext(r.Context()).Subject))
	})))
}
