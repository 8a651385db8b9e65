package orgflow_test

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/organization"
)

// browse sends a browser's request (Accept: text/html; a form when form
// is not nil, with c's CSRF token unless it has one) without following
// redirects, and returns the status, the Location and the page.
func (c *client) browse(method, path string, form url.Values) (int, string, string) {
	c.s.t.Helper()
	var body io.Reader
	if form != nil {
		if !form.Has("csrfToken") {
			form.Set("csrfToken", c.csrf)
		}
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, c.s.srv.URL+path, body)
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", c.s.srv.URL)
	}
	hc := *c.c
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := hc.Do(req)
	if err != nil {
		c.s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), html.UnescapeString(string(b))
}

// forms returns the actions of the page's forms, without the base URL.
func forms(s *site, page string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<form action="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		out = append(out, strings.TrimPrefix(m[1], s.srv.URL))
	}
	return out
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestInvitationPage: the invitation link shows a browser who invites to
// what; a visitor who is not signed in gets a sign-in link that comes
// back to it, someone signed in with another address is told so and gets
// no buttons, and the invited user's Accept form joins and lands on the
// organization's page (303) with a notice. A program still gets JSON.
func TestInvitationPage(t *testing.T) {
	for _, db := range []bool{false, true} {
		t.Run(fmt.Sprintf("database=%v", db), func(t *testing.T) {
			s := newSite(t, memory.New(), db, &organization.Config{})
			alice := s.user("alice@example.com", 0)
			org := alice.create("Acme Corp")
			_, token := alice.invite(org, "newbie@example.com", organization.Member)
			link := "/auth/organizations/invitation?" + url.Values{"token": {token}}.Encode()

			anon := s.browser("", "")
			st, _, page := anon.browse("GET", link, nil)
			signIn := s.srv.URL + "/auth/signin?" + url.Values{"callbackUrl": {s.srv.URL + link}}.Encode()
			if st != 200 || !strings.Contains(page, "alice@example.com invites you to join Acme Corp as member.") ||
				!strings.Contains(page, `href="`+signIn+`"`) || len(forms(s, page)) != 0 {
				t.Fatalf("signed out: %d %s", st, page)
			}

			other := s.user("other@example.com", 0)
			st, _, page = other.browse("GET", link, nil)
			if st != 200 || !strings.Contains(page, "You are signed in as other@example.com, but the invitation is for newbie@example.com.") ||
				len(forms(s, page)) != 0 || strings.Contains(page, `name="token"`) {
				t.Fatalf("another user: %d %s", st, page)
			}

			// The page offers Accept to the users Accept takes: an address
			// stored in another Unicode form of the invited one (a
			// full-width N) is the invited address once normalized.
			wide := s.user("\uff2eewbie@example.com", 0)
			st, _, page = wide.browse("GET", link, nil)
			if got := forms(s, page); st != 200 || !has(got, "/auth/organizations/invitation/accept") {
				t.Fatalf("the invited address in another Unicode form: %d %v %s", st, got, page)
			}

			newbie := s.user("newbie@example.com", 0)
			st, _, page = newbie.browse("GET", link, nil)
			got := forms(s, page)
			if st != 200 || !has(got, "/auth/organizations/invitation/accept") || !has(got, "/auth/organizations/invitation/decline") ||
				!strings.Contains(page, `name="token" value="`+token+`"`) || !strings.Contains(page, `name="csrfToken" value="`+newbie.csrf+`"`) {
				t.Fatalf("the invited user: %d %v %s", st, got, page)
			}
			st, loc, _ := newbie.browse("POST", "/auth/organizations/invitation/accept", url.Values{"token": {token}})
			if want := s.srv.URL + "/auth/organizations/" + org + "?done=joined"; st != http.StatusSeeOther || loc != want {
				t.Fatalf("accept: %d %q, want 303 %q", st, loc, want)
			}
			if v := alice.view(org); len(v.Members) != 2 {
				t.Fatalf("members after accepting: %+v", v.Members)
			}
			st, _, page = newbie.browse("GET", "/auth/organizations/"+org+"?done=joined", nil)
			if st != 200 || !strings.Contains(page, "You joined the organization.") || !strings.Contains(page, "Your role: member") {
				t.Fatalf("the page after joining: %d %s", st, page)
			}

			// Used: the link's page says so; a second accept goes back to
			// it with the refusal.
			st, _, page = newbie.browse("GET", link, nil)
			if st != http.StatusNotFound || !strings.Contains(page, "This invitation link no longer works") || len(forms(s, page)) != 0 {
				t.Fatalf("a used link: %d %s", st, page)
			}
			st, loc, _ = newbie.browse("POST", "/auth/organizations/invitation/accept", url.Values{"token": {token}})
			if !strings.HasPrefix(loc, s.srv.URL+link+"&failed=") || st != http.StatusSeeOther {
				t.Fatalf("accepting again: %d %q", st, loc)
			}
			var shown map[string]string
			if st := newbie.get(link, &shown); st != http.StatusNotFound {
				t.Fatalf("JSON of a used link: %d", st)
			}
		})
	}
}

