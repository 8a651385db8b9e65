package email

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// API is an HTTP e-mail service to send through: the key and, for tests or
// another region, the endpoint.
type API struct {
	// Key is the service's API key (Auth.js AUTH_<ID>_KEY).
	Key string
	// URL replaces the service's endpoint, e.g. Mailgun's EU server
	// "https://api.eu.mailgun.net" or a test server. Empty: the
	// documented public endpoint.
	URL string
	// Client makes the requests: a client with a 10-second timeout when
	// nil.
	Client *http.Client
}

// The services' documented endpoints.
const (
	ResendURL       = "https://api.resend.com/emails"
	SendGridURL     = "https://api.sendgrid.com/v3/mail/send"
	PostmarkURL     = "https://api.postmarkapp.com/email"
	MailgunURL      = "https://api.mailgun.net" // + /v3/{domain}/messages
	ForwardEmailURL = "https://api.forwardemail.net/v1/emails"
	LoopsURL        = "https://app.loops.so/api/v1/transactional"
)

// Resend is the "resend" provider: POST {from, to, subject, html, text} to
// Resend's /emails with a Bearer key.
func Resend(c Config, api API) Config {
	return viaAPI(c, api, "resend", "Resend", func(ctx context.Context, req VerificationRequest) error {
		m, err := Message(req)
		if err != nil {
			return err
		}
		return api.postJSON(ctx, cmp.Or(api.URL, ResendURL), bearer(api.key(req)), map[string]any{
			"from": req.Provider.From, "to": req.Identifier, "subject": m.Subject, "html": m.HTML, "text": m.Text,
		})
	})
}

// SendGrid is the "sendgrid" provider: POST a v3 mail/send body with a
// Bearer key.
func SendGrid(c Config, api API) Config {
	return viaAPI(c, api, "sendgrid", "SendGrid", func(ctx context.Context, req VerificationRequest) error {
		from, err := parseFrom(req.Provider.From)
		if err != nil {
			return err
		}
		m, err := Message(req)
		if err != nil {
			return err
		}
		sender := map[string]string{"email": from.Address}
		if from.Name != "" {
			sender["name"] = from.Name
		}
		return api.postJSON(ctx, cmp.Or(api.URL, SendGridURL), bearer(api.key(req)), map[string]any{
			"personalizations": []any{map[string]any{"to": []any{map[string]string{"email": req.Identifier}}}},
			"from":             sender,
			"subject":          m.Subject,
			"content":          []any{map[string]string{"type": "text/plain", "value": m.Text}, map[string]string{"type": "text/html", "value": m.HTML}},
		})
	})
}

// Postmark is the "postmark" provider: POST {From, To, Subject, TextBody,
// HtmlBody} to /email with the X-Postmark-Server-Token header.
func Postmark(c Config, api API) Config {
	return viaAPI(c, api, "postmark", "Postmark", func(ctx context.Context, req VerificationRequest) error {
		m, err := Message(req)
		if err != nil {
			return err
		}
		return api.postJSON(ctx, cmp.Or(api.URL, PostmarkURL), header("X-Postmark-Server-Token", api.key(req)), map[string]any{
			"From": req.Provider.From, "To": req.Identifier, "Subject": m.Subject, "TextBody": m.Text, "HtmlBody": m.HTML, "MessageStream": "outbound",
		})
	})
}

// Mailgun is the "mailgun" provider: POST a form to
// /v3/{domain}/messages with Basic api:key. domain is the sending domain.
func Mailgun(c Config, api API, domain string) Config {
	return viaAPI(c, api, "mailgun", "Mailgun", func(ctx context.Context, req VerificationRequest) error {
		if domain == "" {
			return errors.New("email: Mailgun needs the sending domain")
		}
		m, err := Message(req)
		if err != nil {
			return err
		}
		form := url.Values{"from": {req.Provider.From}, "to": {req.Identifier}, "subject": {m.Subject}, "text": {m.Text}, "html": {m.HTML}}
		u := strings.TrimSuffix(cmp.Or(api.URL, MailgunURL), "/") + "/v3/" + url.PathEscape(domain) + "/messages"
		return api.post(ctx, u, basic("api", api.key(req)), "application/x-www-form-urlencoded", []byte(form.Encode()))
	})
}

// ForwardEmail is the "forwardemail" provider: POST {from, to, subject,
// html, text} to /v1/emails with Basic key:"" (the key as user name).
func ForwardEmail(c Config, api API) Config {
	return viaAPI(c, api, "forwardemail", "Forward Email", func(ctx context.Context, req VerificationRequest) error {
		m, err := Message(req)
		if err != nil {
			return err
		}
		return api.postJSON(ctx, cmp.Or(api.URL, ForwardEmailURL), basic(api.key(req), ""), map[string]any{
			"from": req.Provider.From, "to": req.Identifier, "subject": m.Subject, "html": m.HTML, "text": m.Text,
		})
	})
}

// Loops is the "loops" provider: POST {transactionalId, email,
// dataVariables: {url}} to /api/v1/transactional with a Bearer key. The
// message is Loops's template transactionalID, which shows {url}.
func Loops(c Config, api API, transactionalID string) Config {
	return viaAPI(c, api, "loops", "Loops", func(ctx context.Context, req VerificationRequest) error {
		if transactionalID == "" {
			return errors.New("email: Loops needs the transactional e-mail id")
		}
		return api.postJSON(ctx, cmp.Or(api.URL, LoopsURL), bearer(api.key(req)), map[string]any{
			"transactionalId": transactionalID, "email": req.Identifier, "dataVariables": map[string]string{"url": req.URL},
		})
	})
}

// key returns the API key: the one given to the provider's constructor,
// else Config.APIKey (which the handler fills from AUTH_<ID>_KEY).
func (a API) key(req VerificationRequest) string { return cmp.Or(a.Key, req.Provider.APIKey) }

// viaAPI fills the id, name and sender of an HTTP API provider.
func viaAPI(c Config, api API, id, name string, send SendFunc) Config {
	c.ID, c.Name = cmp.Or(c.ID, id), cmp.Or(c.Name, name)
	c.apiSender, c.apiKeyGiven = true, api.Key != ""
	if c.SendVerificationRequest == nil {
		c.SendVerificationRequest = send
	}
	c.needsFrom = id != "loops"
	return c
}

type authorize func(*http.Request)

func bearer(key string) authorize {
	return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+key) }
}

func basic(user, pass string) authorize {
	return func(r *http.Request) { r.SetBasicAuth(user, pass) }
}

func header(k, v string) authorize { return func(r *http.Request) { r.Header.Set(k, v) } }

func (a API) postJSON(ctx context.Context, u string, auth authorize, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	return a.post(ctx, u, auth, "application/json", b)
}

// post sends one request and wants a 2xx answer. An error carries the
// status and the start of the service's answer, never the request.
func (a API) post(ctx context.Context, u string, auth authorize, ctype string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Accept", "application/json")
	auth(req)
	c := a.Client
	if c == nil {
		c = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("email: %s: %w", hostOf(u), err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("email: %s answered %s: %q", hostOf(u), resp.Status, answer)
	}
	return nil
}

func hostOf(u string) string {
	if p, err := url.Parse(u); err == nil {
		return p.Host
	}
	return "the service"
}

// Nodemailer is the "nodemailer" provider: SMTP (Server or SMTP), named
// as Auth.js names its provider. "email" is the same with the name
// "Email", and is a plain Config's default.
func Nodemailer(c Config) Config {
	c.ID, c.Name = cmp.Or(c.ID, "nodemailer"), cmp.Or(c.Name, "Nodemailer")
	return c
}
