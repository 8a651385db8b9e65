package otelgatehouse_test

import (
	"context"
	"log"
	"net/http"
	"os"

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
		Providers: []providers.Provider{google.New(providers.OAuthUserConfig[profile.Claims]{
			ClientID:     os.Getenv("AUTH_GOOGLE_ID"),
			ClientSecret: os.Getenv("AUTH_GOOGLE_SECRET"),
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
	http.Handle("/auth/", auth)
	// http.ListenAndServe(":8080", otelhttp.NewHandler(http.DefaultServeMux, "app"))
}
