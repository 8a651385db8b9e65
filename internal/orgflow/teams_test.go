package orgflow_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/internal/redistest"
	"github.com/gatehouse-auth/gatehouse/organization"
	"github.com/gatehouse-auth/gatehouse/permission"
)

// changes records what gatehouse.Events.Organization is told.
type changes struct {
	mu   sync.Mutex
	list []organization.Change
}

func (c *changes) add(_ context.Context, ch organization.Change) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.list = append(c.list, ch)
}

// of returns the changes of kind, in order.
func (c *changes) of(kind organization.ChangeKind) []organization.Change {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []organization.Change
	for _, ch := range c.list {
		if ch.Kind == kind {
			out = append(out, ch)
		}
	}
	return out
}

// newTeamSite is newSite (JWT sessions) with oc and its changes recorded.
func newTeamSite(t *testing.T, a adapter.Adapter, oc organization.Config) (*site, *changes) {
	t.Helper()
	if oc.Statements == nil {
		oc.Statements = statements
	}
	seen := &changes{}
	srv := httptest.NewUnstartedServer(nil)
	h, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, URL: "http://" + srv.Listener.Addr().String() + "/auth",
		Adapter: a, Session: gatehouse.SessionConfig{Strategy: gatehouse.StrategyJWT}, Providers: devProviders(t), RateLimit: noLimit{},
		Organizations: organization.Enable(oc),
		Events:        gatehouse.Events{Organization: seen.add}})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/auth/", h)
	return startSite(t, srv, mux, h, a, false), seen
}

// teamNames returns the names of org's teams as c lists them.
func (c *client) teamNames(org string) []string {
	c.s.t.Helper()
	var list []organization.Team
	if st := c.get("/auth/organizations/"+org+"/teams", &list); st != 200 {
		c.s.t.Fatalf("GET teams of %s: %d", org, st)
	}
	var names []string
	for _, tm := range list {
		names = append(names, tm.Name)
	}
	return names
}

// teamMembers returns the user ids of the team as c lists them.
func (c *client) teamMembers(org, team string) []string {
	c.s.t.Helper()
	var list []organization.TeamMember
	if st := c.get("/auth/organizations/"+org+"/teams/"+team+"/members", &list); st != 200 {
		c.s.t.Fatalf("GET members of team %s: %d", team, st)
	}
	ids := []string{}
	for _, m := range list {
		ids = append(ids, m.UserID)
	}
	return ids
}

// createTeam makes a team of org as c and returns it.
func (c *client) createTeam(org, name string) organization.Team {
	c.s.t.Helper()
	var tm organization.Team
	if st := c.post("/auth/organizations/"+org+"/teams", url.Values{"name": {name}}, &tm); st != http.StatusCreated {
		c.s.t.Fatalf("create team %s: %d", name, st)
	}
	return tm
}

