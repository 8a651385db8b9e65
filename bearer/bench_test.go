package bearer

import (
	"context"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// The speed goals: with a warm JWKS, a token seen for the first time costs
// at most 1.2 times a bare go-jose signature check of the same token
// (compare BenchmarkFirstSeen with BenchmarkGoJoseOnly, one run), and a
// token seen again costs at most 5 µs and 10 allocations
// (BenchmarkSeenAgain).

// benchTokens returns n distinct valid tokens signed with kid.
func benchTokens(b *testing.B, is *testIssuer, c *clock, kid string, n int) []string {
	tokens := make([]string, n)
	for i := range tokens {
		tokens[i] = is.token(b, kid, c.Now(), nil)
	}
	return tokens
}

var benchKeys = []struct{ alg, kid string }{{"ES256", "es1"}, {"EdDSA", "ed1"}}

func BenchmarkFirstSeen(b *testing.B) {
	for _, k := range benchKeys {
		b.Run(k.alg, func(b *testing.B) {
			is := newTestIssuer(b)
			c := newClock()
			v := is.verifier(b, c, nil)
			if _, err := v.Verify(context.Background(), is.token(b, k.kid, c.Now(), nil)); err != nil {
				b.Fatal(err) // warms the JWKS
			}
			tokens := benchTokens(b, is, c, k.kid, b.N)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if _, err := v.Verify(context.Background(), tokens[i]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFirstSeenRatio runs Verify and the bare go-jose check on each
// new token in turn and reports the ratio of their times: on a machine
// shared with other work, load then weighs on both alike.
func BenchmarkFirstSeenRatio(b *testing.B) {
	for _, k := range benchKeys {
		b.Run(k.alg, func(b *testing.B) {
			is := newTestIssuer(b)
			c := newClock()
			v := is.verifier(b, c, nil)
			if _, err := v.Verify(context.Background(), is.token(b, k.kid, c.Now(), nil)); err != nil {
				b.Fatal(err)
			}
			key := is.private[k.kid]
			pub := key.Public()
			algs := []jose.SignatureAlgorithm{jose.SignatureAlgorithm(k.alg)}
			tokens := benchTokens(b, is, c, k.kid, b.N)
			var ours, bare time.Duration
			b.ResetTimer()
			for i := range b.N {
				for j := range 2 {
					start := time.Now()
					if (i+j)%2 == 0 {
						jws, err := jose.ParseSignedCompact(tokens[i], algs)
						if err != nil {
							b.Fatal(err)
						}
						if _, err := jws.Verify(pub.Key); err != nil {
							b.Fatal(err)
						}
						bare += time.Since(start)
					} else {
						if _, err := v.Verify(context.Background(), tokens[i]); err != nil {
							b.Fatal(err)
						}
						ours += time.Since(start)
					}
				}
			}
			b.ReportMetric(float64(ours)/float64(bare), "ratio")
			b.ReportMetric(float64(ours.Nanoseconds())/float64(b.N), "verify-ns/token")
			b.ReportMetric(float64(bare.Nanoseconds())/float64(b.N), "gojose-ns/token")
		})
	}
}

// BenchmarkGoJoseOnly is the baseline: parse and check the signature of
// the same kind of token with go-jose, the key in hand, nothing else.
func BenchmarkGoJoseOnly(b *testing.B) {
	for _, k := range benchKeys {
		b.Run(k.alg, func(b *testing.B) {
			is := newTestIssuer(b)
			c := newClock()
			key := is.private[k.kid]
			pub := key.Public()
			algs := []jose.SignatureAlgorithm{jose.SignatureAlgorithm(k.alg)}
			tokens := benchTokens(b, is, c, k.kid, b.N)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				jws, err := jose.ParseSignedCompact(tokens[i], algs)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := jws.Verify(pub.Key); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSeenAgain(b *testing.B) {
	for _, k := range benchKeys {
		b.Run(k.alg, func(b *testing.B) {
			is := newTestIssuer(b)
			c := newClock()
			v := is.verifier(b, c, nil)
			tok := is.token(b, k.kid, c.Now(), nil)
			if _, err := v.Verify(context.Background(), tok); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := v.Verify(context.Background(), tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
