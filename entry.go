package gatehouse

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/bounded"
	"github.com/gatehouse-auth/gatehouse/internal/configkey"
)

// handlerCache maps a Config's identity (configkey.Of) to its Handler
// for Auth.
type handlerCache struct {
	mu sync.Mutex // one New at a time
	m  *bounded.Map[string, cachedHandler]
}

// cachedHandler is a Handler with the Config it was built from. The
// Config is kept so that everything its key identifies by address (an
// HTTPClient, a Logger, closures: New keeps copies or wrappers of some)
// stays allocated while the key is in the cache: freed, its address could
// be given to another value, whose Config would then find this Handler.
type cachedHandler struct {
	h   *Handler
	cfg Config
}

func newHandlerCache(size int) *handlerCache {
	return &handlerCache{m: bounded.New[string, cachedHandler](size)}
}

func (c *handlerCache) get(cfg Config) (*Handler, error) {
	k := configkey.Of(cfg) // the whole Config, hashed
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if e, ok := c.m.Get(k, now); ok {
		return e.h, nil
	}
	h, err := New(cfg)
	if err != nil {
		return nil, err
	}
	c.m.Set(k, cachedHandler{h: h, cfg: cfg}, time.Time{}, now)
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
