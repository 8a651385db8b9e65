package apikey_test

import (
	"fmt"
	"time"

	"github.com/gatehouse-auth/gatehouse/apikey"
)

// A key is made once: its full text goes to the user, its id and the hash
// of its secret to the store. A presented key is parsed, looked up by id
// and checked.
func Example() {
	full, id, hash := apikey.New(apikey.DefaultPrefix)
	stored := apikey.Key{ID: id, Hash: hash, CreatedAt: time.Now()}

	gotID, secret, err := apikey.Parse(apikey.DefaultPrefix, full)
	fmt.Println(err, gotID == id, stored.Check(secret, time.Now()))
	fmt.Println(stored.Check("a guess", time.Now()))
	// Output:
	// <nil> true <nil>
	// apikey: invalid API key
}