// TestTeams: the team routes on every store, step by step: who may do
// what (a member without team:create is refused 403, a custom role may
// grant it), names and membership checked, and every id of another
// organization (its own, its team's, its member's) not found (404),
// never acted on. Removing a member from the organization takes them out
// of its teams; each change is told to Events.Organization.
func TestTeams(t *testing.T) {
	all := stores(t)
	all["sqlite"] = func(t *testing.T) adapter.Adapter { return dbtest.SQLite(t, "") }
	for name, open := range all {
		t.Run(name, func(t *testing.T) {
			s, seen := newTeamSite(t, open(t), organization.Config{Teams: organization.TeamsConfig{Enabled: true}})
			alice, dave := s.user("alice@example.com", 0), s.user("dave@example.com", 0)
			a, b := alice.create("Acme"), dave.create("Globex")
			bob := alice.join(a, "bob@example.com", organization.Admin)
			carol := alice.join(a, "carol@example.com", organization.Member)
			erin := dave.join(b, "erin@example.com", organization.Member)
			theirs := dave.createTeam(b, "Globex team")
			if st := dave.post("/auth/organizations/"+b+"/teams/"+theirs.ID+"/members", url.Values{"userId": {erin.id}}, nil); st != http.StatusCreated {
				t.Fatalf("dave adds erin: %d", st)
			}
			eng := alice.createTeam(a, "Engineering")
			signedOut := s.browser("", "")

			A, B := "/auth/organizations/"+a, "/auth/organizations/"+b
			E, T := A+"/teams/"+eng.ID, B+"/teams/"+theirs.ID
			steps := []struct {
				who          *client
				method, path string
				form         url.Values
				want         int
				code         string
			}{
				{carol, "POST", A + "/teams", url.Values{"name": {"Sales"}}, 403, "forbidden"},
				{carol, "GET", A + "/teams", nil, 200, ""},
				{bob, "POST", A + "/teams", url.Values{"name": {"Ops"}}, 201, ""},
				{alice, "POST", A + "/teams", url.Values{"name": {"Engineering"}}, 409, "conflict"},
				{alice, "POST", A + "/teams", url.Values{"name": {" "}}, 400, "invalid"},
				{alice, "POST", E + "/members", url.Values{"userId": {carol.id}}, 201, ""},
				{alice, "POST", E + "/members", url.Values{"userId": {carol.id}}, 409, "conflict"},
				{alice, "POST", E + "/members", url.Values{"userId": {erin.id}}, 404, "not_found"}, // not a member of Acme
				{alice, "POST", E + "/members", url.Values{"userId": {"ghost"}}, 404, "not_found"},
				{carol, "POST", E + "/members", url.Values{"userId": {bob.id}}, 403, "forbidden"},
				{carol, "POST", E + "/members/" + carol.id + "/remove", nil, 403, "forbidden"},
				{carol, "POST", E + "/update", url.Values{"name": {"Mine"}}, 403, "forbidden"},
				{carol, "POST", E + "/delete", nil, 403, "forbidden"},
				{carol, "GET", E + "/members", nil, 200, ""},
				{signedOut, "GET", A + "/teams", nil, 401, ""},
				// Globex's organization and team, by Acme's owner.
				{alice, "GET", B + "/teams", nil, 404, "not_found"},
				{alice, "POST", B + "/teams", url.Values{"name": {"Mine"}}, 404, "not_found"},
				{alice, "GET", T + "/members", nil, 404, "not_found"},
				{alice, "POST", T + "/update", url.Values{"name": {"Pwned"}}, 404, "not_found"},
				{alice, "POST", T + "/delete", nil, 404, "not_found"},
				{alice, "POST", T + "/members", url.Values{"userId": {alice.id}}, 404, "not_found"},
				{alice, "POST", T + "/members/" + erin.id + "/remove", nil, 404, "not_found"},
				// Globex's team under Acme's id.
				{alice, "GET", A + "/teams/" + theirs.ID + "/members", nil, 404, "not_found"},
				{alice, "POST", A + "/teams/" + theirs.ID + "/update", url.Values{"name": {"Pwned"}}, 404, "not_found"},
				{alice, "POST", A + "/teams/" + theirs.ID + "/delete", nil, 404, "not_found"},
				{alice, "POST", A + "/teams/" + theirs.ID + "/members", url.Values{"userId": {carol.id}}, 404, "not_found"},
				{alice, "POST", A + "/teams/" + theirs.ID + "/members/" + erin.id + "/remove", nil, 404, "not_found"},
				// Acme's team under Globex's id, by Globex's owner.
				{dave, "POST", B + "/teams/" + eng.ID + "/delete", nil, 404, "not_found"},
				{dave, "POST", B + "/teams/" + eng.ID + "/members", url.Values{"userId": {erin.id}}, 404, "not_found"},
				{bob, "POST", E + "/update", url.Values{"name": {"Platform"}}, 200, ""},
			}
			for i, c := range steps {
				var out errBody
				var st int
				if c.method == "GET" {
					st = c.who.get(c.path, &out)
				} else {
					st = c.who.post(c.path, c.form, &out)
				}
				if st != c.want || (c.code != "" && out.Error != c.code) {
					t.Errorf("step %d: %s %s: %d %+v, want %d %s", i, c.method, c.path, st, out, c.want, c.code)
				}
			}
			if got := dave.teamNames(b); !reflect.DeepEqual(got, []string{"Globex team"}) {
				t.Errorf("Globex's teams: %v", got)
			}
			if got := dave.teamMembers(b, theirs.ID); !reflect.DeepEqual(got, []string{erin.id}) {
				t.Errorf("Globex's team's members: %v", got)
			}
			if got := carol.teamNames(a); !reflect.DeepEqual(got, []string{"Ops", "Platform"}) {
				t.Errorf("Acme's teams: %v", got)
			}
			if got := carol.teamMembers(a, eng.ID); !reflect.DeepEqual(got, []string{carol.id}) {
				t.Errorf("Acme's team's members: %v", got)
			}

			// A custom role may grant team:create.
			if st := alice.post(A+"/roles", url.Values{"name": {"lead"}, "permissions": {"team:create"}}, nil); st != 200 {
				t.Fatalf("create the role lead: %d", st)
			}
			if st := alice.post(A+"/members/"+carol.id+"/role", url.Values{"role": {"lead"}}, nil); st != 200 {
				t.Fatalf("make carol lead: %d", st)
			}
			carol.createTeam(a, "Carol's")
			var out errBody
			if st := carol.post(E+"/delete", nil, &out); st != 403 {
				t.Errorf("a lead deletes a team: %d %+v", st, out)
			}

			// Removing carol from Acme takes her out of its teams.
			if st := alice.post(A+"/members/"+carol.id+"/remove", nil, nil); st != 200 {
				t.Fatalf("remove carol: %d", st)
			}
			if got := alice.teamMembers(a, eng.ID); len(got) != 0 {
				t.Errorf("after carol left Acme, its team has %v", got)
			}
			if st := bob.post(E+"/delete", nil, nil); st != 200 {
				t.Fatalf("an admin deletes the team: %d", st)
			}
			if got := alice.teamNames(a); !reflect.DeepEqual(got, []string{"Carol's", "Ops"}) {
				t.Errorf("after the delete, Acme's teams: %v", got)
			}

			want := map[organization.ChangeKind][]organization.Change{
				organization.TeamUpdated:       {{Kind: organization.TeamUpdated, OrganizationID: a, ActorID: bob.id, TeamID: eng.ID}},
				organization.TeamDeleted:       {{Kind: organization.TeamDeleted, OrganizationID: a, ActorID: bob.id, TeamID: eng.ID}},
				organization.TeamMemberAdded:   {{Kind: organization.TeamMemberAdded, OrganizationID: b, ActorID: dave.id, UserID: erin.id, TeamID: theirs.ID}, {Kind: organization.TeamMemberAdded, OrganizationID: a, ActorID: alice.id, UserID: carol.id, TeamID: eng.ID}},
				organization.TeamMemberRemoved: nil, // carol left the team by leaving Acme: that is member.removed
			}
			for kind, w := range want {
				if got := seen.of(kind); !reflect.DeepEqual(got, w) {
					t.Errorf("%s changes:\n got  %+v\n want %+v", kind, got, w)
				}
			}
			created := seen.of(organization.TeamCreated)
			if len(created) != 4 || created[1].TeamID != eng.ID || created[1].ActorID != alice.id || created[1].OrganizationID != a {
				t.Errorf("team.created changes: %+v", created)
			}
		})
	}
}

