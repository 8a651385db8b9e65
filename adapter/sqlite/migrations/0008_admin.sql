-- Gatehouse schema, version 8 (SQLite): what the admin routes keep of a
-- user (admin.Store): the global role, the ban, and the time before which
-- every session of the user was revoked. Times are microseconds since the
-- epoch.

CREATE TABLE gatehouse_admin (
	user_id         TEXT    NOT NULL PRIMARY KEY REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	role            TEXT    NOT NULL DEFAULT 'user',
	banned_at       INTEGER,                   -- NULL when not banned
	ban_reason      TEXT    NOT NULL DEFAULT '',
	ban_show_reason INTEGER NOT NULL DEFAULT 0, -- 0 or 1
	ban_expires     INTEGER,                   -- NULL: the ban never lifts
	banned_by       TEXT    NOT NULL DEFAULT '',
	revoked_before  INTEGER                    -- NULL: never revoked
);

CREATE INDEX gatehouse_admin_role ON gatehouse_admin (role);
