package cookies

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzChunkedCookie: a value written as chunks, over a jar holding any
// number of chunks from before, reads back unchanged (stale chunks are
// cleared); and any Cookie header reads without a panic, giving "" unless
// it carries the name or its numbered chunks.
func FuzzChunkedCookie(f *testing.F) {
	// The value is the pattern repeated to size bytes (inputs stay small,
	// values reach several chunks).
	f.Add([]byte("short"), uint16(5), uint8(0), "a=b")
	f.Add([]byte("x"), uint16(3*ChunkSize+7), uint8(5), "authjs.session-token.0=a; authjs.session-token.2=c")
	f.Add([]byte("yz"), uint16(ChunkSize), uint8(2), "authjs.session-token.1=a; authjs.session-token.0=b")
	f.Add([]byte("q"), uint16(ChunkSize+1), uint8(1), "authjs.session-token=; authjs.session-token.0=x")
	f.Fuzz(func(t *testing.T, pattern []byte, size uint16, old uint8, header string) {
		const name = "authjs.session-token"
		n := NewNames(false, false)
		if len(pattern) == 0 || size == 0 {
			return
		}
		value := make([]byte, int(size)%(6*ChunkSize)+1)
		for i := range value {
			value[i] = cookieOctet(pattern[i%len(pattern)] + byte(i/len(pattern)))
		}
		// The jar before: old%8 chunks of an earlier, longer value.
		jar := map[string]string{}
		for i := range int(old % 8) {
			jar[name+"."+strconv.Itoa(i)] = "stale"
		}
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		for k, v := range jar {
			req.AddCookie(&http.Cookie{Name: k, Value: v})
		}
		rec := httptest.NewRecorder()
		n.WriteChunked(rec, req, name, string(value), time.Now().Add(time.Hour))
		for _, c := range rec.Result().Cookies() {
			if c.MaxAge < 0 {
				delete(jar, c.Name)
			} else {
				jar[c.Name] = c.Value
			}
			if len(c.Name)+len(c.Value) > 4096 {
				t.Fatalf("cookie %s is %d bytes", c.Name, len(c.Name)+len(c.Value))
			}
		}
		after := httptest.NewRequest(http.MethodGet, "/", nil)
		names := slices.Sorted(func(yield func(string) bool) {
			for k := range jar {
				if !yield(k) {
					return
				}
			}
		})
		for _, k := range names {
			after.AddCookie(&http.Cookie{Name: k, Value: jar[k]})
		}
		if got, _ := ReadChunked(after, name); got != string(value) {
			t.Fatalf("read back %d bytes, wrote %d (jar %v)", len(got), len(value), names)
		}

		// Any header.
		hr := httptest.NewRequest(http.MethodGet, "/", nil)
		hr.Header.Set("Cookie", header)
		got, chunks := ReadChunked(hr, name)
		if !strings.Contains(header, name) && (got != "" || len(chunks) != 0) {
			t.Fatalf("header %q gave %q %v", header, got, chunks)
		}
		if len(got) > len(header) {
			t.Fatalf("read %d bytes from a %d-byte header", len(got), len(header))
		}
	})
}

// cookieOctet maps b into the cookie-octet set of RFC 6265 §4.1.1.
func cookieOctet(b byte) byte {
	const set = "!#$%&'()*+-./0123456789:<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~"
	return set[int(b)%len(set)]
}