// TestTeamRemoveMember: removing a member from a team keeps them in the
// organization and is told as team.member_removed.
func TestTeamRemoveMember(t *testing.T) {
	s, seen := newTeamSite(t, memory.New(), organization.Config{Teams: organization.TeamsConfig{Enabled: true}})
	alice := s.user("alice@example.com", 0)
	a := alice.create("Acme")
	bob := alice.join(a, "bob@example.com", organization.Member)
	eng := alice.createTeam(a, "Engineering")
	E := "/auth/organizations/" + a + "/teams/" + eng.ID
	if st := alice.post(E+"/members", url.Values{"userId": {bob.id}}, nil); st != http.StatusCreated {
		t.Fatalf("add bob: %d", st)
	}
	if st := alice.post(E+"/members/"+bob.id+"/remove", nil, nil); st != 200 {
		t.Fatalf("remove bob from the team: %d", st)
	}
	if got := bob.teamMembers(a, eng.ID); len(got) != 0 {
		t.Errorf("the team has %v", got)
	}
	if st := alice.post(E+"/members/"+bob.id+"/remove", nil, nil); st != 404 {
		t.Errorf("remove bob again: %d", st)
	}
	if v := bob.view(a); len(v.Members) != 2 {
		t.Errorf("bob left Acme with the team: %+v", v.Members)
	}
	want := []organization.Change{{Kind: organization.TeamMemberRemoved, OrganizationID: a, ActorID: alice.id, UserID: bob.id, TeamID: eng.ID}}
	if got := seen.of(organization.TeamMemberRemoved); !reflect.DeepEqual(got, want) {
		t.Errorf("changes: %+v, want %+v", got, want)
	}
}

