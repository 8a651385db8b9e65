// Command githubonly is a site that signs in with GitHub alone: the
// program internal/plugin's TestPayForWhatYouUse builds, to check what
// such a program links.
package main

import (
	"log"
	"net/http"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/github"
)

func main() {
	auth, err := gatehouse.New(gatehouse.Config{
		Providers: []providers.Provider{github.New(providers.OAuthUserConfig[github.Profile]{})},
	})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/auth/", auth)
	mux.Handle("/", auth.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("hello " + gatehouse.SessionFrom(r.Context()).User.Name))
	})))
	log.Fatal(http.ListenAndServe(":8080", auth.Middleware(mux)))
}
