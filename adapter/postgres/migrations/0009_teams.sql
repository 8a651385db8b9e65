-- Gatehouse schema, version 9 (PostgreSQL): teams inside organizations
-- and their members (organization.TeamStore).

-- A team's name is unique in its organization. (id, organization_id) is
-- unique too, for gatehouse_team_members to reference both.
CREATE TABLE gatehouse_teams (
	id              text        NOT NULL PRIMARY KEY,
	organization_id text        NOT NULL REFERENCES gatehouse_organizations (id) ON DELETE CASCADE,
	name            text        NOT NULL,
	created_at      timestamptz NOT NULL,
	UNIQUE (organization_id, name),
	UNIQUE (id, organization_id)
);

-- One row per (team, user). It references the team and the membership of
-- the team's organization: deleting the team, removing the member (or
-- deleting the user or the organization) deletes it, and nobody outside
-- the organization can be in its team.
CREATE TABLE gatehouse_team_members (
	team_id         text        NOT NULL,
	organization_id text        NOT NULL,
	user_id         text        NOT NULL,
	created_at      timestamptz NOT NULL,
	PRIMARY KEY (team_id, user_id),
	FOREIGN KEY (team_id, organization_id) REFERENCES gatehouse_teams (id, organization_id) ON DELETE CASCADE,
	FOREIGN KEY (organization_id, user_id) REFERENCES gatehouse_members (organization_id, user_id) ON DELETE CASCADE
);
CREATE INDEX gatehouse_team_members_member ON gatehouse_team_members (organization_id, user_id);
