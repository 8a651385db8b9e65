package email_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/providers/email"
)

// recorded is what a fake service received.
type recorded struct {
	method, path, ctype string
	header              http.Header
	body                []byte
}

func fakeService(t *testing.T, status int) (*httptest.Server, *recorded) {
	t.Helper()
	rec := &recorded{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.method, rec.path, rec.ctype, rec.header = r.Method, r.URL.Path, r.Header.Get("Content-Type"), r.Header.Clone()
		rec.body, _ = io.ReadAll(r.Body)
		w.WriteHeader(status)
		io.WriteString(w, `{"message":"from the fake"}`)
	}))
	t.Cleanup(srv.Close)
	return srv, rec
}

const link = "https://app.example.com/auth/callback/x?token=tok&email=alice%40example.com"

func sendVia(t *testing.T, c email.Config) error {
	t.Helper()
	c, err := c.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	return c.Send(context.Background(), email.VerificationRequest{
		Identifier: "alice@example.com", URL: link, Expires: time.Now().Add(time.Hour), Host: "app.example.com", Provider: c,
	})
}

func TestAPISenders(t *testing.T) {
	from := email.Config{From: "Example <no-reply@example.com>"}
	for _, tc := range []struct {
		id    string
		make  func(api email.API) email.Config
		path  string
		check func(t *testing.T, r *recorded)
	}{
		{"resend", func(a email.API) email.Config { return email.Resend(from, a) }, "/emails", func(t *testing.T, r *recorded) {
			wantAuth(t, r, "Bearer key-1")
			var b map[string]string
			decode(t, r, &b)
			if b["from"] != "Example <no-reply@example.com>" || b["to"] != "alice@example.com" || b["subject"] != "Sign in to app.example.com" || !strings.Contains(b["text"], link) || !strings.Contains(b["html"], "Sign in") {
				t.Fatalf("%v", b)
			}
		}},
		{"sendgrid", func(a email.API) email.Config { return email.SendGrid(from, a) }, "/v3/mail/send", func(t *testing.T, r *recorded) {
			wantAuth(t, r, "Bearer key-1")
			var b struct {
				Personalizations []struct{ To []struct{ Email string } }
				From             struct{ Email, Name string }
				Subject          string
				Content          []struct{ Type, Value string }
			}
			decode(t, r, &b)
			if b.Personalizations[0].To[0].Email != "alice@example.com" || b.From.Email != "no-reply@example.com" || b.From.Name != "Example" ||
				len(b.Content) != 2 || b.Content[0].Type != "text/plain" || !strings.Contains(b.Content[0].Value, link) {
				t.Fatalf("%+v", b)
			}
		}},
		{"postmark", func(a email.API) email.Config { return email.Postmark(from, a) }, "/email", func(t *testing.T, r *recorded) {
			if r.header.Get("X-Postmark-Server-Token") != "key-1" {
				t.Fatalf("token header %q", r.header.Get("X-Postmark-Server-Token"))
			}
			var b map[string]string
			decode(t, r, &b)
			if b["To"] != "alice@example.com" || b["From"] == "" || !strings.Contains(b["TextBody"], link) || b["HtmlBody"] == "" {
				t.Fatalf("%v", b)
			}
		}},
		{"mailgun", func(a email.API) email.Config { return email.Mailgun(from, a, "mg.example.com") }, "/v3/mg.example.com/messages", func(t *testing.T, r *recorded) {
			if u, p, ok := (&http.Request{Header: r.header}).BasicAuth(); !ok || u != "api" || p != "key-1" {
				t.Fatalf("basic auth %q %q", u, p)
			}
			f, err := url.ParseQuery(string(r.body))
			if err != nil || r.ctype != "application/x-www-form-urlencoded" || f.Get("to") != "alice@example.com" || !strings.Contains(f.Get("text"), link) {
				t.Fatalf("%s %v %v", r.ctype, f, err)
			}
		}},
		{"forwardemail", func(a email.API) email.Config { return email.ForwardEmail(from, a) }, "/v1/emails", func(t *testing.T, r *recorded) {
			if u, p, ok := (&http.Request{Header: r.header}).BasicAuth(); !ok || u != "key-1" || p != "" {
				t.Fatalf("basic auth %q %q", u, p)
			}
			var b map[string]string
			decode(t, r, &b)
			if b["to"] != "alice@example.com" || !strings.Contains(b["html"], "Sign in") {
				t.Fatalf("%v", b)
			}
		}},
		{"loops", func(a email.API) email.Config { return email.Loops(email.Config{}, a, "tx-1") }, "/api/v1/transactional", func(t *testing.T, r *recorded) {
			wantAuth(t, r, "Bearer key-1")
			var b struct {
				TransactionalID string `json:"transactionalId"`
				Email           string
				DataVariables   map[string]string
			}
			decode(t, r, &b)
			if b.TransactionalID != "tx-1" || b.Email != "alice@example.com" || b.DataVariables["url"] != link {
				t.Fatalf("%+v", b)
			}
		}},
	} {
		t.Run(tc.id, func(t *testing.T) {
			srv, rec := fakeService(t, http.StatusOK)
			base := srv.URL + tc.path
			if tc.id == "mailgun" {
				base = srv.URL
			}
			c := tc.make(email.API{Key: "key-1", URL: base, Client: srv.Client()})
			if c.ID != tc.id {
				t.Fatalf("id %q", c.ID)
			}
			if err := sendVia(t, c); err != nil {
				t.Fatal(err)
			}
			if rec.method != http.MethodPost || rec.path != tc.path {
				t.Fatalf("%s %s", rec.method, rec.path)
			}
			tc.check(t, rec)

			// A refusal is an error that carries the service's answer.
			bad, _ := fakeService(t, http.StatusUnauthorized)
			base = bad.URL + tc.path
			if tc.id == "mailgun" {
				base = bad.URL
			}
			err := sendVia(t, tc.make(email.API{Key: "key-1", URL: base}))
			if err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "from the fake") {
				t.Fatalf("refusal: %v", err)
			}
		})
	}
}

func TestAPISendersNeedFrom(t *testing.T) {
	if _, err := email.Resend(email.Config{}, email.API{Key: "k"}).Prepare(); err == nil || !strings.Contains(err.Error(), "from") {
		t.Fatalf("Resend without From: %v", err)
	}
}

func wantAuth(t *testing.T, r *recorded, want string) {
	t.Helper()
	if got := r.header.Get("Authorization"); got != want {
		t.Fatalf("Authorization %q, want %q", got, want)
	}
}

func decode(t *testing.T, r *recorded, v any) {
	t.Helper()
	if r.ctype != "application/json" {
		t.Fatalf("Content-Type %q", r.ctype)
	}
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("%v: %s", err, r.body)
	}
}
