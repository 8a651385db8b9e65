package authtest

import (
	"net/http/httptest"
	"strings"
)

// Server is a Provider listening on a loopback address, for tests. Its
// embedded httptest.Server gives URL, Client and Close; its embedded
// Provider gives Issuer, SetFaults, Requests and RotateKey.
type Server struct {
	*httptest.Server
	*Provider
}

// NewServer starts and returns a Server. The issuer is the server's URL,
// followed by opts.Issuer, which must be empty or a path such as
// "/tenant". The caller should call Close when finished, to shut it down.
// NewServer panics if opts are invalid.
func NewServer(opts Options) *Server {
	ts := httptest.NewUnstartedServer(nil)
	if opts.Issuer != "" && !strings.HasPrefix(opts.Issuer, "/") {
		ts.Close()
		panic("authtest: NewServer: Issuer must be empty or a path, not " + opts.Issuer)
	}
	opts.Issuer = "http://" + ts.Listener.Addr().String() + opts.Issuer
	p, err := New(opts)
	if err != nil {
		ts.Close()
		panic(err.Error())
	}
	ts.Config.Handler = p
	ts.Start()
	return &Server{Server: ts, Provider: p}
}
