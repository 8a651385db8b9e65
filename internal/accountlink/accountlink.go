// Package accountlink decides which stored user a sign-in is for, and
// writes it: the account-linking rules of Auth.js,
// safe under concurrent sign-ins of one person. It knows nothing of
// requests or cookies: the caller says who is signed in.
package accountlink

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// Linker links sign-ins through Adapter, calling the events after the
// writes that succeed (each nil when unset).
type Linker struct {
	Adapter       adapter.Adapter
	CreateUser    func(ctx context.Context, u profile.User)
	LinkAccount   func(ctx context.Context, u profile.User, a account.Account)
	UnlinkAccount func(ctx context.Context, u profile.User, a account.Account)
}

// SignIn is what a provider proved, and who is signed in.
type SignIn struct {
	User    profile.User
	Account account.Account
	// Profile is the provider's profile (its email_verified is read).
	Profile any
	// AllowDangerousLinking is the provider's
	// AllowDangerousEmailAccountLinking.
	AllowDangerousLinking bool
	// Current is the id of the signed-in user, or "".
	Current string
}

// Link applies the linking rules of Auth.js, made stricter:
//
//   - an account already linked signs its user in, or fails with
//     autherr.OAuthAccountNotLinked when another user is signed in;
//   - a new account is linked to the signed-in user, the only safe way to
//     link, unless that user already has an account at the provider (a
//     user has at most one account per provider);
//   - a new account whose e-mail address belongs to a stored user fails
//     with autherr.OAuthAccountNotLinked, unless the provider sets
//     AllowDangerousEmailAccountLinking and does not say the address is
//     unverified;
//   - otherwise a new user is created with the account, in one
//     transaction (adapter.CreateUserWithAccount): both rows or neither.
//
// Writes that lose a race with a concurrent sign-in (adapter.ErrConflict)
// start the decision again, so that two first sign-ins of one person make
// one user. CreateUser and LinkAccount fire once, for the request whose
// write succeeded.
func (l Linker) Link(ctx context.Context, res SignIn) (profile.User, bool, error) {
	prov := res.Account.Provider
	var lastErr error
	for range linkAttempts {
		u, isNew, err := l.linkOnce(ctx, res)
		if !errors.Is(err, errLinkRace) {
			return u, isNew, err
		}
		lastErr = err
	}
	return profile.User{}, false, autherr.New(autherr.AdapterError, "adapter", prov, "link", lastErr)
}

// linkAttempts bounds how often Link starts again after losing a race:
// the second attempt sees the winner's rows, so two are enough; one more
// covers a third concurrent writer.
const linkAttempts = 3

// errLinkRace marks a write that lost a race with a concurrent sign-in.
var errLinkRace = errors.New("a concurrent sign-in wrote first")

func (l Linker) linkOnce(ctx context.Context, res SignIn) (profile.User, bool, error) {
	a, current := l.Adapter, res.Current
	acct := res.Account
	prov := acct.Provider
	fail := func(t autherr.Type, code string, err error) (profile.User, bool, error) {
		return profile.User{}, false, autherr.New(t, code, prov, "link", err)
	}
	adapterFail := func(err error) (profile.User, bool, error) {
		if errors.Is(err, adapter.ErrConflict) {
			return profile.User{}, false, fmt.Errorf("%w: %w", errLinkRace, err)
		}
		return fail(autherr.AdapterError, "adapter", err)
	}

	found, err := a.GetUserByAccount(ctx, prov, acct.ProviderAccountID)
	switch {
	case err == nil:
		if current != "" && current != found.ID {
			return fail(autherr.OAuthAccountNotLinked, "linked_to_other_user", errors.New("this account is already linked to another user"))
		}
		acct.UserID = found.ID
		// Keep the stored tokens current (Auth.js never updates them),
		// but keep the stored refresh token when the provider sends no
		// new one: many send it only at the first consent.
		if acct.RefreshToken == "" {
			old, err := a.GetAccount(ctx, prov, acct.ProviderAccountID)
			if err != nil {
				return fail(autherr.AdapterError, "adapter", err)
			}
			acct.RefreshToken = old.RefreshToken
		}
		if err := a.UpdateAccount(ctx, acct); err != nil {
			return fail(autherr.AdapterError, "adapter", err)
		}
		return ToProfile(found), false, nil
	case !errors.Is(err, adapter.ErrNotFound):
		return adapterFail(err)
	}

	// A new account. Signed in: link it to the current user.
	if current != "" {
		return l.linkTo(ctx, current, acct, nil)
	}
	if res.User.Email != "" && res.User.EmailVerified != nil {
		// The provider proved the address: a stored user who never did
		// gives it up (Claim), so a squatter's sign-up neither blocks
		// this first sign-in nor receives it.
		if err := l.Claim(ctx, res.User.Email, ""); err != nil {
			return adapterFail(err)
		}
	}
	if res.User.Email != "" {
		existing, err := a.GetUserByEmail(ctx, res.User.Email)
		refuse := err == nil && (!res.AllowDangerousLinking || EmailUnverified(res.Profile))
		if refuse {
			// A concurrent first sign-in of this same account may have
			// created its user between the account lookup above and this
			// one: the address is then the winner's, and this sign-in
			// must end as the winner's did. Look at the account again.
			if _, err := a.GetUserByAccount(ctx, prov, acct.ProviderAccountID); err == nil {
				return profile.User{}, false, errLinkRace
			}
		}
		switch {
		case err == nil && !res.AllowDangerousLinking:
			return fail(autherr.OAuthAccountNotLinked, "email_in_use", errors.New("another account already uses this e-mail address"))
		case err == nil && EmailUnverified(res.Profile):
			return fail(autherr.OAuthAccountNotLinked, "email_unverified", errors.New("the provider says the e-mail address is not verified; it is not linked to the user who has it"))
		case err == nil:
			return l.linkTo(ctx, existing.ID, acct, &existing)
		case !errors.Is(err, adapter.ErrNotFound):
			return adapterFail(err)
		}
	}
	// A new user, created with its account in one transaction.
	nu := adapter.User{Name: res.User.Name, Email: res.User.Email, Image: res.User.Image, EmailVerified: res.User.EmailVerified}
	created, err := a.CreateUserWithAccount(ctx, nu, acct)
	if err != nil {
		return adapterFail(err)
	}
	acct.UserID = created.ID
	if l.CreateUser != nil {
		l.CreateUser(ctx, ToProfile(created))
	}
	if l.LinkAccount != nil {
		l.LinkAccount(ctx, ToProfile(created), acct)
	}
	return ToProfile(created), true, nil
}

