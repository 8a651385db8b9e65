-- Gatehouse schema, version 7 (SQLite): organizations, their members
-- and custom roles, invitations, and database sessions' active
-- organization (organization.Store).

CREATE TABLE gatehouse_organizations (
	id         TEXT        NOT NULL PRIMARY KEY,
	name       TEXT        NOT NULL,
	slug       TEXT        NOT NULL UNIQUE,
	created_at INTEGER NOT NULL
);

-- One membership per (organization, user); deleting either deletes it.
CREATE TABLE gatehouse_members (
	organization_id TEXT        NOT NULL REFERENCES gatehouse_organizations (id) ON DELETE CASCADE,
	user_id         TEXT        NOT NULL REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	role            TEXT        NOT NULL,
	created_at      INTEGER NOT NULL,
	PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX gatehouse_members_user_id ON gatehouse_members (user_id);

-- Pending invitations: the SHA-256 of the token, never the token. The
-- inviter is kept as an id only: deleting them leaves the invitation.
CREATE TABLE gatehouse_invitations (
	id              TEXT        NOT NULL PRIMARY KEY,
	organization_id TEXT        NOT NULL REFERENCES gatehouse_organizations (id) ON DELETE CASCADE,
	email           TEXT        NOT NULL,
	role            TEXT        NOT NULL,
	inviter_id      TEXT        NOT NULL,
	token_hash      TEXT        NOT NULL UNIQUE,
	expires         INTEGER NOT NULL,
	created_at      INTEGER NOT NULL
);
CREATE INDEX gatehouse_invitations_organization_id ON gatehouse_invitations (organization_id);

-- Roles an organization defined at runtime; permissions are its
-- statements, space-separated.
CREATE TABLE gatehouse_organization_roles (
	organization_id TEXT NOT NULL REFERENCES gatehouse_organizations (id) ON DELETE CASCADE,
	name            TEXT NOT NULL,
	permissions     TEXT NOT NULL,
	PRIMARY KEY (organization_id, name)
);

-- The organization a database session works in, by the session's token
-- hash. It references the membership: removing the member (or deleting
-- the organization or the user) clears it.
CREATE TABLE gatehouse_active_organizations (
	session_key     TEXT        NOT NULL PRIMARY KEY,
	organization_id TEXT        NOT NULL,
	user_id         TEXT        NOT NULL,
	expires         INTEGER NOT NULL,
	FOREIGN KEY (organization_id, user_id) REFERENCES gatehouse_members (organization_id, user_id) ON DELETE CASCADE
);
CREATE INDEX gatehouse_active_organizations_member ON gatehouse_active_organizations (organization_id, user_id);
