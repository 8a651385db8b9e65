package passwordaccount

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/logclip"
	"github.com/gatehouse-auth/gatehouse/password"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers/email"
)

// Store is what the provider keeps its accounts in: an adapter that also
// keeps password hashes. It may implement adapter.SessionRevoker, which a
// reset uses to end the user's sessions.
type Store interface {
	adapter.Adapter
	adapter.PasswordStore
}

// The errors of Service. None of them tells an unknown address from a
// wrong password.
var (
	// ErrInvalidCredentials is a sign-in (or a change's current password)
	// that does not match: an unknown address, a user without a password
	// or a wrong password alike.
	ErrInvalidCredentials = errors.New("passwordaccount: wrong e-mail address or password")
	// ErrUnverified is a right password for an address not confirmed yet,
	// when Config.AllowUnverified is false. Only the password's holder
	// can see it.
	ErrUnverified = errors.New("passwordaccount: the e-mail address is not confirmed yet")
	// ErrInvalidToken is a confirmation or reset link that is malformed,
	// unknown, used or expired.
	ErrInvalidToken = errors.New("passwordaccount: the link is invalid, used or expired")
	// ErrNoPassword is a change asked by a user who has no password (one
	// who signs in another way): they set one through a reset.
	ErrNoPassword = errors.New("passwordaccount: the account has no password")
	// ErrNameTooLong is a sign-up name of more than MaxNameLen
	// characters.
	ErrNameTooLong = errors.New("passwordaccount: the name is too long")
)

// Links are the absolute URLs the messages point to, without a query.
type Links struct {
	// Verify confirms an address: {base}/{id}/verify.
	Verify string
	// Reset shows the new-password form: {base}/{id}/reset.
	Reset string
	// Forgot shows the "forgot your password" form: {base}/{id}/forgot.
	Forgot string
	// CallbackURL, when set, is carried by the confirmation link: where
	// to land once signed in.
	CallbackURL string
	// Language is the language tag of the messages, e.g. "de": that of
	// the pages of the request. "" is English.
	Language string
}

// Options are what a Service takes from the handler around it.
type Options struct {
	// Secrets key the link tokens' hashes, newest first (older ones are
	// tried when a link is used, for rotation); Config.Secret replaces
	// them. Required unless Config.Secret is set.
	Secrets []string
	// Logger logs what fails after an answer was sent; slog.Default()
	// when nil. No line holds a password, a token, a link or an address.
	Logger *slog.Logger
	// CreateUser, if set, is told of each user a sign-up creates.
	CreateUser func(ctx context.Context, u profile.User)
}

// MaxNameLen bounds the name given at sign-up, in characters.
const MaxNameLen = 100

// backgroundTimeout bounds the work done after the answer of a sign-up or
// a reset request (storing, sending).
const backgroundTimeout = time.Minute

// Service is the provider's logic without HTTP: sign-up, sign-in,
// confirmation, reset and change over a Store. It is safe for concurrent
// use.
type Service struct {
	cfg        Config
	store      Store
	tokens     *email.Tokens // hashes and uses up the links' tokens
	log        *slog.Logger
	createUser func(ctx context.Context, u profile.User)
	wg         sync.WaitGroup
}

// NewService prepares cfg and returns its Service over store.
func NewService(cfg Config, store Store, opt Options) (*Service, error) {
	cfg, err := cfg.Prepare()
	if err != nil {
		return nil, err
	}
	if store == nil {
		return nil, errors.New("passwordaccount: a Store is required")
	}
	secrets := opt.Secrets
	if cfg.Secret != "" {
		secrets = []string{cfg.Secret}
	}
	// A key of its own, apart from the e-mail provider's: a token of one
	// never hashes to a token of the other.
	tokens, err := email.NewTokens(secrets, "gatehouse password account token", "Gatehouse password account link token hash")
	if err != nil {
		return nil, fmt.Errorf("passwordaccount: %w", err)
	}
	s := &Service{cfg: cfg, store: store, log: opt.Logger, createUser: opt.CreateUser, tokens: tokens}
	if s.log == nil {
		s.log = slog.Default()
	}
	return s, nil
}