// linkTo links the new account acct to the stored user userID (u when
// already loaded), refusing a second account at the same provider.
func (l Linker) linkTo(ctx context.Context, userID string, acct account.Account, u *adapter.User) (profile.User, bool, error) {
	a := l.Adapter
	prov := acct.Provider
	fail := func(t autherr.Type, code string, err error) (profile.User, bool, error) {
		return profile.User{}, false, autherr.New(t, code, prov, "link", err)
	}
	linked, err := a.ListAccounts(ctx, userID)
	if err != nil {
		return fail(autherr.AdapterError, "adapter", err)
	}
	for _, l := range linked {
		if l.Provider == prov {
			return fail(autherr.OAuthAccountNotLinked, "provider_already_linked", fmt.Errorf("the user already has another account at provider %q", prov))
		}
	}
	acct.UserID = userID
	if err := a.LinkAccount(ctx, acct); err != nil {
		if errors.Is(err, adapter.ErrConflict) {
			return profile.User{}, false, fmt.Errorf("%w: %w", errLinkRace, err)
		}
		return fail(autherr.AdapterError, "adapter", err)
	}
	if u == nil {
		got, err := a.GetUser(ctx, userID)
		if err != nil {
			return fail(autherr.AdapterError, "adapter", err)
		}
		u = &got
	}
	if l.LinkAccount != nil {
		l.LinkAccount(ctx, ToProfile(*u), acct)
	}
	return ToProfile(*u), false, nil
}

// EmailUnverified reports whether the provider's profile says, with an
// email_verified member, that the address is not verified: dangerous
// linking only ever joins a verified address, when the provider tells.
func EmailUnverified(prof any) bool {
	var m map[string]any
	switch p := prof.(type) {
	case nil:
		return false
	case map[string]any:
		m = p
	case profile.Claims:
		m = p
	default:
		raw, err := json.Marshal(prof)
		if err != nil || json.Unmarshal(raw, &m) != nil {
			return false
		}
	}
	switch v := m["email_verified"].(type) {
	case bool:
		return !v
	case string:
		return strings.EqualFold(v, "false")
	}
	return false
}

// ToProfile is a stored user as the application sees it.
func ToProfile(u adapter.User) profile.User {
	return profile.User{ID: u.ID, Name: u.Name, Email: u.Email, Image: u.Image, EmailVerified: u.EmailVerified}
}

// EmailUser finds or creates the stored user of a verified address
// (the e-mail provider's sign-in): a found user gets EmailVerified set when it was
// not; a new one is created with it. No account row is written.
//
// current is the id of the user signed in on the browser that followed
// the link, or "": a signed-in user proving their own address keeps their
// user (Claim leaves it alone).
func (l Linker) EmailUser(ctx context.Context, prov string, user profile.User, current string) (profile.User, bool, error) {
	a := l.Adapter
	fail := func(err error) (profile.User, bool, error) {
		return profile.User{}, false, autherr.New(autherr.AdapterError, "adapter", prov, "user", err)
	}
	for range linkAttempts {
		// The link proved the address: a stored user who never did
		// gives it up first (Claim).
		if err := l.Claim(ctx, user.Email, current); err != nil {
			return fail(err)
		}
		u, err := a.GetUserByEmail(ctx, user.Email)
		switch {
		case err == nil:
			if u.EmailVerified == nil {
				u.EmailVerified = user.EmailVerified
				if u, err = a.UpdateUser(ctx, u); err != nil {
					return fail(err)
				}
			}
			return ToProfile(u), false, nil
		case !errors.Is(err, adapter.ErrNotFound):
			return fail(err)
		}
		created, err := a.CreateUser(ctx, adapter.User{Email: user.Email, EmailVerified: user.EmailVerified})
		if errors.Is(err, adapter.ErrConflict) {
			continue // a concurrent first sign-in created it: read it
		}
		if err != nil {
			return fail(err)
		}
		if l.CreateUser != nil {
			l.CreateUser(ctx, ToProfile(created))
		}
		return ToProfile(created), true, nil
	}
	return fail(errors.New("the user could not be read or created"))
}

