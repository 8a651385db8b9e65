package gatehouse

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/gatehouse-auth/gatehouse/internal/configkey"
)

// handlerCache maps a Config's identity to its Handler for Auth.
type handlerCache struct {
	mu    sync.Mutex
	max   int
	items map[string]cachedHandler
	order []string
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

func newHandlerCache(max int) *handlerCache {
	return &handlerCache{max: max, items: map[string]cachedHandler{}}
}

func (c *handlerCache) get(cfg Config) (*Handler, error) {
	k := configkey.Of(cfg) // the whole Config, hashed
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		return e.h, nil
	}
	h, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if len(c.order) >= c.max {
		delete(c.items, c.order[0])
		c.order = c.order[1:]
	}
	c.items[k] = cachedHandler{h: h, cfg: cfg}
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