// teamCalls is a memory adapter that counts the calls of its team
// methods.
type teamCalls struct {
	*memory.Adapter
	n atomic.Int32
}

func (c *teamCalls) CreateTeam(ctx context.Context, t organization.Team, max int) error {
	c.n.Add(1)
	return c.Adapter.CreateTeam(ctx, t, max)
}

func (c *teamCalls) Teams(ctx context.Context, orgID string) ([]organization.Team, error) {
	c.n.Add(1)
	return c.Adapter.Teams(ctx, orgID)
}

func (c *teamCalls) TeamMembers(ctx context.Context, orgID, teamID string) ([]organization.TeamMember, error) {
	c.n.Add(1)
	return c.Adapter.TeamMembers(ctx, orgID, teamID)
}

func (c *teamCalls) DeleteTeam(ctx context.Context, orgID, id string) error {
	c.n.Add(1)
	return c.Adapter.DeleteTeam(ctx, orgID, id)
}

// TestTeamsOff: with Config.Teams off every team route answers 404, to
// the organization's owner too, without a call to the store's team
// methods; roles hold no team statement and the application may declare
// the resource "team" itself. With teams on, it may not.
func TestTeamsOff(t *testing.T) {
	a := &teamCalls{Adapter: memory.New()}
	own := permission.Declared{"team": {"archive"}, "project": {"read"}}
	s, _ := newTeamSite(t, a, organization.Config{Statements: own})
	alice := s.user("alice@example.com", 0)
	org := alice.create("Acme")
	A := "/auth/organizations/" + org
	for _, c := range []struct{ method, path string }{
		{"GET", A + "/teams"}, {"POST", A + "/teams"}, {"POST", A + "/teams/x/update"}, {"POST", A + "/teams/x/delete"},
		{"GET", A + "/teams/x/members"}, {"POST", A + "/teams/x/members"}, {"POST", A + "/teams/x/members/" + alice.id + "/remove"},
	} {
		var out errBody
		var st int
		if c.method == "GET" {
			st = alice.get(c.path, &out)
		} else {
			st = alice.post(c.path, url.Values{"name": {"Eng"}, "userId": {alice.id}}, &out)
		}
		if st != http.StatusNotFound || out.Error != "not_found" {
			t.Errorf("%s %s with teams off: %d %+v, want 404 not_found", c.method, c.path, st, out)
		}
	}
	if n := a.n.Load(); n != 0 {
		t.Errorf("the store's team methods were called %d times", n)
	}
	v := alice.view(org)
	if v.Permissions.Has(organization.CreateTeam) || !v.Permissions.Has("team:archive") {
		t.Errorf("the owner's statements with teams off: %v", v.Permissions)
	}

	_, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Adapter: memory.New(), Providers: devProviders(t),
		Organizations: organization.Enable(organization.Config{Statements: own, Teams: organization.TeamsConfig{Enabled: true}})})
	var ce *gatehouse.ConfigError
	if !errors.As(err, &ce) || ce.Field != "Organizations" {
		t.Errorf("teams on with the application's own team statements: %v, want a ConfigError on Organizations", err)
	}
	rc := redistest.NewClient(t)
	for name, a := range map[string]adapter.Adapter{
		"organizations without teams": noTeams{memory.New()},
		// The wrapper has the team methods, and no store behind them.
		"redis over organizations without teams": redisstore.New(rc, noTeams{memory.New()}, redisstore.Options{Prefix: redistest.Prefix(t, rc)}),
	} {
		_, err = gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Adapter: a, Providers: devProviders(t),
			Organizations: organization.Enable(organization.Config{Teams: organization.TeamsConfig{Enabled: true}})})
		if !errors.As(err, &ce) || ce.Field != "Organizations" {
			t.Errorf("teams on %s: %v, want a ConfigError on Organizations", name, err)
		}
	}
}

// noTeams is an organization store without teams.
type noTeams struct{ orgAdapter }

