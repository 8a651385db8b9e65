-- Gatehouse schema, version 6 (PostgreSQL): organizations, their members
-- and custom roles, invitations, and database sessions' active
-- organization (organization.Store).

CREATE TABLE gatehouse_organizations (
	id         text        NOT NULL PRIMARY KEY,
	name       text        NOT NULL,
	slug       text        NOT NULL UNIQUE,
	created_at timestamptz NOT NULL
);

-- One membership per (organization, user); deleting either deletes it.
CREATE TABLE gatehouse_members (
	organization_id text        NOT NULL REFERENCES gatehouse_organizations (id) ON DELETE CASCADE,
	user_id         text        NOT NULL REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	role            text        NOT NULL,
	created_at      timestamptz NOT NULL,
	PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX gatehouse_members_user_id ON gatehouse_members (user_id);

-- Pending invitations: the SHA-256 of the token, never the token. The
-- inviter is kept as an id only: deleting them leaves the invitation.
CREATE TABLE gatehouse_invitations (
	id              text        NOT NULL PRIMARY KEY,
	organization_id text        NOT NULL REFERENCES gatehouse_organizations (id) ON DELETE CASCADE,
	email           text        NOT NULL,
	role            text        NOT NULL,
	inviter_id      text        NOT NULL,
	token_hash      text        NOT NULL UNIQUE,
	expires         timestamptz NOT NULL,
	created_at      timestamptz NOT NULL
);
CREATE INDEX gatehouse_invitations_organization_id ON gatehouse_invitations (organization_id);

-- Roles an organization defined at runtime; permissions are its
-- statements, space-separated.
CREATE TABLE gatehouse_organization_roles (
	organization_id text NOT NULL REFERENCES gatehouse_organizations (id) ON DELETE CASCADE,
	name            text NOT NULL,
	permissions     text NOT NULL,
	PRIMARY KEY (organization_id, name)
);

-- The organization a database session works in, by the session's token
-- hash. It references the membership: removing the member (or deleting
-- the organization or the user) clears it.
CREATE TABLE gatehouse_active_organizations (
	session_key     text        NOT NULL PRIMARY KEY,
	organization_id text        NOT NULL,
	user_id         text        NOT NULL,
	expires         timestamptz NOT NULL,
	FOREIGN KEY (organization_id, user_id) REFERENCES gatehouse_members (organization_id, user_id) ON DELETE CASCADE
);
CREATE INDEX gatehouse_active_organizations_member ON gatehouse_active_organizations (organization_id, user_id);
