package twofactor_test

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/twofactor"
	"github.com/gatehouse-auth/gatehouse/twofactor/storetest"
)

func TestMemoryStore(t *testing.T) {
	storetest.Run(t, func(*testing.T) twofactor.Store { return &twofactor.MemoryStore{} })
}