// TestTeamStatements: with teams on, owner and admin hold the team
// statements and member none.
func TestTeamStatements(t *testing.T) {
	s, _ := newTeamSite(t, memory.New(), organization.Config{Teams: organization.TeamsConfig{Enabled: true}})
	alice := s.user("alice@example.com", 0)
	org := alice.create("Acme")
	bob := alice.join(org, "bob@example.com", organization.Admin)
	carol := alice.join(org, "carol@example.com", organization.Member)
	all := []permission.Statement{organization.CreateTeam, organization.UpdateTeam, organization.DeleteTeam}
	for _, c := range []struct {
		who  *client
		want bool
	}{{alice, true}, {bob, true}, {carol, false}} {
		v := c.who.view(org)
		for _, st := range all {
			if v.Permissions.Has(st) != c.want {
				t.Errorf("%s holds %s: %v, want %v", v.Role, st, !c.want, c.want)
			}
		}
	}
	if !slices.Contains(organization.TeamStatements["team"], "create") {
		t.Error("TeamStatements lacks team:create")
	}
}

// TestTeamLimits: MaxTeams and MaxMembersPerTeam answer 409 limit.
func TestTeamLimits(t *testing.T) {
	s, _ := newTeamSite(t, memory.New(), organization.Config{Teams: organization.TeamsConfig{Enabled: true, MaxTeams: 2, MaxMembersPerTeam: 1}})
	alice := s.user("alice@example.com", 0)
	org := alice.create("Acme")
	bob := alice.join(org, "bob@example.com", organization.Member)
	one := alice.createTeam(org, "One")
	alice.createTeam(org, "Two")
	var out errBody
	if st := alice.post("/auth/organizations/"+org+"/teams", url.Values{"name": {"Three"}}, &out); st != http.StatusConflict || out.Error != "limit" {
		t.Errorf("a third team: %d %+v, want 409 limit", st, out)
	}
	M := "/auth/organizations/" + org + "/teams/" + one.ID + "/members"
	if st := alice.post(M, url.Values{"userId": {alice.id}}, nil); st != http.StatusCreated {
		t.Fatalf("the first member: %d", st)
	}
	if st := alice.post(M, url.Values{"userId": {bob.id}}, &out); st != http.StatusConflict || out.Error != "limit" {
		t.Errorf("a second member: %d %+v, want 409 limit", st, out)
	}
}

// TestTeamLimitConcurrent: on PostgreSQL, through two Handlers on one
// database, 100 requests at once create teams in an organization that
// may have 3: 3 are made, the others answer 409 limit.
func TestTeamLimitConcurrent(t *testing.T) {
	a1, a2 := pgAdapter(t)
	oc := organization.Config{Teams: organization.TeamsConfig{Enabled: true, MaxTeams: 3}}
	s1, _ := newTeamSite(t, a1, oc)
	s2, _ := newTeamSite(t, a2, oc)
	alice := s1.user("alice@example.com", 0)
	org := alice.create("Acme")
	u, err := a1.GetUser(t.Context(), alice.id)
	if err != nil {
		t.Fatal(err)
	}
	browsers := []*client{alice, s2.signIn(u, 0)}
	var made, limited atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			var out errBody
			c := browsers[i%2]
			switch st := c.post("/auth/organizations/"+org+"/teams", url.Values{"name": {"Team " + strconv.Itoa(i)}}, &out); {
			case st == http.StatusCreated:
				made.Add(1)
			case st == http.StatusConflict && out.Error == "limit":
				limited.Add(1)
			default:
				t.Errorf("create: %d %+v", st, out)
			}
		}()
	}
	close(start)
	wg.Wait()
	if got := alice.teamNames(org); made.Load() != 3 || len(got) != 3 || limited.Load() != 97 {
		t.Errorf("%d made, %d refused, %d stored (%v); want 3, 97, 3", made.Load(), limited.Load(), len(got), got)
	}
}