// HasPassword reports whether the user userID has a password. The hash is
// not returned.
func (s *Service) HasPassword(ctx context.Context, userID string) (bool, error) {
	_, err := s.store.PasswordHash(ctx, userID)
	if errors.Is(err, adapter.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// Config returns the prepared configuration.
func (s *Service) Config() Config { return s.cfg }

// Normalize returns the canonical form of a typed address, or an error
// wrapping email.ErrInvalidAddress.
func (s *Service) Normalize(address string) (string, error) {
	return s.cfg.NormalizeIdentifier(address)
}

// Wait waits for the work started after earlier answers (accounts being
// stored, messages being sent) to end: for tests and graceful shutdown.
func (s *Service) Wait() { s.wg.Wait() }

// SignUp asks for an account with the address, password and (optional)
// name. It returns an error only for what the caller typed (an invalid
// address, a password the Policy refuses) or a failing store; otherwise
// the answer is "check your e-mail", whether or not the address has an
// account. Both cases look the address up and hash the password; the
// rest runs after the answer: a new account is stored and sent a
// confirmation link, a known address is sent a KindExists message.
func (s *Service) SignUp(ctx context.Context, address, pw, name string, links Links) error {
	addr, err := s.Normalize(address)
	if err != nil {
		return err
	}
	if err := s.cfg.Policy.Check(ctx, pw); err != nil {
		return err
	}
	name = strings.TrimSpace(name)
	if utf8.RuneCountInString(name) > MaxNameLen {
		return ErrNameTooLong
	}
	_, err = s.store.GetUserByEmail(ctx, addr)
	known := err == nil
	if err != nil && !errors.Is(err, adapter.ErrNotFound) {
		return err
	}
	// Hashed on both paths, so a known address costs what a new one does.
	encoded, err := s.cfg.Hasher.Hash(ctx, pw)
	if err != nil {
		return err
	}
	if known {
		s.later(ctx, "sign-up of a known address", addr, func(ctx context.Context) error {
			return s.sendExists(ctx, addr, links)
		})
		return nil
	}
	s.later(ctx, "sign-up", addr, func(ctx context.Context) error {
		u, err := s.store.CreateUser(ctx, adapter.User{Email: addr, Name: name})
		if errors.Is(err, adapter.ErrConflict) {
			// Taken in the meantime (two sign-ups at once): the owner
			// hears of it as of any known address.
			return s.sendExists(ctx, addr, links)
		}
		if err != nil {
			return err
		}
		if err := s.store.SetPasswordHash(ctx, u.ID, encoded); err != nil {
			// No user without the password it was created with.
			_ = s.store.DeleteUser(ctx, u.ID)
			return err
		}
		if s.createUser != nil {
			s.createUser(ctx, accountlink.ToProfile(u))
		}
		return s.sendToken(ctx, KindVerify, addr, links)
	})
	return nil
}

// SignIn checks an address and password and returns the stored user. An
// unknown address, a user without a password and a wrong password are all
// ErrInvalidCredentials, after the same work (SP 800-63B §5.2.2 asks to
// limit guessing; the equal cost keeps the answer's time from telling the
// cases apart). A right password for an unconfirmed address is
// ErrUnverified, with the user. A hash stored with other parameters than
// the Hasher's is replaced.
func (s *Service) SignIn(ctx context.Context, address, pw string) (profile.User, error) {
	h := s.cfg.Hasher
	addr, err := s.Normalize(address)
	if err != nil {
		_ = h.DummyVerify(ctx, pw)
		return profile.User{}, ErrInvalidCredentials
	}
	u, err := s.store.GetUserByEmail(ctx, addr)
	if errors.Is(err, adapter.ErrNotFound) {
		_ = h.DummyVerify(ctx, pw)
		return profile.User{}, ErrInvalidCredentials
	}
	if err != nil {
		return profile.User{}, err
	}
	encoded, err := s.store.PasswordHash(ctx, u.ID)
	if errors.Is(err, adapter.ErrNotFound) {
		_ = h.DummyVerify(ctx, pw)
		return profile.User{}, ErrInvalidCredentials
	}
	if err != nil {
		return profile.User{}, err
	}
	if err := h.Verify(ctx, pw, encoded); err != nil {
		if ctx.Err() != nil {
			return profile.User{}, err // waited for a hashing slot too long
		}
		if !errors.Is(err, password.ErrMismatch) {
			s.log.Error("gatehouse: a stored password hash could not be read; the sign-in is refused", "provider", s.cfg.ID, "err", err)
		}
		return profile.User{}, ErrInvalidCredentials
	}
	if h.NeedsRehash(encoded) {
		if fresh, err := h.Hash(ctx, pw); err == nil {
			if err := s.store.SetPasswordHash(ctx, u.ID, fresh); err != nil {
				s.log.Error("gatehouse: storing a rehashed password failed", "provider", s.cfg.ID, "err", err)
			}
		}
	}
	if u.EmailVerified == nil && !s.cfg.AllowUnverified {
		return accountlink.ToProfile(u), ErrUnverified
	}
	return accountlink.ToProfile(u), nil
}

// ResendVerification sends the address a new confirmation link, after the
// answer. The caller has checked the password (SignIn's ErrUnverified).
func (s *Service) ResendVerification(ctx context.Context, addr string, links Links) {
	s.later(ctx, "confirmation mail", addr, func(ctx context.Context) error {
		return s.sendToken(ctx, KindVerify, addr, links)
	})
}

// Verify uses a confirmation link's token up, marks the address verified
// and returns the user.
func (s *Service) Verify(ctx context.Context, address, token string) (profile.User, error) {
	addr, err := s.Normalize(address)
	if err != nil {
		return profile.User{}, ErrInvalidToken
	}
	if err := s.useToken(ctx, KindVerify, addr, token); err != nil {
		return profile.User{}, err
	}
	u, err := s.store.GetUserByEmail(ctx, addr)
	if errors.Is(err, adapter.ErrNotFound) {
		return profile.User{}, ErrInvalidToken // deleted since
	}
	if err != nil {
		return profile.User{}, err
	}
	if u, err = s.markVerified(ctx, u); err != nil {
		return profile.User{}, err
	}
	return accountlink.ToProfile(u), nil
}

// Forgot asks for a reset link. It returns an error only for an invalid
// address or a failing store; otherwise the answer is "check your e-mail"
// whether or not the address has an account. Both cases look the address
// up; the link is made and sent after the answer, to a known address only
// (an unknown one is sent nothing: a message to an address that never
// signed up would be mail its owner did not ask for). A user without a
// password (one who signs in another way) gets a link too: the mailbox
// proves the account is theirs, and the reset gives them a password.
func (s *Service) Forgot(ctx context.Context, address string, links Links) error {
	addr, err := s.Normalize(address)
	if err != nil {
		return err
	}
	_, err = s.store.GetUserByEmail(ctx, addr)
	if errors.Is(err, adapter.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	s.later(ctx, "reset mail", addr, func(ctx context.Context) error {
		return s.sendToken(ctx, KindReset, addr, links)
	})
	return nil
}

// Reset uses a reset link's token up and sets the new password, which the
// Policy checks first (a refused password leaves the link usable). The
// address is then verified (the link proves the mailbox), and every
// database session of the user is ended when the store can
// (adapter.SessionRevoker): whoever knew the old password is signed out.
// It returns the user and how many sessions ended.
func (s *Service) Reset(ctx context.Context, address, token, pw string) (profile.User, int, error) {
	addr, err := s.Normalize(address)
	if err != nil {
		return profile.User{}, 0, ErrInvalidToken
	}
	if err := s.cfg.Policy.Check(ctx, pw); err != nil {
		return profile.User{}, 0, err
	}
	if err := s.useToken(ctx, KindReset, addr, token); err != nil {
		return profile.User{}, 0, err
	}
	// The link proves the mailbox. A user who never proved the address
	// (a sign-up never confirmed, perhaps someone else's) gives it up
	// first: the reset then makes the owner's own user, with none of the
	// squatter's password, name or ways in.
	if err := (accountlink.Linker{Adapter: s.store}).Claim(ctx, addr, ""); err != nil {
		return profile.User{}, 0, err
	}
	u, err := s.store.GetUserByEmail(ctx, addr)
	if errors.Is(err, adapter.ErrNotFound) {
		if u, err = s.store.CreateUser(ctx, adapter.User{Email: addr}); err == nil && s.createUser != nil {
			s.createUser(ctx, accountlink.ToProfile(u))
		}
	}
	if err != nil {
		return profile.User{}, 0, err
	}
	encoded, err := s.cfg.Hasher.Hash(ctx, pw)
	if err != nil {
		return profile.User{}, 0, err
	}
	if err := s.store.SetPasswordHash(ctx, u.ID, encoded); err != nil {
		return profile.User{}, 0, err
	}
	if u, err = s.markVerified(ctx, u); err != nil {
		return profile.User{}, 0, err
	}
	n := 0
	if rv, ok := s.store.(adapter.SessionRevoker); ok {
		if n, err = rv.DeleteUserSessions(ctx, u.ID); err != nil {
			return accountlink.ToProfile(u), 0, fmt.Errorf("passwordaccount: the password was reset but ending the sessions failed: %w", err)
		}
	}
	return accountlink.ToProfile(u), n, nil
}

// Change replaces the password of the user userID, given the current one:
// ErrInvalidCredentials when it is wrong, ErrNoPassword when the user has
// none, or the Policy's error for the new one. Ending the user's other
// sessions is the caller's, which knows the current one.
func (s *Service) Change(ctx context.Context, userID, current, pw string) (profile.User, error) {
	u, err := s.store.GetUser(ctx, userID)
	if err != nil {
		return profile.User{}, err
	}
	encoded, err := s.store.PasswordHash(ctx, u.ID)
	if errors.Is(err, adapter.ErrNotFound) {
		return profile.User{}, ErrNoPassword
	}
	if err != nil {
		return profile.User{}, err
	}
	if err := s.cfg.Hasher.Verify(ctx, current, encoded); err != nil {
		if ctx.Err() != nil {
			return profile.User{}, err
		}
		return profile.User{}, ErrInvalidCredentials
	}
	if err := s.cfg.Policy.Check(ctx, pw); err != nil {
		return profile.User{}, err
	}
	fresh, err := s.cfg.Hasher.Hash(ctx, pw)
	if err != nil {
		return profile.User{}, err
	}
	if err := s.store.SetPasswordHash(ctx, u.ID, fresh); err != nil {
		return profile.User{}, err
	}
	return accountlink.ToProfile(u), nil
}

// markVerified sets the user's EmailVerified, if not set yet.
func (s *Service) markVerified(ctx context.Context, u adapter.User) (adapter.User, error) {
	if u.EmailVerified != nil {
		return u, nil
	}
	now := time.Now().UTC()
	u.EmailVerified = &now
	return s.store.UpdateUser(ctx, u)
}

// later runs job after the answer, bounded by backgroundTimeout; a failure
// is logged without the address, a link or a token.
func (s *Service) later(ctx context.Context, what, addr string, job func(context.Context) error) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), backgroundTimeout)
		defer cancel()
		if err := job(ctx); err != nil {
			msg := strings.NewReplacer(addr, "[email]", url.QueryEscape(addr), "[email]").Replace(err.Error())
			s.log.Error("gatehouse: password account: "+what+" failed", "provider", s.cfg.ID, "err", msg)
		}
	}()
}

