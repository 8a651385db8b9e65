// Command api is a second service beside the example site: it trusts
// nobody's session, only the short-lived access tokens the site issues at
// POST /auth/token, which it verifies on its own with the site's public
// keys (package bearer).
//
//	go run ./example            # the site, on localhost:3000, and this service on localhost:3001
//	go run ./example/api        # this service alone (the site started with API_ADDR=off)
//
// Make an API key on the site's private page, trade it for a token and
// call this service with it:
//
//	TOKEN=$(curl -s -X POST localhost:3000/auth/token -H "Authorization: Bearer $KEY" \
//	  -d audience=http://localhost:3001 -d scope=profile:read | jq -r .access_token)
//	curl -H "Authorization: Bearer $TOKEN" localhost:3001/me
//
// Environment: API_ADDR (default localhost:3001), AUTH_URL (the site's
// auth routes, the tokens' issuer: default http://localhost:3000/auth) and
// API_URL (this service, the tokens' audience: default
// http://localhost:3001).
package main

import (
	"cmp"
	"log"
	"net/http"
	"os"

	"github.com/gatehouse-auth/gatehouse/example/internal/apiservice"
)

func main() {
	issuer := cmp.Or(os.Getenv("AUTH_URL"), "http://localhost:3000/auth")
	api, err := apiservice.New(issuer, cmp.Or(os.Getenv("API_URL"), "http://localhost:3001"))
	if err != nil {
		log.Fatal(err)
	}
	addr := cmp.Or(os.Getenv("API_ADDR"), "localhost:3001")
	log.Printf("api listening on %s, trusting tokens of %s", addr, issuer)
	log.Fatal(http.ListenAndServe(addr, api))
}