// TestTeamPostChecked: a team POST without the CSRF token, or from
// another origin, changes nothing.
func TestTeamPostChecked(t *testing.T) {
	s, _ := newTeamSite(t, memory.New(), organization.Config{Teams: organization.TeamsConfig{Enabled: true}})
	alice := s.user("alice@example.com", 0)
	org := alice.create("Acme")
	eng := alice.createTeam(org, "Engineering")
	if st := alice.do("POST", "/auth/organizations/"+org+"/teams", url.Values{"name": {"Sales"}}, nil); st != http.StatusForbidden {
		t.Errorf("create without the CSRF token: %d, want 403", st)
	}
	if st := alice.do("POST", "/auth/organizations/"+org+"/teams/"+eng.ID+"/delete", url.Values{}, nil); st != http.StatusForbidden {
		t.Errorf("delete without the CSRF token: %d, want 403", st)
	}
	req, _ := http.NewRequest("POST", s.srv.URL+"/auth/organizations/"+org+"/teams/"+eng.ID+"/delete",
		strings.NewReader(url.Values{"csrfToken": {alice.csrf}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	resp, err := alice.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("delete from another origin: %d, want 403", resp.StatusCode)
	}
	if got := alice.teamNames(org); !reflect.DeepEqual(got, []string{"Engineering"}) {
		t.Errorf("teams: %v", got)
	}
}

// TestTeamsPage: with teams on, the settings page lists the teams and
// their members, with the team forms only for a role that allows them;
// each form posts to its route and comes back (303) with what happened,
// or what was refused. With teams off the page has no Teams section.
func TestTeamsPage(t *testing.T) {
	s, _ := newTeamSite(t, memory.New(), organization.Config{Teams: organization.TeamsConfig{Enabled: true}})
	owner := s.user("owner@example.com", 0)
	org := owner.create("Acme")
	member := owner.join(org, "member@example.com", organization.Member)
	base := "/auth/organizations/" + org

	st, loc, _ := owner.browse("POST", base+"/teams", url.Values{"name": {"Engineering"}})
	if st != http.StatusSeeOther || loc != s.srv.URL+base+"?done=teamCreated" {
		t.Fatalf("create a team: %d %q", st, loc)
	}
	var teams []organization.Team
	owner.get(base+"/teams", &teams)
	if len(teams) != 1 {
		t.Fatalf("teams: %+v", teams)
	}
	team := base + "/teams/" + teams[0].ID
	st, loc, _ = owner.browse("POST", team+"/members", url.Values{"userId": {member.id}})
	if st != http.StatusSeeOther || loc != s.srv.URL+base+"?done=teamMemberAdded" {
		t.Fatalf("add a member: %d %q", st, loc)
	}
	st, loc, _ = owner.browse("POST", base+"/teams", url.Values{"name": {"Engineering"}})
	if st != http.StatusSeeOther || loc != s.srv.URL+base+"?failed=conflict" {
		t.Errorf("a second team of the name: %d %q", st, loc)
	}

	_, _, page := owner.browse("GET", base, nil)
	got := forms(s, page)
	for _, want := range []string{base + "/teams", team + "/update", team + "/delete", team + "/members/" + member.id + "/remove", team + "/members"} {
		if !has(got, want) {
			t.Errorf("the owner's page lacks the form %s: %v", want, got)
		}
	}
	if !strings.Contains(page, "Engineering") || !strings.Contains(page, "member@example.com") {
		t.Error("the owner's page does not show the team and its member")
	}
	if !strings.Contains(page, "<h2>Create a team</h2>") {
		t.Error("the owner's page has no heading over the create form")
	}
	// The add form offers the owner, not the member already in the team.
	if !strings.Contains(page, `<option value="`+owner.id+`">`) || strings.Contains(page, `<option value="`+member.id+`">`) {
		t.Error("the add form's candidates are wrong")
	}

	_, _, page = member.browse("GET", base, nil)
	for _, f := range forms(s, page) {
		if strings.Contains(f, "/teams") {
			t.Errorf("a member without team statements gets the form %s", f)
		}
	}
	if !strings.Contains(page, "Engineering") {
		t.Error("a member's page does not show the team")
	}
	if strings.Contains(page, "Create a team") {
		t.Error("a member without team:create gets the create form's heading")
	}

	for _, c := range []struct{ path, done string }{
		{team + "/update", "teamUpdated"},
		{team + "/members/" + member.id + "/remove", "teamMemberRemoved"},
		{team + "/delete", "teamDeleted"},
	} {
		st, loc, _ := owner.browse("POST", c.path, url.Values{"name": {"Platform"}})
		if st != http.StatusSeeOther || loc != s.srv.URL+base+"?done="+c.done {
			t.Errorf("POST %s: %d %q, want 303 ?done=%s", c.path, st, loc, c.done)
		}
	}
	if _, _, page := owner.browse("GET", base+"?done=teamDeleted", nil); !strings.Contains(page, "Team deleted.") {
		t.Error("the page does not say the team was deleted")
	}

	off := newSite(t, memory.New(), false, &organization.Config{})
	alice := off.user("alice@example.com", 0)
	other := alice.create("Globex")
	if _, _, page := alice.browse("GET", "/auth/organizations/"+other, nil); strings.Contains(page, "Teams") {
		t.Error("with teams off the page has a Teams section")
	}
}
