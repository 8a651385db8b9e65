package otelgatehouse_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/otelgatehouse"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/google"
)

// An application's Config instrumented: its own Events still run, and
// the counters and spans go to the global providers (set up by the
// application, e.g. with an OTLP exporter).
func ExampleInstrument() {
	cfg := gatehouse.Config{
		Secret: []string{"an example secret of at least thirty-two bytes"}, // AUTH_SECRET in production
		URL:    "https://app.example.com/auth",
		Providers: []providers.Provider{google.New(providers.OAuthUserConfig[profile.Claims]{
			ClientID:     "client-id.apps.googleusercontent.com", // or AUTH_GOOGLE_ID, read by FromEnv
			ClientSecret: "client-secret",                        // or AUTH_GOOGLE_SECRET
		})},
		Events: gatehouse.Events{
			Failure: func(ctx context.Context, err *gatehouse.Error) {
				log.Printf("audit: sign-in failure %s (%s) at %q", err.Type, err.Code, err.Provider)
			},
		},
	}.FromEnv()
	auth, err := gatehouse.New(otelgatehouse.Instrument(cfg))
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/auth/", auth)
	// http.ListenAndServe(":8080", otelhttp.NewHandler(mux, "app"))

	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "https://app.example.com/auth/providers", nil))
	fmt.Println(rec.Code, rec.Body.String()[:28])
	// Output: 200 {"google":{"id":"google","na
}
