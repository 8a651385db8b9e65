package gatehouse

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
)

// handlerCache maps a Config's identity to its Handler for Auth.
type handlerCache struct {
	mu    sync.Mutex
	max   int
	items map[string]*Handler
	order []string
}

func newHandlerCache(max int) *handlerCache {
	return &handlerCache{max: max, items: map[string]*Handler{}}
}

// configKey identifies a configuration by its scalar settings and the
// identity of its providers slice and callbacks: the same Config value
// passed again finds the same Handler.
func configKey(cfg Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q|%q|%q|%v|%v|%v|%q|%v|", strings.Join(cfg.Secret, ","), cfg.URL, cfg.BasePath, cfg.TrustHost, cfg.Session, cfg.Development, cfg.RedirectProxyURL, cfg.UseSecureCookies)
	if len(cfg.Providers) > 0 {
		fmt.Fprintf(&b, "%x:%d|", reflect.ValueOf(cfg.Providers).Pointer(), len(cfg.Providers))
	}
	fmt.Fprintf(&b, "%p|%p", cfg.Adapter, cfg.HTTPClient)
	return b.String()
}

func (c *handlerCache) get(cfg Config) (*Handler, error) {
	k := configKey(cfg)
	c.mu.Lock()
	defer c.mu.Unlock()
	if h, ok := c.items[k]; ok {
		return h, nil
	}
	h, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if len(c.order) >= c.max {
		delete(c.items, c.order[0])
		c.order = c.order[1:]
	}
	c.items[k] = h
	c.order = append(c.order, k)
	return h, nil
}

// recorder collects a response for Auth.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}
func (r *recorder) WriteHeader(s int) {
	if r.status == 0 {
		r.status = s
	}
}

func (r *recorder) response(req *http.Request) *http.Response {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", r.status, http.StatusText(r.status)),
		StatusCode:    r.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        r.header,
		Body:          io.NopCloser(bytes.NewReader(r.body.Bytes())),
		ContentLength: int64(r.body.Len()),
		Request:       req,
	}
}