// TestOrganizationPage: each member sees the members, but the forms only
// where their role allows the change: the owner may change the role of
// and remove the others, an admin not the owner's, a member nobody's,
// and only those who may invite see the invitations. A browser's form
// that is refused comes back to the page (303) with the alert.
func TestOrganizationPage(t *testing.T) {
	s := newSite(t, memory.New(), false, &organization.Config{})
	owner := s.user("owner@example.com", 0)
	org := owner.create("Acme")
	admin := owner.join(org, "admin@example.com", organization.Admin)
	member := owner.join(org, "member@example.com", organization.Member)
	owner.invite(org, "later@example.com", organization.Member)
	base := "/auth/organizations/" + org
	role := func(c *client) string { return base + "/members/" + c.id + "/role" }
	remove := func(c *client) string { return base + "/members/" + c.id + "/remove" }

	_, _, page := owner.browse("GET", base, nil)
	got := forms(s, page)
	for _, want := range []string{role(admin), remove(admin), role(member), remove(member), base + "/invitations", base + "/leave"} {
		if !has(got, want) {
			t.Errorf("the owner's page lacks the form %s: %v", want, got)
		}
	}
	if has(got, role(owner)) || !strings.Contains(page, "later@example.com") || !strings.Contains(page, `<option value="owner">owner</option>`) {
		t.Errorf("the owner's page: %v %s", got, page)
	}

	_, _, page = admin.browse("GET", base, nil)
	got = forms(s, page)
	if has(got, role(owner)) || has(got, remove(owner)) || !has(got, role(member)) || strings.Contains(page, `<option value="owner">`) {
		t.Errorf("the admin's page: forms %v; the owner is out of reach, and no one is made owner", got)
	}

	_, _, page = member.browse("GET", base, nil)
	got = forms(s, page)
	if has(got, role(admin)) || has(got, remove(admin)) || has(got, base+"/invitations") || strings.Contains(page, "later@example.com") ||
		!strings.Contains(page, "admin@example.com") || !has(got, base+"/leave") {
		t.Errorf("the member's page: forms %v\n%s", got, page)
	}

	// A member's crafted form is refused by the route, and comes back.
	st, loc, _ := member.browse("POST", role(admin), url.Values{"role": {"member"}})
	if st != http.StatusSeeOther || loc != s.srv.URL+base+"?failed=forbidden" {
		t.Fatalf("a member's role change: %d %q", st, loc)
	}
	_, _, page = member.browse("GET", base+"?failed=forbidden", nil)
	if !strings.Contains(page, `role="alert">Your role does not allow that.`) {
		t.Errorf("no alert: %s", page)
	}
	if v := owner.view(org); roleOf(v, admin.id) != organization.Admin {
		t.Fatalf("the admin's role changed: %+v", v.Members)
	}
	// A form without the CSRF token changes nothing.
	st, loc, _ = owner.browse("POST", role(member), url.Values{"role": {"admin"}, "csrfToken": {""}})
	if st != http.StatusSeeOther || loc != s.srv.URL+base+"?failed=csrf" || roleOf(owner.view(org), member.id) != organization.Member {
		t.Fatalf("without the CSRF token: %d %q", st, loc)
	}
	// The owner's form changes it.
	st, loc, _ = owner.browse("POST", role(member), url.Values{"role": {"admin"}})
	if st != http.StatusSeeOther || loc != s.srv.URL+base+"?done=role" || roleOf(owner.view(org), member.id) != organization.Admin {
		t.Fatalf("the owner's role change: %d %q", st, loc)
	}
	// Not a member: the page does not say the organization exists.
	outsider := s.user("outsider@example.com", 0)
	st, loc, _ = outsider.browse("GET", base, nil)
	if st != http.StatusFound || loc != s.srv.URL+"/auth/organizations?failed=not_found" {
		t.Fatalf("an outsider: %d %q", st, loc)
	}
	// Nobody signed in: to the sign-in page and back.
	st, loc, _ = s.browser("", "").browse("GET", base, nil)
	if st != http.StatusFound || loc != s.srv.URL+"/auth/signin?"+(url.Values{"callbackUrl": {s.srv.URL + base}}).Encode() {
		t.Fatalf("signed out: %d %q", st, loc)
	}
}

