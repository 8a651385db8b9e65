-- Gatehouse schema, version 7 (PostgreSQL): what the admin routes keep of
-- a user (admin.Store): the global role, the ban, and the time before
-- which every session of the user was revoked.

CREATE TABLE gatehouse_admin (
	user_id         text        NOT NULL PRIMARY KEY REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	role            text        NOT NULL DEFAULT 'user',
	banned_at       timestamptz,               -- NULL when not banned
	ban_reason      text        NOT NULL DEFAULT '',
	ban_show_reason integer     NOT NULL DEFAULT 0, -- 0 or 1
	ban_expires     timestamptz,               -- NULL: the ban never lifts
	banned_by       text        NOT NULL DEFAULT '',
	revoked_before  timestamptz                -- NULL: never revoked
);

CREATE INDEX gatehouse_admin_role ON gatehouse_admin (role);