// identifier is what the adapter stores a token under: the kind and the
// provider before the address, so a token of one kind (or one provider)
// is never found as another's.
func (s *Service) identifier(k Kind, addr string) string {
	return string(k) + ":" + s.cfg.ID + ":" + addr
}

// tokenIdentifier is the identifier a token of kind k for addr is stored
// under. A reset link's also names the password the address's user has
// as it is made (none, for a user without one): once a password is set,
// by any link or a change, every other reset link asked for before
// matches nothing.
func (s *Service) tokenIdentifier(ctx context.Context, k Kind, addr string) (string, error) {
	ident := s.identifier(k, addr)
	if k != KindReset {
		return ident, nil
	}
	u, err := s.store.GetUserByEmail(ctx, addr)
	if err != nil && !errors.Is(err, adapter.ErrNotFound) {
		return "", err
	}
	// Looked up for an unknown address too (no user has the id ""): a
	// made-up link costs the same for known and unknown addresses.
	hash, err := s.store.PasswordHash(ctx, u.ID)
	if err != nil && !errors.Is(err, adapter.ErrNotFound) {
		return "", err
	}
	sum := sha256.Sum256([]byte(hash))
	return ident + ":" + hex.EncodeToString(sum[:8]), nil
}

// sendToken makes a single-use token of kind k (KindVerify or KindReset),
// stores its keyed hash and mails the link. A failed send removes the
// token: no link works that nobody received.
func (s *Service) sendToken(ctx context.Context, k Kind, addr string, links Links) error {
	raw := make([]byte, 32) // 256 bits
	if _, err := rand.Read(raw); err != nil {
		return err
	}
	token := hex.EncodeToString(raw)
	base, maxAge := links.Verify, s.cfg.VerifyMaxAge
	if k == KindReset {
		base, maxAge = links.Reset, s.cfg.ResetMaxAge
	}
	expires := time.Now().Add(maxAge)
	ident, err := s.tokenIdentifier(ctx, k, addr)
	if err != nil {
		return err
	}
	hash := s.tokens.Hash(token)
	if err := s.store.CreateVerificationToken(ctx, adapter.VerificationToken{Identifier: ident, TokenHash: hash, Expires: expires}); err != nil {
		return err
	}
	q := url.Values{"token": {token}, "email": {addr}}
	if k == KindVerify && links.CallbackURL != "" {
		q.Set("callbackUrl", links.CallbackURL)
	}
	m := Message{Kind: k, To: addr, URL: base + "?" + q.Encode(), Expires: expires, Host: hostOf(base),
		Language: links.Language, Template: s.cfg.Templates[k]}
	if err := s.cfg.Send(ctx, m); err != nil {
		_, _ = s.store.UseVerificationToken(ctx, ident, hash)
		return logclip.Scrub(err, m.URL, "[link]", token, "[token]", addr, "[email]")
	}
	return nil
}

