package selfservice

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/pages"
)

// Linked accounts. To link another, the user signs in with it while
// signed in: package gatehouse binds that sign-in to this session.

// linkedAccount is one account in the answer of GET {base}/accounts.
type linkedAccount struct {
	Provider          string       `json:"provider"`
	Name              string       `json:"name,omitempty"`
	Type              account.Type `json:"type"`
	ProviderAccountID string       `json:"providerAccountId"`
	// CanUnlink is false when the account is the user's last way to sign
	// in (unlinking it would be refused: 409 last_way), or a credentials
	// account, the application's own sign-in (409 not_unlinkable).
	CanUnlink bool `json:"canUnlink"`
}

// Accounts answers GET {base}/accounts: the accounts linked to the
// signed-in user, by provider (never their tokens), each with canUnlink;
// a browser gets the built-in page.
func (s *Routes) Accounts(w http.ResponseWriter, r *http.Request) {
	u, ok := s.pageOwner(w, r, "accounts")
	if !ok {
		return
	}
	if httpx.AcceptsHTML(r) {
		s.accountsPage(w, r, u.id, http.StatusOK, "")
		return
	}
	out, _, err := s.linkedAccounts(r.Context(), r, u.id)
	if err != nil {
		s.cfg.Logger.Error("gatehouse: listing accounts failed", "step", "accounts", "err", err)
		httpx.StoreUnavailable(w)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// linkedAccounts lists the accounts linked to the user, each saying
// whether it may be unlinked, and the user's other ways in.
func (s *Routes) linkedAccounts(ctx context.Context, r *http.Request, userID string) ([]linkedAccount, []Way, error) {
	ctx, cancel := context.WithTimeout(ctx, httpx.StoreTimeout)
	defer cancel()
	accts, err := s.cfg.Adapter.ListAccounts(ctx, userID)
	if err != nil {
		return nil, nil, err
	}
	ways, err := s.otherWays(ctx, userID)
	if err != nil {
		return nil, nil, err
	}
	// Unlinking one leaves the others and the other ways; at least one
	// must remain (accountlink.ErrLastWay decides, under the user's lock;
	// this only says what it would answer now).
	canUnlink := len(accts)-1+countWays(ways) > 0
	names := map[string]string{}
	for _, p := range s.cfg.Providers {
		names[p.ID] = p.Name
	}
	out := make([]linkedAccount, 0, len(accts))
	for _, a := range accts {
		out = append(out, linkedAccount{Provider: a.Provider, Name: names[a.Provider], Type: a.Type, ProviderAccountID: a.ProviderAccountID,
			CanUnlink: canUnlink && a.Type != account.TypeCredentials})
	}
	return out, ways, nil
}

// canUnlink reports whether the user's account at provider is linked and
// may be unlinked now (a failing store says no: the unlink then reports
// it).
func (s *Routes) canUnlink(r *http.Request, userID, provider string) bool {
	list, _, err := s.linkedAccounts(r.Context(), r, userID)
	for _, a := range list {
		if a.Provider == provider {
			return err == nil && a.CanUnlink
		}
	}
	return false
}

// remaining names what the user can still sign in with once the account
// at provider is gone: the other linked accounts and the other ways.
func remaining(list []linkedAccount, ways []Way, provider string, label func(Way) string) []string {
	var out []string
	for _, a := range list {
		if a.Provider != provider {
			out = append(out, cmp.Or(a.Name, a.Provider))
		}
	}
	for _, w := range ways {
		out = append(out, label(w))
	}
	return out
}

// wayKeys returns the catalogue keys (pages.Text) of a way's name, one
// and several; false for a way the catalogue does not name. A switch, not
// a map: a package-level map would be linked, with its initialisation,
// into programs that do not serve these routes.
func wayKeys(name string) ([2]string, bool) {
	switch name {
	case "Passkey":
		return [2]string{"ways.passkey", "ways.passkeys"}, true
	case "Password":
		return [2]string{"ways.password", "ways.passwords"}, true
	case "Email link":
		return [2]string{"ways.emailLink", "ways.emailLinks"}, true
	}
	return [2]string{}, false
}

// wayLabel is w as r's page lists it: "Password", "2 passkeys".
func (s *Routes) wayLabel(r *http.Request, w Way) string {
	keys, ok := wayKeys(w.Name)
	switch {
	case ok && w.Count > 1:
		return s.host.Text(r, keys[1], w.Count)
	case ok:
		return s.host.Text(r, keys[0])
	case w.Count > 1:
		return fmt.Sprintf("%d %ss", w.Count, strings.ToLower(w.Name))
	}
	return w.Name
}

// accountsPage renders the built-in accounts page for the user with the
// given status. alert is the page's refusal, if any; a notice is only
// shown for what the list confirms: ?linked={id} when that provider is
// linked, ?unlinked={id} when it is configured and not linked (the query
// is the browser's, so nothing of it is shown as is).
func (s *Routes) accountsPage(w http.ResponseWriter, r *http.Request, userID string, status int, alert string) {
	s.accountsPageConfirming(w, r, userID, status, alert, "")
}

// accountsPageConfirming is accountsPage, asking first to confirm the
// unlinking of the account at provider when provider is not "".
func (s *Routes) accountsPageConfirming(w http.ResponseWriter, r *http.Request, userID string, status int, alert, confirm string) {
	list, ways, err := s.linkedAccounts(r.Context(), r, userID)
	if err != nil {
		s.host.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", "", "accounts", err))
		return
	}
	page := pages.Accounts{Theme: s.cfg.Theme, CSRFToken: s.host.CSRFToken(w, r), CallbackURL: s.host.URL(r, "accounts"),
		Error: alert, HomeURL: s.host.Origin(r) + "/"}
	for _, w := range ways {
		page.Ways = append(page.Ways, s.wayLabel(r, w))
	}
	for _, a := range list {
		if a.Provider == confirm && a.CanUnlink {
			page.Confirm = &pages.UnlinkConfirm{Name: cmp.Or(a.Name, a.Provider),
				UnlinkURL: s.host.URL(r, "accounts", "unlink", url.PathEscape(a.Provider)),
				CancelURL: s.host.URL(r, "accounts"), Remaining: remaining(list, ways, a.Provider, func(w Way) string { return s.wayLabel(r, w) })}
		}
	}
	all := s.cfg.Providers
	provs := make(map[string]Provider, len(all))
	for _, p := range all {
		provs[p.ID] = p
	}
	linked := make(map[string]bool, len(list))
	for _, a := range list {
		linked[a.Provider] = true
		row := pages.LinkedAccount{ID: a.Provider, Name: a.Name, AccountID: a.ProviderAccountID, Style: provs[a.Provider].Style}
		if a.CanUnlink {
			row.UnlinkURL = s.host.URL(r, "accounts", "unlink", url.PathEscape(a.Provider))
		}
		page.Linked = append(page.Linked, row)
	}
	// Link another: every OAuth or OIDC provider not linked yet, a sign-in
	// started here, by this session.
	for _, p := range all {
		if p.OAuth && !linked[p.ID] {
			page.Link = append(page.Link, pages.Button{ID: p.ID, Name: p.Name, SigninURL: s.host.URL(r, "signin", p.ID), Style: p.Style})
		}
	}
	name := func(id string) string {
		if p, ok := provs[id]; ok && p.Name != "" {
			return p.Name
		}
		return id
	}
	if alert == "" {
		q := r.URL.Query()
		if id := q.Get("linked"); id != "" && linked[id] {
			page.Notice = s.host.Text(r, "selfservice.linked", name(id))
		} else if _, known := provs[q.Get("unlinked")]; known && !linked[q.Get("unlinked")] {
			page.Notice = s.host.Text(r, "selfservice.unlinked", name(q.Get("unlinked")))
		}
	}
	s.host.Render(w, r, status, page)
}

// Unlink answers POST {base}/accounts/unlink/{provider} {csrfToken}: the
// signed-in user's account at provider is removed, unless it is the last
// working way to sign in (409 last_way) or a credentials account (409
// not_unlinkable). A browser's form is first answered with the page
// asking to confirm, naming what will remain; the confirmation's form
// (confirm=yes) unlinks, and is sent back to the page (303), or shown it
// with the refusal.
func (s *Routes) Unlink(w http.ResponseWriter, r *http.Request) {
	prov := r.PathValue("provider")
	page := httpx.AcceptsHTML(r)
	var form url.Values
	if page {
		again := func(u signedIn) {
			s.accountsPage(w, r, u.id, http.StatusForbidden, s.host.Text(r, "selfservice.unlinkExpired"))
		}
		f, ok := s.formOK(w, r, "accounts", again)
		if !ok {
			return
		}
		form = f
	} else if _, ok := s.post(w, r); !ok {
		return
	}
	u, ok := s.pageOwner(w, r, "accounts")
	if !ok {
		return
	}
	userID := u.id
	// Unlinking can lock the user out of an account they sign in with: a
	// stolen session cookie alone must not do it.
	if !s.fresh(u) {
		if page {
			s.accountsPage(w, r, userID, http.StatusForbidden, s.host.Text(r, StaleMessage))
			return
		}
		staleJSON(w)
		return
	}
	if page && form.Get("confirm") != "yes" && s.canUnlink(r, userID, prov) {
		// One click on the list's button only asks; the confirmation's
		// form unlinks. A refusal (the last way, nothing linked) is
		// answered at once, below.
		s.accountsPageConfirming(w, r, userID, http.StatusOK, "", prov)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	ways, err := s.otherWays(ctx, userID)
	if err == nil {
		_, err = s.cfg.Linker.Unlink(ctx, userID, prov, countWays(ways))
	}
	name := prov
	for _, p := range s.cfg.Providers {
		if p.ID == prov && p.Name != "" {
			name = p.Name
		}
	}
	switch {
	case errors.Is(err, adapter.ErrNotFound) && page:
		s.accountsPage(w, r, userID, http.StatusNotFound, s.host.Text(r, "selfservice.notLinked"))
	case errors.Is(err, adapter.ErrNotFound):
		httpx.WriteJSON(w, http.StatusNotFound, map[string]string{"error": string(autherr.AccountNotLinked), "code": "not_linked"})
	case errors.Is(err, accountlink.ErrLastWay) && page:
		s.accountsPage(w, r, userID, http.StatusConflict, s.host.Text(r, "selfservice.onlyWay", name))
	case errors.Is(err, accountlink.ErrLastWay):
		httpx.WriteJSON(w, http.StatusConflict, map[string]string{"error": string(autherr.AccountNotLinked), "code": "last_way"})
	case errors.Is(err, accountlink.ErrNotUnlinkable) && page:
		s.accountsPage(w, r, userID, http.StatusConflict, s.host.Text(r, "selfservice.ownSignIn", name))
	case errors.Is(err, accountlink.ErrNotUnlinkable):
		httpx.WriteJSON(w, http.StatusConflict, map[string]string{"error": string(autherr.AccountNotLinked), "code": "not_unlinkable"})
	case err != nil:
		s.cfg.Logger.Error("gatehouse: unlinking an account failed", "provider", prov, "step", "accounts", "err", err)
		if page {
			s.host.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", prov, "accounts", err))
			return
		}
		httpx.StoreUnavailable(w)
	default:
		s.cfg.Logger.Info("gatehouse: account unlinked", "provider", prov, "user", userID)
		if page {
			s.host.Redirect(w, r, s.host.URL(r, "accounts")+"?unlinked="+url.QueryEscape(prov)) // back to the page (303)
			return
		}
		httpx.WriteJSON(w, http.StatusOK, map[string]string{"unlinked": prov})
	}
}

// otherWays lists the working ways userID has to sign in that are not
// linked accounts (Config.Ways): the user's passkeys; a password, when
// the user can use it; an e-mail link, when the user's address was
// proven.
func (s *Routes) otherWays(ctx context.Context, userID string) ([]Way, error) {
	var ways []Way
	var user *adapter.User
	stored := func() (adapter.User, error) {
		if user == nil {
			u, err := s.cfg.Adapter.GetUser(ctx, userID)
			if err != nil {
				return u, err
			}
			user = &u
		}
		return *user, nil
	}
	for _, c := range s.cfg.Ways {
		name, n, err := c.Way(ctx, userID, stored)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			ways = append(ways, Way{Name: name, Count: n})
		}
	}
	return ways, nil
}
