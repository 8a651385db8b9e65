-- Gatehouse schema, version 6 (SQLite): what the session routes show of a
-- session, password hashes (adapter.PasswordStore) and two-factor secrets
-- (twofactor.Store).

-- When a session was made and last extended, and a coarse description of
-- the browser that made it. Sessions made before this version have NULL
-- times (unknown), which the adapter reads as the zero time.
ALTER TABLE gatehouse_sessions ADD COLUMN created_at INTEGER;
ALTER TABLE gatehouse_sessions ADD COLUMN updated_at INTEGER;
ALTER TABLE gatehouse_sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';

-- One password hash per user: the PHC string of package password.
CREATE TABLE gatehouse_passwords (
	user_id    TEXT    NOT NULL PRIMARY KEY REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	hash       TEXT    NOT NULL,
	updated_at INTEGER NOT NULL
);

-- One two-factor secret per user: the TOTP secret sealed with a key bound
-- to the user (never the secret itself), whether it was confirmed, and the
-- last time step accepted, which AdvanceTOTPStep moves forward only
-- (RFC 6238 §5.2: a code is accepted once).
CREATE TABLE gatehouse_two_factor (
	user_id    TEXT    NOT NULL PRIMARY KEY REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	sealed     TEXT    NOT NULL,
	enabled    INTEGER NOT NULL DEFAULT 0, -- 0 or 1
	last_step  INTEGER NOT NULL DEFAULT 0,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);

-- The keyed hashes of a user's unused backup codes, one row each, so that
-- using one is a single DELETE whose row count says whether it was there.
-- position keeps the order they were given in.
CREATE TABLE gatehouse_two_factor_backup_codes (
	user_id  TEXT    NOT NULL REFERENCES gatehouse_two_factor (user_id) ON DELETE CASCADE,
	hash     TEXT    NOT NULL,
	position INTEGER NOT NULL,
	PRIMARY KEY (user_id, hash)
);
