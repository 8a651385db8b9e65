package memory_test

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/adaptertest"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
)

func TestConformance(t *testing.T) {
	adaptertest.Run(t, func(t *testing.T) adapter.Adapter {
		return memory.New()
	})
}