// ErrLastWay is Unlink's refusal to take away the user's last way to sign
// in.
var ErrLastWay = errors.New("this account is the user's last way to sign in")

// ErrNotUnlinkable is Unlink's refusal to remove a credentials account:
// it is the application's own sign-in, not an account the user linked,
// and without it the next sign-in with the same credentials would find
// the address taken and fail.
var ErrNotUnlinkable = errors.New("a credentials account cannot be unlinked")

// Unlink removes the user's account at provider, unless nothing would be
// left to sign in with: no other linked account and none of otherWays
// (the caller counts what the adapter does not hold as accounts, such as
// passkeys, or an e-mail provider for the user's address). With an
// adapter.AccountLocker the check and the removal hold the user's lock, so
// two concurrent unlinks cannot each remove one of the last two.
func (l Linker) Unlink(ctx context.Context, userID, provider string, otherWays int) (account.Account, error) {
	var gone account.Account
	unlink := func(ctx context.Context) error {
		accts, err := l.Adapter.ListAccounts(ctx, userID)
		if err != nil {
			return err
		}
		found := false
		for _, a := range accts {
			if a.Provider == provider {
				gone, found = a, true
			}
		}
		switch {
		case !found:
			return adapter.ErrNotFound
		case gone.Type == account.TypeCredentials:
			return ErrNotUnlinkable
		case len(accts)-1+otherWays < 1:
			return ErrLastWay
		}
		return l.Adapter.UnlinkAccount(ctx, gone.Provider, gone.ProviderAccountID)
	}
	var err error
	if lk, ok := l.Adapter.(adapter.AccountLocker); ok {
		// One lock per user: "(user)" is no provider id (ids are URL path
		// segments).
		err = lk.LockAccount(ctx, "(user)", userID, unlink)
	} else {
		err = unlink(ctx)
	}
	if err != nil {
		return account.Account{}, err
	}
	if l.UnlinkAccount != nil {
		if u, err := l.Adapter.GetUser(ctx, userID); err == nil {
			l.UnlinkAccount(ctx, ToProfile(u), gone)
		}
	}
	return gone, nil
}

// Claim hands the address addr to a sign-in that has just proven it
// controls it (an e-mail link, a provider that verified the address, a
// password reset link). A stored user holding addr whose address was never
// proven (EmailVerified nil) does not own it: whoever typed the address
// there set up its ways in, perhaps an attacker who signed up first with
// the victim's address ("pre-account takeover"). So, before the proving
// sign-in reads the address:
//
//   - its password, never confirmed, is deleted;
//   - with no other way in (no linked account, no passkey) the user was
//     only a pending sign-up and is deleted, its sessions with it;
//   - otherwise the address is taken from it: its other ways in keep
//     working for whoever set them up, but never for the address's owner.
//
// The proving sign-in then finds no user with the address and creates its
// own. A user whose address was proven keeps everything, and so does the
// user signedIn, the one signed in on the browser that proved the address
// (their session shows it is them; "" for none). Claim is the one place
// this rule lives; every route that proves an address calls it.
func (l Linker) Claim(ctx context.Context, addr, signedIn string) error {
	a := l.Adapter
	u, err := a.GetUserByEmail(ctx, addr)
	if errors.Is(err, adapter.ErrNotFound) || (err == nil && (u.EmailVerified != nil || u.ID == signedIn)) {
		return nil
	}
	if err != nil {
		return err
	}
	if ps, ok := a.(adapter.PasswordStore); ok {
		if err := ps.DeletePasswordHash(ctx, u.ID); err != nil && !errors.Is(err, errors.ErrUnsupported) {
			return err
		}
	}
	ways, err := l.waysIn(ctx, u.ID)
	if err != nil {
		return err
	}
	if ways == 0 {
		if err := a.DeleteUser(ctx, u.ID); err != nil && !errors.Is(err, adapter.ErrNotFound) {
			return err
		}
		return nil
	}
	u.Email = ""
	if _, err := a.UpdateUser(ctx, u); err != nil && !errors.Is(err, adapter.ErrNotFound) {
		return err
	}
	return nil
}

// waysIn counts the user's ways in that do not depend on the address:
// linked accounts and passkeys.
func (l Linker) waysIn(ctx context.Context, userID string) (int, error) {
	accts, err := l.Adapter.ListAccounts(ctx, userID)
	if err != nil {
		return 0, err
	}
	n := len(accts)
	if aa, ok := l.Adapter.(adapter.AuthenticatorAdapter); ok {
		keys, err := aa.ListAuthenticatorsByUserID(ctx, userID)
		if err != nil && !errors.Is(err, errors.ErrUnsupported) {
			return 0, err
		}
		n += len(keys)
	}
	return n, nil
}
