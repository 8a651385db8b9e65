package main

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/authtest"
)

// BenchmarkServe is the wrk table without the network: each route's
// request, exactly as wrk sends it, is parsed and answered by a real
// net/http Server, over a connection in memory (replayConn) that hands
// the server the same request b.N times and counts the answers. What is
// left is the server's own work per request, net/http's included, with
// no syscall and no other process: its allocations, its CPU time
// (cpu-ns/op, getrusage) and, under valgrind --tool=callgrind, its
// instructions, steady numbers on a machine too busy for wrk's. Each
// route comes with the ceiling the wrk table compares it with, sent the
// same request (ceiling) and sent it with the route's Cookie header
// (ceiling+cookie).
func BenchmarkServe(b *testing.B) {
	op := authtest.NewServer(authtest.Options{AutoApprove: true})
	defer op.Close()
	servers := map[string]*server{}
	for _, name := range []string{"bytes", "gatehouse", "gatehouse-sqlite"} {
		s, stop, err := startInProcess(name, op.Issuer())
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		defer stop()
		servers[name] = s
	}
	quiesce()
	ceil := servers["bytes"]
	for _, row := range wrkRows {
		s := servers[row.server]
		req, ok := s.wrkWorkload(row.workload)
		if !ok {
			b.Fatalf("%s: no workload %q", row.name, row.workload)
		}
		creq, _ := ceil.wrkWorkload(row.ceiling)
		same := creq
		same.cookie = req.cookie
		for _, c := range []struct {
			name string
			s    *server
			req  wrkRequest
		}{{"gatehouse", s, req}, {"ceiling", ceil, creq}, {"ceiling+cookie", ceil, same}} {
			b.Run(row.name+"/"+c.name, func(b *testing.B) { benchServe(b, c.s, c.req) })
		}
	}
}

// benchServe serves req b.N times on one connection in memory.
func benchServe(b *testing.B, s *server, req wrkRequest) {
	wire, _, err := req.wire()
	if err != nil {
		b.Fatal(err)
	}
	raw := []byte(wire)
	// One answer first, to know its status line.
	c := serveConn(s.handler, raw, 1)
	if c.answers != 1 || c.err != nil {
		b.Fatalf("one request: %d answers, %v: %q", c.answers, c.err, c.first)
	}
	status, _, _ := strings.Cut(string(c.first), "\r\n")
	if !strings.HasPrefix(status, "HTTP/1.1 2") && !strings.HasPrefix(status, "HTTP/1.1 3") {
		b.Fatalf("answered %q", c.first)
	}
	b.ReportAllocs()
	start := cpuNow()
	b.ResetTimer()
	c = serveConn(s.handler, raw, b.N)
	b.StopTimer()
	b.ReportMetric(float64(cpuNow()-start)/float64(b.N), "cpu-ns/op")
	if c.answers != b.N || c.statusOK != b.N || c.err != nil {
		b.Fatalf("%d requests: %d answers, %d of them %q, %v", b.N, c.answers, c.statusOK, status, c.err)
	}
}

// serveConn serves raw n times on one replayConn and returns it once the
// server has closed it.
func serveConn(h http.Handler, raw []byte, n int) *replayConn {
	c := &replayConn{req: raw, left: n, off: len(raw), closed: make(chan struct{})}
	ln := &oneConn{c: c}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	<-c.closed
	srv.Close()
	return c
}

// replayConn is a client connection in memory: reads return the request
// left more times, writes are the server's answers, counted.
type replayConn struct {
	mu                sync.Mutex
	req               []byte
	left, off         int
	answers, statusOK int
	status            []byte // the first answer's status line
	first             []byte
	err               error
	closed            chan struct{}
	closeOnce         sync.Once
}

func (c *replayConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off == len(c.req) {
		if c.left == 0 {
			return 0, io.EOF
		}
		c.left--
		c.off = 0
	}
	n := copy(p, c.req[c.off:])
	c.off += n
	return n, nil
}

// Write counts the answers: net/http flushes each one in one write (they
// are all smaller than its buffer), so each write starting with a status
// line is one answer.
func (c *replayConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !bytes.HasPrefix(p, []byte("HTTP/1.1 ")) {
		c.err = errors.New("a write that is no answer's start")
		return len(p), nil
	}
	c.answers++
	line, _, _ := bytes.Cut(p, []byte("\r\n"))
	if c.status == nil {
		c.status, c.first = bytes.Clone(line), bytes.Clone(p)
	}
	if bytes.Equal(line, c.status) {
		c.statusOK++
	}
	return len(p), nil
}

func (c *replayConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

var loopback = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40000}

func (c *replayConn) LocalAddr() net.Addr                { return loopback }
func (c *replayConn) RemoteAddr() net.Addr               { return loopback }
func (c *replayConn) SetDeadline(t time.Time) error      { return nil }
func (c *replayConn) SetReadDeadline(t time.Time) error  { return nil }
func (c *replayConn) SetWriteDeadline(t time.Time) error { return nil }

// oneConn is a listener that accepts c once, then blocks until closed.
type oneConn struct {
	c    *replayConn
	once sync.Once
	done chan struct{}
	mu   sync.Mutex
}

func (l *oneConn) Accept() (net.Conn, error) {
	l.mu.Lock()
	if l.done == nil {
		l.done = make(chan struct{})
	}
	done := l.done
	l.mu.Unlock()
	var c net.Conn
	l.once.Do(func() { c = l.c })
	if c != nil {
		return c, nil
	}
	<-done
	return nil, net.ErrClosed
}

func (l *oneConn) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done == nil {
		l.done = make(chan struct{})
	}
	select {
	case <-l.done:
	default:
		close(l.done)
	}
	return nil
}

func (l *oneConn) Addr() net.Addr { return loopback }

// startInProcess serves the Go server called name on a loopback port in
// this process (for the sign-in that mints its cookies) and returns it
// with its handler.
func startInProcess(name, issuer string) (*server, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	origin := "http://" + ln.Addr().String()
	h, cleanup, err := newHandler(name, origin, issuer)
	if err != nil {
		ln.Close()
		return nil, nil, err
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	s := &server{name: name, origin: origin, handler: h}
	stop := func() { srv.Close(); cleanup() }
	if err := s.prepare(); err != nil {
		stop()
		return nil, nil, err
	}
	return s, stop, nil
}

// quiesce waits, at most ten seconds, until the process is idle: the
// provider makes spare signing keys in the background at start, whose
// CPU time would otherwise count in the first cells' cpu-ns/op.
func quiesce() {
	for range 200 {
		before := cpuNow()
		time.Sleep(50 * time.Millisecond)
		if cpuNow()-before < int64(5*time.Millisecond) {
			return
		}
	}
}

// cpuNow is the process's CPU time so far (user and system), in
// nanoseconds.
func cpuNow() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
