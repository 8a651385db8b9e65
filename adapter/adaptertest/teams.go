package adaptertest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// teamRacers is the number of goroutines the teams' limit tests start
// at once.
const teamRacers = 100

// teamStore is an adapter's organizations with their teams.
type teamStore interface {
	organization.Store
	organization.TeamStore
}

// runTeams runs the organization.TeamStore suite on adapters that
// implement it (through wrappers too: adapter.Supports).
func runTeams(t *testing.T, newAdapter func(t *testing.T) adapter.Adapter) {
	runStore(t, newAdapter, []storeTest[teamStore]{
		{"Team/CreateGetRenameDelete", testTeamCRUD},
		{"Team/Members", testTeamMembers},
		{"Team/Cascades", testTeamCascades},
		{"Team/Limits", testTeamLimits},
		{"Concurrency/TeamLimit", testRaceTeamLimit},
		{"Concurrency/TeamMemberLimit", testRaceTeamMemberLimit},
	})
}

// makeTeam stores a team of orgID named name, or fails the test.
func makeTeam(t *testing.T, s teamStore, orgID, name string) organization.Team {
	t.Helper()
	tm := organization.Team{ID: "team-" + orgID + "-" + name, OrganizationID: orgID, Name: name, CreatedAt: now}
	if err := s.CreateTeam(ctx(t), tm, 100); err != nil {
		t.Fatalf("CreateTeam %s: %v", name, err)
	}
	return tm
}

// teamMemberIDs returns the user ids of orgID's team teamID, in order.
func teamMemberIDs(t *testing.T, s teamStore, orgID, teamID string) []string {
	t.Helper()
	list, err := s.TeamMembers(ctx(t), orgID, teamID)
	if err != nil {
		t.Fatalf("TeamMembers: %v", err)
	}
	ids := []string{}
	for _, m := range list {
		if m.TeamID != teamID {
			t.Errorf("TeamMembers(%s) holds %+v", teamID, m)
		}
		ids = append(ids, m.UserID)
	}
	return ids
}