func roleOf(v organization.View, userID string) string {
	for _, m := range v.Members {
		if m.UserID == userID {
			return m.Role
		}
	}
	return ""
}

// TestInviteFormShowsLink: without a sender, the invitation link is shown
// on the inviter's page (never put in a redirect's URL).
func TestInviteFormShowsLink(t *testing.T) {
	s := newSite(t, memory.New(), false, &organization.Config{})
	owner := s.user("owner@example.com", 0)
	org := owner.create("Acme")
	st, loc, page := owner.browse("POST", "/auth/organizations/"+org+"/invitations", url.Values{"email": {"new@example.com"}, "role": {"member"}})
	m := regexp.MustCompile(`id="invitation-link" type="text" readonly value="([^"]+)"`).FindStringSubmatch(page)
	if st != http.StatusCreated || loc != "" || m == nil || !strings.Contains(page, "give this link to new@example.com yourself") {
		t.Fatalf("invite: %d %q %s", st, loc, page)
	}
	u, _ := url.Parse(m[1])
	var shown struct{ Email string }
	if st := owner.get("/auth/organizations/invitation?token="+url.QueryEscape(u.Query().Get("token")), &shown); st != 200 || shown.Email != "new@example.com" {
		t.Fatalf("the shown link: %d %+v", st, shown)
	}
}

// TestSwitcherPage: the switcher lists the user's organizations, marks
// the active one, and its "Make active" form sets it (the permission
// check then uses it) and comes back; the create form makes one and
// opens its page.
func TestSwitcherPage(t *testing.T) {
	for name, open := range stores(t) {
		for _, db := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/database=%v", name, db), func(t *testing.T) {
				s := newSite(t, open(t), db, &organization.Config{})
				alice := s.user("alice@example.com", 0)
				st, loc, _ := alice.browse("POST", "/auth/organizations", url.Values{"name": {"Acme"}})
				if st != http.StatusSeeOther || !strings.HasSuffix(loc, "?done=created") {
					t.Fatalf("create: %d %q", st, loc)
				}
				org := strings.TrimSuffix(strings.TrimPrefix(loc, s.srv.URL+"/auth/organizations/"), "?done=created")
				_, _, page := alice.browse("GET", "/auth/organizations", nil)
				if !strings.Contains(page, `name="organizationId" value="`+org+`"`) || strings.Contains(page, "· <span class=\"muted\">active") {
					t.Fatalf("before: %s", page)
				}
				if st := alice.get("/app/delete", nil); st != http.StatusForbidden {
					t.Fatalf("no active organization yet: %d", st)
				}
				st, loc, _ = alice.browse("POST", "/auth/organizations/active", url.Values{"organizationId": {org}})
				if st != http.StatusSeeOther || loc != s.srv.URL+"/auth/organizations?done=active" {
					t.Fatalf("make active: %d %q", st, loc)
				}
				_, _, page = alice.browse("GET", "/auth/organizations?done=active", nil)
				if strings.Contains(page, `name="organizationId" value="`+org+`"`) || !strings.Contains(page, `<span class="muted">active</span>`) ||
					!strings.Contains(page, "Active organization changed.") {
					t.Fatalf("after: %s", page)
				}
				if st := alice.get("/app/delete", nil); st != 200 {
					t.Fatalf("the owner's active organization: %d", st)
				}
			})
		}
	}
}

