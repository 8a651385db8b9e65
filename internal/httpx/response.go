package httpx

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
)

// Response is an in-memory ResponseWriter that turns what a handler wrote
// into an *http.Response (for gatehouse.Auth, and for pages rendered once
// and served many times). The zero value is ready to use.
type Response struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

// Header returns the header map, made on first use.
func (w *Response) Header() http.Header {
	if w.header == nil {
		w.header = http.Header{}
	}
	return w.header
}

// WriteHeader records the status of the first call; later calls are
// ignored, as net/http does.
func (w *Response) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

// Write appends to the body, with status 200 if none was written.
func (w *Response) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}

// WriteTo sends what was written to dst again: the headers, the status
// and the body. A page rendered once into a Response is served this way
// as often as needed; w must not be written to meanwhile.
func (w *Response) WriteTo(dst http.ResponseWriter) {
	h := dst.Header()
	for k, v := range w.header {
		h[k] = v
	}
	dst.WriteHeader(w.Status())
	_, _ = dst.Write(w.body.Bytes())
}

// Status returns the status written, 200 if none.
func (w *Response) Status() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}

// Body returns the body written so far.
func (w *Response) Body() []byte { return w.body.Bytes() }

// Result returns the response for r. The header map and the body are the
// writer's own: the writer must not be used afterwards.
func (w *Response) Result(r *http.Request) *http.Response {
	code := w.Status()
	res := &struct {
		http.Response
		body body
	}{}
	res.body.Reset(w.body.Bytes())
	res.Response = http.Response{
		Status:        strconv.Itoa(code) + " " + http.StatusText(code),
		StatusCode:    code,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        w.Header(),
		Body:          &res.body,
		ContentLength: int64(w.body.Len()),
		Request:       r,
	}
	return &res.Response
}

// body is a response's body: a reader of the bytes written, and a no-op
// Close.
type body struct{ bytes.Reader }

func (*body) Close() error { return nil }

var _ io.ReadCloser = (*body)(nil)

// Record serves r with next into a Response and copies its headers to w,
// but Content-Type and Content-Length: a wrapper that answers a
// browser's form its own way (a page or a redirect instead of next's
// JSON) keeps the cookies next set.
func Record(w http.ResponseWriter, r *http.Request, next http.HandlerFunc) *Response {
	rec := &Response{}
	next(rec, r)
	for k, v := range rec.Header() {
		if k != "Content-Type" && k != "Content-Length" {
			w.Header()[k] = v
		}
	}
	return rec
}

// FormAnswer wraps next, a JSON route, for a page's forms: a program's
// request (no Accept: text/html) is served by next alone; a browser's is
// served by next into a recording (Record), and answered by page with the
// status and next's JSON answer decoded into a B (what it lacks is left
// zero).
func FormAnswer[B any](next http.HandlerFunc, page func(w http.ResponseWriter, r *http.Request, status int, body B)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !AcceptsHTML(r) {
			next(w, r)
			return
		}
		rec := Record(w, r, next)
		var body B
		_ = json.Unmarshal(rec.Body(), &body) // the route's own JSON
		page(w, r, rec.Status(), body)
	}
}