func testTeamCRUD(t *testing.T, a adapter.Adapter, s teamStore) {
	f := makeOrg(t, a, s, "acme")
	g := makeOrg(t, a, s, "globex")
	eng := makeTeam(t, s, f.org.ID, "Engineering")
	makeTeam(t, s, f.org.ID, "Design")
	other := makeTeam(t, s, g.org.ID, "Engineering") // the same name in another organization
	got, err := s.Team(ctx(t), f.org.ID, eng.ID)
	if err != nil || got.Name != "Engineering" || got.OrganizationID != f.org.ID || !sameTime(got.CreatedAt, now) {
		t.Fatalf("Team = %+v, %v", got, err)
	}
	checkUTC(t, "team CreatedAt", got.CreatedAt)
	_, err = s.Team(ctx(t), f.org.ID, other.ID)
	wantErr(t, "another organization's team", err, adapter.ErrNotFound)
	list, err := s.Teams(ctx(t), f.org.ID)
	if err != nil || len(list) != 2 || list[0].Name != "Design" || list[1].Name != "Engineering" {
		t.Fatalf("Teams = %+v, %v; want Design, Engineering", list, err)
	}
	dup := organization.Team{ID: "dup", OrganizationID: f.org.ID, Name: "Design", CreatedAt: now}
	wantErr(t, "a second team named Design", s.CreateTeam(ctx(t), dup, 100), adapter.ErrConflict)
	ghost := organization.Team{ID: "ghost", OrganizationID: "no-such-org", Name: "X", CreatedAt: now}
	wantErr(t, "a team of an unknown organization", s.CreateTeam(ctx(t), ghost, 100), adapter.ErrNotFound)

	wantErr(t, "renaming to a taken name", s.RenameTeam(ctx(t), f.org.ID, eng.ID, "Design"), adapter.ErrConflict)
	wantErr(t, "renaming through another organization", s.RenameTeam(ctx(t), g.org.ID, eng.ID, "Pwned"), adapter.ErrNotFound)
	if err := s.RenameTeam(ctx(t), f.org.ID, eng.ID, "Platform"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Team(ctx(t), f.org.ID, eng.ID); got.Name != "Platform" {
		t.Errorf("after rename: %+v", got)
	}
	if got, _ := s.Team(ctx(t), g.org.ID, other.ID); got.Name != "Engineering" {
		t.Errorf("the other organization's team changed: %+v", got)
	}

	wantErr(t, "deleting through another organization", s.DeleteTeam(ctx(t), g.org.ID, eng.ID), adapter.ErrNotFound)
	if _, err := s.Team(ctx(t), f.org.ID, eng.ID); err != nil {
		t.Errorf("a refused delete removed the team: %v", err)
	}
	if err := s.DeleteTeam(ctx(t), f.org.ID, eng.ID); err != nil {
		t.Fatal(err)
	}
	_, err = s.Team(ctx(t), f.org.ID, eng.ID)
	wantErr(t, "deleted team", err, adapter.ErrNotFound)
	wantErr(t, "deleting it again", s.DeleteTeam(ctx(t), f.org.ID, eng.ID), adapter.ErrNotFound)
	if list, _ := s.Teams(ctx(t), g.org.ID); len(list) != 1 {
		t.Errorf("the other organization's teams: %+v", list)
	}
}

func testTeamMembers(t *testing.T, a adapter.Adapter, s teamStore) {
	f := makeOrg(t, a, s, "acme")
	g := makeOrg(t, a, s, "globex")
	bob := join(t, a, s, f.org.ID, "bob@example.com", organization.Member)
	carol := join(t, a, s, g.org.ID, "carol@example.com", organization.Member)
	team := makeTeam(t, s, f.org.ID, "Engineering")
	theirs := makeTeam(t, s, g.org.ID, "Sales")
	if err := s.AddTeamMember(ctx(t), f.org.ID, team.ID, bob, 100, now); err != nil {
		t.Fatal(err)
	}
	if err := s.AddTeamMember(ctx(t), f.org.ID, team.ID, f.owner, 100, now.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "adding bob twice", s.AddTeamMember(ctx(t), f.org.ID, team.ID, bob, 100, now), adapter.ErrConflict)
	wantErr(t, "adding a member of another organization", s.AddTeamMember(ctx(t), f.org.ID, team.ID, carol, 100, now), adapter.ErrNotFound)
	wantErr(t, "adding an unknown user", s.AddTeamMember(ctx(t), f.org.ID, team.ID, "ghost", 100, now), adapter.ErrNotFound)
	wantErr(t, "adding to another organization's team", s.AddTeamMember(ctx(t), f.org.ID, theirs.ID, bob, 100, now), adapter.ErrNotFound)
	wantErr(t, "adding its member through the other organization", s.AddTeamMember(ctx(t), g.org.ID, team.ID, carol, 100, now), adapter.ErrNotFound)
	if ids := teamMemberIDs(t, s, f.org.ID, team.ID); fmt.Sprint(ids) != fmt.Sprint([]string{bob, f.owner}) {
		t.Errorf("TeamMembers = %v, want bob then the owner", ids)
	}
	list, _ := s.TeamMembers(ctx(t), f.org.ID, team.ID)
	if len(list) > 0 && (!sameTime(list[0].CreatedAt, now) || list[0].CreatedAt.Location() != time.UTC) {
		t.Errorf("added at %v, want %v in UTC", list[0].CreatedAt, now)
	}
	if ids := teamMemberIDs(t, s, g.org.ID, theirs.ID); len(ids) != 0 {
		t.Errorf("the other organization's team has %v", ids)
	}
	_, err := s.TeamMembers(ctx(t), g.org.ID, team.ID)
	wantErr(t, "listing a team through another organization", err, adapter.ErrNotFound)
	_, err = s.TeamMembers(ctx(t), f.org.ID, "nope")
	wantErr(t, "listing an unknown team", err, adapter.ErrNotFound)

	wantErr(t, "removing through another organization", s.RemoveTeamMember(ctx(t), g.org.ID, team.ID, bob), adapter.ErrNotFound)
	if err := s.RemoveTeamMember(ctx(t), f.org.ID, team.ID, bob); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "removing bob again", s.RemoveTeamMember(ctx(t), f.org.ID, team.ID, bob), adapter.ErrNotFound)
	if ids := teamMemberIDs(t, s, f.org.ID, team.ID); fmt.Sprint(ids) != fmt.Sprint([]string{f.owner}) {
		t.Errorf("after removing bob: %v", ids)
	}
	if _, err := s.Membership(ctx(t), f.org.ID, bob); err != nil {
		t.Errorf("leaving the team ended bob's membership: %v", err)
	}
}

