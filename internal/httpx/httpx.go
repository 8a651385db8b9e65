// Package httpx holds the small HTTP pieces every route of the handler
// shares: reading a bounded form or JSON body, the parameters of an
// authorization response, redirects that never re-post a form, and JSON
// answers that are never cached, and the bound on a request's store calls.
package httpx

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
)

// StoreTimeout bounds the store calls (adapter, rate limiter) that one
// request makes: a stalled database fails the request (503) instead of
// holding it and its connection.
const StoreTimeout = 5 * time.Second

// CallbackParams returns the authorization response parameters: the form
// of a POST (response_mode=form_post), else the query. A parameter given
// twice is refused (RFC 6749 §3.1; oauth4webapi does the same).
func CallbackParams(r *http.Request) (url.Values, error) {
	var v url.Values
	if r.Method == http.MethodPost {
		f, err := ReadForm(r)
		if err != nil {
			return nil, err
		}
		v = f
	} else {
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil {
			return nil, err
		}
		v = q
	}
	for k, vs := range v {
		if len(vs) > 1 {
			return nil, fmt.Errorf("parameter %q given %d times", k, len(vs))
		}
	}
	return v, nil
}

// MaxFormBytes bounds the bodies the routes read.
const MaxFormBytes = 64 << 10

// ReadForm reads a url-encoded or JSON body (Auth.js accepts both) and
// keeps the values in r.PostForm too.
func ReadForm(r *http.Request) (url.Values, error) {
	if r.Method != http.MethodPost {
		return url.Values{}, nil
	}
	body, err := readBody(r)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			return nil, err
		}
		v := url.Values{}
		for k, x := range m {
			if s, ok := x.(string); ok {
				v.Set(k, s)
			}
		}
		r.PostForm = v // for the error path, which keeps callbackUrl on a retry
		return v, nil
	}
	v, err := url.ParseQuery(string(body))
	if err == nil {
		r.PostForm = v
	}
	return v, err
}

// readBody reads r's body, at most MaxFormBytes of it. A body of a
// declared length (a form posted by a browser) is read into a buffer of
// that size: net/http ends the body there.
func readBody(r *http.Request) ([]byte, error) {
	if n := r.ContentLength; n > 0 && n <= MaxFormBytes {
		b := make([]byte, n)
		if _, err := io.ReadFull(r.Body, b); err != nil {
			return nil, err
		}
		return b, nil
	}
	// http.MaxBytesReader stops reading at MaxFormBytes; net/http closes
	// a connection whose request body was left largely unread.
	return io.ReadAll(http.MaxBytesReader(nil, r.Body, MaxFormBytes))
}

// Redirect sends the browser to target: 302 after a GET, 303 after a
// POST (RFC 9700 §4.12: never 307, which would re-post the form), or
// 200 {"url"} when the client asked with X-Auth-Return-Redirect (the
// Auth.js client does).
func Redirect(w http.ResponseWriter, r *http.Request, target string) {
	if r.Header.Get("X-Auth-Return-Redirect") != "" {
		WriteJSON(w, http.StatusOK, map[string]string{"url": target})
		return
	}
	status := http.StatusFound
	if r.Method == http.MethodPost {
		status = http.StatusSeeOther
		if absoluteASCII(target) { // what http.Redirect does then, without parsing target
			w.Header()["Location"] = []string{target}
			w.WriteHeader(status)
			return
		}
	}
	http.Redirect(w, r, target, status)
}

// WriteJSON writes v as the JSON answer, never cached: Cache-Control:
// no-store alone keeps it out of every cache, the browser's and shared
// ones (RFC 9111 §5.2.2.5); "private" and "no-cache" beside it, and the
// HTTP/1.0 Expires and Pragma, would add bytes to every answer and
// nothing a browser uses.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	setJSONHeaders(w.Header())
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// StoreUnavailable answers 503 with Retry-After, saying nothing of the
// database: it is usually back within seconds.
func StoreUnavailable(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "5")
	WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"error": string(autherr.AdapterError)})
}

// WriteJSONBytes is WriteJSON for a body already encoded.
func WriteJSONBytes(w http.ResponseWriter, status int, body []byte) {
	setJSONHeaders(w.Header())
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// setJSONHeaders sets WriteJSON's Content-Type and Cache-Control, their
// values in one allocation (each answer its own: a middleware may write
// to a header's value slice).
func setJSONHeaders(hdr http.Header) {
	v := &[2]string{"application/json", "no-store"}
	hdr["Content-Type"] = v[0:1:1]
	hdr["Cache-Control"] = v[1:2:2]
}

// absoluteASCII reports whether target is an absolute http(s) URL of
// ASCII characters alone: http.Redirect sends such a URL as it is.
func absoluteASCII(target string) bool {
	if !strings.HasPrefix(target, "https://") && !strings.HasPrefix(target, "http://") {
		return false
	}
	return PrintableASCII(target)
}

// PrintableASCII reports whether every byte of s is printable ASCII, 0x20
// (space) to 0x7e. Session cookies and authorization URLs are hundreds of
// bytes long, so s is read eight bytes at a time: in a word x, the high
// bit of a byte is set in x for 0x80 and above, in x-0x20*lo below 0x20,
// in x+lo for 0x7f. The test is exact for the word as a whole: a borrow
// or a carry into the next byte starts only from a byte already found
// bad, and the lowest bad byte receives none.
func PrintableASCII(s string) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	var bad uint64
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		bad |= x | (x - 0x20*lo) | (x + lo)
	}
	for ; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return bad&hi == 0
}

// Discard is a ResponseWriter that drops everything, for reading a
// session without refreshing its cookie.
type Discard struct{}

func (Discard) Header() http.Header         { return http.Header{} }
func (Discard) Write(b []byte) (int, error) { return len(b), nil }
func (Discard) WriteHeader(int)             {}

// AcceptsHTML reports whether r asks for HTML (a browser's navigation or
// form POST), as against a program's fetch.
func AcceptsHTML(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}
