package gatehouse_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// TestFiftyFirstSignInsTwoInstances: 50 first sign-ins of one new person
// at once, through two instances of the application (round robin: a
// flow's requests land on either), make one user and one account, and all
// 50 sign in. Before: some ended in OAuthAccountNotLinked (email_in_use),
// the e-mail lookup finding the user a concurrent sign-in had just made.
func TestFiftyFirstSignInsTwoInstances(t *testing.T) {
	kinds := map[string]func(t *testing.T) (adapter.Adapter, func(string) int){
		"sqlite": func(t *testing.T) (adapter.Adapter, func(string) int) {
			st := openStore(t, "sqlite")
			return st.raw, func(table string) int { return st.rows(t, table) }
		},
		"postgres": func(t *testing.T) (adapter.Adapter, func(string) int) {
			requirePostgres(t)
			schema, conn := pgSchema(t)
			a := pgAdapter(t, schema)
			if err := a.Migrate(context.Background()); err != nil {
				t.Fatal(err)
			}
			return a, func(table string) int { return pgCount(t, conn, schema+"."+table) }
		},
	}
	for name, open := range kinds {
		t.Run(name, func(t *testing.T) {
			store, rows := open(t)
			op := newOP(t, authtest.Options{AutoApprove: true})
			ln := listenLocal(t)
			base := "http://" + ln.Addr().String()
			var apps [2]http.Handler
			for i := range apps {
				h := newHandler(t, gatehouse.Config{Secret: []string{testSecret}, URL: base + "/auth", Adapter: store,
					Providers: []providers.Provider{devProvider(op)}, HTTPClient: &http.Client{Timeout: 10 * time.Second},
					RateLimit: limit.NewMemory(10000, time.Minute)})
				apps[i] = h.Middleware(siteMux(h))
			}
			var next atomic.Uint64
			serveOn(t, ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				apps[next.Add(1)%2].ServeHTTP(w, r)
			}), false)
			runConcurrentSignInsAs(t, base, "dev", "", 50)
			if u, a := rows("gatehouse_users"), rows("gatehouse_accounts"); u != 1 || a != 1 {
				t.Fatalf("%d users and %d accounts, want 1 and 1", u, a)
			}
		})
	}
}
