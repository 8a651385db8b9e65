-- Gatehouse schema, version 5 (PostgreSQL): what the session routes show
-- of a session, password hashes (adapter.PasswordStore) and two-factor
-- secrets (twofactor.Store).

-- When a session was made and last extended, and a coarse description of
-- the browser that made it. Sessions made before this version have NULL
-- times (unknown), which the adapter reads as the zero time.
ALTER TABLE gatehouse_sessions
	ADD COLUMN created_at timestamptz,
	ADD COLUMN updated_at timestamptz,
	ADD COLUMN user_agent text NOT NULL DEFAULT '';

-- One password hash per user: the PHC string of package password.
CREATE TABLE gatehouse_passwords (
	user_id    text        NOT NULL PRIMARY KEY REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	hash       text        NOT NULL,
	updated_at timestamptz NOT NULL
);

-- One two-factor secret per user: the TOTP secret sealed with a key bound
-- to the user (never the secret itself), whether it was confirmed, and the
-- last time step accepted, which AdvanceTOTPStep moves forward only
-- (RFC 6238 §5.2: a code is accepted once).
CREATE TABLE gatehouse_two_factor (
	user_id    text        NOT NULL PRIMARY KEY REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	sealed     text        NOT NULL,
	enabled    boolean     NOT NULL DEFAULT false,
	last_step  bigint      NOT NULL DEFAULT 0,
	created_at timestamptz NOT NULL,
	updated_at timestamptz NOT NULL
);

-- The keyed hashes of a user's unused backup codes, one row each, so that
-- using one is a single DELETE whose row count says whether it was there.
-- position keeps the order they were given in.
CREATE TABLE gatehouse_two_factor_backup_codes (
	user_id  text    NOT NULL REFERENCES gatehouse_two_factor (user_id) ON DELETE CASCADE,
	hash     text    NOT NULL,
	position integer NOT NULL,
	PRIMARY KEY (user_id, hash)
);
