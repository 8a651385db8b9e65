package adminflow

import (
	"errors"
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
)

// users is an adapter that keeps no roles or bans: not an admin.Store.
type users struct{ adapter.Adapter }

// Setup refuses Config.Admin with an adapter that cannot hold roles and
// bans, takes the store from an adapter that can, and accepts any
// adapter while Admin is off.
func TestSetup(t *testing.T) {
	_, err := Setup(Config{Admin: &admin.Config{}, Adapter: users{}}, nil)
	var ce *autherr.ConfigError
	if !errors.As(err, &ce) || ce.Field != "Admin" {
		t.Fatalf("Setup with an adapter that is no admin.Store: %v, want a ConfigError on Admin", err)
	}
	mem := memory.New()
	r, err := Setup(Config{Admin: &admin.Config{}, Adapter: mem}, nil)
	if err != nil || r.cfg.Store != admin.Store(mem) {
		t.Fatalf("Setup with the memory adapter: store %v, %v", r, err)
	}
	if _, err := Setup(Config{Adapter: users{}}, nil); err != nil {
		t.Fatalf("Setup with Admin off: %v", err)
	}
}