// TestInvitationFormsAnswered: Decline ends the invitation and lands on
// the switcher; Cancel on the settings page ends another; an Accept the
// route refuses (an unverified address, the link handed on by the
// inviter) comes back to the invitation, which shows why and still offers
// the buttons.
func TestInvitationFormsAnswered(t *testing.T) {
	s := newSite(t, memory.New(), false, &organization.Config{})
	owner := s.user("owner@example.com", 0)
	org := owner.create("Acme")

	_, token := owner.invite(org, "dan@example.com", organization.Member)
	dan := s.user("dan@example.com", 0)
	st, loc, _ := dan.browse("POST", "/auth/organizations/invitation/decline", url.Values{"token": {token}})
	if st != http.StatusSeeOther || loc != s.srv.URL+"/auth/organizations?done=declined" {
		t.Fatalf("decline: %d %q", st, loc)
	}
	if v := owner.view(org); len(v.Invitations) != 0 || len(v.Members) != 1 {
		t.Fatalf("after declining: %+v", v)
	}

	inv, token := owner.invite(org, "erin@example.com", organization.Member)
	st, loc, _ = owner.browse("POST", "/auth/organizations/"+org+"/invitations/"+inv.ID+"/cancel", url.Values{})
	if st != http.StatusSeeOther || loc != s.srv.URL+"/auth/organizations/"+org+"?done=canceled" {
		t.Fatalf("cancel: %d %q", st, loc)
	}
	if v := owner.view(org); len(v.Invitations) != 0 {
		t.Fatalf("after canceling: %+v", v.Invitations)
	}
	var gone map[string]string
	if st := owner.get("/auth/organizations/invitation?token="+url.QueryEscape(token), &gone); st != http.StatusNotFound {
		t.Fatalf("a canceled link: %d", st)
	}

	_, token = owner.invite(org, "fay@example.com", organization.Member)
	u, err := s.a.CreateUser(t.Context(), adapter.User{Email: "fay@example.com"}) // not verified
	if err != nil {
		t.Fatal(err)
	}
	fay := s.signIn(u, 0)
	st, loc, _ = fay.browse("POST", "/auth/organizations/invitation/accept", url.Values{"token": {token}})
	link := s.srv.URL + "/auth/organizations/invitation?" + url.Values{"token": {token}}.Encode()
	if st != http.StatusSeeOther || loc != link+"&failed=unverified_address" {
		t.Fatalf("an unverified accept: %d %q", st, loc)
	}
	st, _, page := fay.browse("GET", strings.TrimPrefix(loc, s.srv.URL), nil)
	if st != 200 || !strings.Contains(page, `role="alert">Verify your e-mail address first.`) ||
		!has(forms(s, page), "/auth/organizations/invitation/accept") {
		t.Fatalf("the invitation after the refusal: %d %s", st, page)
	}
	if v := owner.view(org); len(v.Members) != 1 {
		t.Fatalf("joined unverified: %+v", v.Members)
	}
}