func testTeamCascades(t *testing.T, a adapter.Adapter, s teamStore) {
	f := makeOrg(t, a, s, "acme")
	g := makeOrg(t, a, s, "globex")
	bob := join(t, a, s, f.org.ID, "bob@example.com", organization.Member)
	carol := join(t, a, s, f.org.ID, "carol@example.com", organization.Member)
	eng, ops := makeTeam(t, s, f.org.ID, "Engineering"), makeTeam(t, s, f.org.ID, "Ops")
	for _, id := range []string{bob, carol, f.owner} {
		for _, tm := range []organization.Team{eng, ops} {
			if err := s.AddTeamMember(ctx(t), f.org.ID, tm.ID, id, 100, now); err != nil {
				t.Fatal(err)
			}
		}
	}
	// bob, also a member of globex, in a team there.
	hash := organization.HashToken("bob-globex")
	_ = s.CreateInvitation(ctx(t), organization.Invitation{ID: "ib", OrganizationID: g.org.ID, Email: "bob@example.com", Role: "member",
		TokenHash: hash, Expires: time.Now().Add(time.Hour), CreatedAt: now}, false, noLimit)
	if _, err := s.AcceptInvitation(ctx(t), hash, "bob@example.com", bob, noLimit, noLimit, time.Now()); err != nil {
		t.Fatal(err)
	}
	sales := makeTeam(t, s, g.org.ID, "Sales")
	if err := s.AddTeamMember(ctx(t), g.org.ID, sales.ID, bob, 100, now); err != nil {
		t.Fatal(err)
	}

	// Leaving the organization leaves its teams, not the other's.
	if err := s.RemoveMembership(ctx(t), f.org.ID, bob, map[string]string{bob: organization.Member}); err != nil {
		t.Fatal(err)
	}
	for _, tm := range []organization.Team{eng, ops} {
		if ids := teamMemberIDs(t, s, f.org.ID, tm.ID); fmt.Sprint(ids) != fmt.Sprint([]string{carol, f.owner}) &&
			fmt.Sprint(ids) != fmt.Sprint([]string{f.owner, carol}) {
			t.Errorf("%s after bob left acme: %v", tm.Name, ids)
		}
	}
	if ids := teamMemberIDs(t, s, g.org.ID, sales.ID); fmt.Sprint(ids) != fmt.Sprint([]string{bob}) {
		t.Errorf("bob's globex team after he left acme: %v", ids)
	}

	// Deleting a user removes them from every team.
	if err := a.DeleteUser(ctx(t), carol); err != nil {
		t.Fatal(err)
	}
	if ids := teamMemberIDs(t, s, f.org.ID, eng.ID); fmt.Sprint(ids) != fmt.Sprint([]string{f.owner}) {
		t.Errorf("Engineering after carol was deleted: %v", ids)
	}

	// Deleting a team deletes its members: a new team of the name is
	// empty, and the other team keeps its own.
	if err := s.DeleteTeam(ctx(t), f.org.ID, eng.ID); err != nil {
		t.Fatal(err)
	}
	again := makeTeam(t, s, f.org.ID, "Engineering") // the same id as before
	if ids := teamMemberIDs(t, s, f.org.ID, again.ID); len(ids) != 0 {
		t.Errorf("a team made again with the deleted one's id has %v", ids)
	}
	if ids := teamMemberIDs(t, s, f.org.ID, ops.ID); fmt.Sprint(ids) != fmt.Sprint([]string{f.owner}) {
		t.Errorf("Ops after Engineering was deleted: %v", ids)
	}

	// Deleting the organization deletes its teams.
	if err := s.DeleteOrganization(ctx(t), f.org.ID); err != nil {
		t.Fatal(err)
	}
	if list, err := s.Teams(ctx(t), f.org.ID); err != nil || len(list) != 0 {
		t.Errorf("teams of the deleted organization: %v, %v", list, err)
	}
	_, err := s.Team(ctx(t), f.org.ID, ops.ID)
	wantErr(t, "a team of the deleted organization", err, adapter.ErrNotFound)
	if list, _ := s.Teams(ctx(t), g.org.ID); len(list) != 1 {
		t.Errorf("globex's teams after acme was deleted: %v", list)
	}
	// An organization made again with the deleted one's id starts with
	// no teams and no team members.
	re := organization.Organization{ID: f.org.ID, Name: "Acme again", Slug: "acme", CreatedAt: now}
	if err := s.CreateOrganization(ctx(t), re, organization.Membership{OrganizationID: re.ID, UserID: f.owner, Role: organization.Owner, CreatedAt: now}, noLimit); err != nil {
		t.Fatal(err)
	}
	if list, _ := s.Teams(ctx(t), re.ID); len(list) != 0 {
		t.Errorf("teams of the organization made again: %v", list)
	}
	if err := s.CreateTeam(ctx(t), ops, 100); err != nil {
		t.Fatalf("a team made again with the id of one deleted with its organization: %v", err)
	}
	if ids := teamMemberIDs(t, s, f.org.ID, ops.ID); len(ids) != 0 {
		t.Errorf("a team made again after its organization was deleted has %v", ids)
	}
}