// sendExists tells the owner of a known address of a sign-up with it.
func (s *Service) sendExists(ctx context.Context, addr string, links Links) error {
	u := links.Forgot + "?" + url.Values{"email": {addr}}.Encode()
	return s.cfg.Send(ctx, Message{Kind: KindExists, To: addr, URL: u, Host: hostOf(links.Forgot),
		Language: links.Language, Template: s.cfg.Templates[KindExists]})
}

// useToken uses up the token of kind k for addr: the adapter deletes it
// as it returns it, so of two uses only one succeeds. Rotated secrets are
// tried too.
func (s *Service) useToken(ctx context.Context, k Kind, addr, token string) error {
	ident, err := s.tokenIdentifier(ctx, k, addr)
	if err != nil {
		return err
	}
	err = s.tokens.Use(ctx, s.store, ident, token)
	switch {
	case errors.Is(err, email.ErrTokenUnknown):
		return ErrInvalidToken
	case errors.Is(err, email.ErrTokenExpired):
		return fmt.Errorf("%w: %v", ErrInvalidToken, err)
	}
	return err
}

// hostOf returns the host of an absolute URL, for a message's wording.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}

// FormError returns a code and a sentence for an error that lies in what
// was typed (a malformed address, a password the Policy refuses, a used
// link, a wrong current password), for a form or a JSON answer; "" for any
// other error (the server's). Neither tells whether an account exists.
func FormError(err error) (code, message string) {
	switch {
	case errors.Is(err, email.ErrInvalidAddress):
		return "invalid_email", "That e-mail address cannot receive mail. Check it and try again."
	case errors.Is(err, password.ErrTooShort):
		return "too_short", "The password is too short."
	case errors.Is(err, password.ErrTooLong):
		return "too_long", "The password is too long."
	case errors.Is(err, password.ErrBreached):
		return "breached", "This password appears in known data breaches. Choose another."
	case errors.Is(err, ErrInvalidToken):
		return "invalid_token", "The link is no longer valid."
	case errors.Is(err, ErrInvalidCredentials):
		return "wrong_password", "The current password is wrong."
	case errors.Is(err, ErrNoPassword):
		return "no_password", "Your account has no password yet: sign out and use “Forgot your password?” to set one."
	case errors.Is(err, ErrNameTooLong):
		return "name_too_long", "The name is too long."
	}
	return "", ""
}
