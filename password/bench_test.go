package password

import (
	"context"
	"testing"
)

// The benchmarks use DefaultParams: they measure what a sign-in costs.
// Run with -benchmem to see the 19 MiB each hash allocates.

func BenchmarkHash(b *testing.B) {
	h, err := NewHasher(DefaultParams, 0)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.Hash(ctx, "correct horse battery staple"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerify(b *testing.B) {
	h, err := NewHasher(DefaultParams, 0)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	encoded, err := h.Hash(ctx, "correct horse battery staple")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := h.Verify(ctx, "correct horse battery staple", encoded); err != nil {
			b.Fatal(err)
		}
	}
}