func testTeamLimits(t *testing.T, a adapter.Adapter, s teamStore) {
	f := makeOrg(t, a, s, "acme")
	g := makeOrg(t, a, s, "globex")
	for i := range 2 {
		tm := organization.Team{ID: fmt.Sprint("t", i), OrganizationID: f.org.ID, Name: fmt.Sprint("Team ", i), CreatedAt: now}
		if err := s.CreateTeam(ctx(t), tm, 2); err != nil {
			t.Fatal(err)
		}
	}
	third := organization.Team{ID: "t2", OrganizationID: f.org.ID, Name: "Team 2", CreatedAt: now}
	wantErr(t, "a third team with a limit of 2", s.CreateTeam(ctx(t), third, 2), organization.ErrLimit)
	if list, _ := s.Teams(ctx(t), f.org.ID); len(list) != 2 {
		t.Errorf("teams after the refusal: %v", list)
	}
	// The limit is per organization.
	makeTeam(t, s, g.org.ID, "Team 0")

	bob := join(t, a, s, f.org.ID, "bob@example.com", organization.Member)
	carol := join(t, a, s, f.org.ID, "carol@example.com", organization.Member)
	if err := s.AddTeamMember(ctx(t), f.org.ID, "t0", bob, 1, now); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "a second member with a limit of 1", s.AddTeamMember(ctx(t), f.org.ID, "t0", carol, 1, now), organization.ErrLimit)
	if err := s.AddTeamMember(ctx(t), f.org.ID, "t1", carol, 1, now); err != nil {
		t.Errorf("the limit is per team: %v", err)
	}
}

// testRaceTeamLimit: teamRacers creations of teams at once, in an
// organization that may have 5; 5 succeed.
func testRaceTeamLimit(t *testing.T, a adapter.Adapter, s teamStore) {
	const max = 5
	f := makeOrg(t, a, s, "acme")
	warm(t, s, f.org.ID)
	errs := raceN(teamRacers, func(i int) error {
		return s.CreateTeam(ctx(t), organization.Team{ID: fmt.Sprint("t", i), OrganizationID: f.org.ID, Name: fmt.Sprint("Team ", i), CreatedAt: now}, max)
	})
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, organization.ErrLimit):
			t.Errorf("CreateTeam: %v", err)
		}
	}
	list, err := s.Teams(ctx(t), f.org.ID)
	if err != nil || ok != max || len(list) != max {
		t.Errorf("%d of %d concurrent creations succeeded and %d teams are stored (%v), want %d", ok, teamRacers, len(list), err, max)
	}
}

// testRaceTeamMemberLimit: Racers members added to one team at once, a
// team that may have 3; 3 are in it.
func testRaceTeamMemberLimit(t *testing.T, a adapter.Adapter, s teamStore) {
	const max = 3
	f := makeOrg(t, a, s, "acme")
	team := makeTeam(t, s, f.org.ID, "Engineering")
	users := make([]string, Racers)
	for i := range users {
		users[i] = join(t, a, s, f.org.ID, fmt.Sprintf("u%d@example.com", i), organization.Member)
	}
	warm(t, s, f.org.ID)
	errs := race(func(i int) error { return s.AddTeamMember(ctx(t), f.org.ID, team.ID, users[i], max, now) })
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, organization.ErrLimit):
			t.Errorf("AddTeamMember: %v", err)
		}
	}
	if ids := teamMemberIDs(t, s, f.org.ID, team.ID); ok != max || len(ids) != max {
		t.Errorf("%d of %d concurrent additions succeeded and the team has %d members, want %d", ok, Racers, len(ids), max)
	}
}

// warm reads from the store in teamRacers goroutines at once, so that a
// store with a pool of connections has opened them before a race:
// otherwise the racers may wait for one connection after another and
// never run at once.
func warm(t *testing.T, s teamStore, orgID string) {
	for _, err := range raceN(teamRacers, func(int) error { _, err := s.Teams(ctx(t), orgID); return err }) {
		if err != nil {
			t.Fatal(err)
		}
	}
}
