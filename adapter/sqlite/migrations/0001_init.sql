-- Gatehouse schema, version 1 (SQLite).
-- Times are INTEGER microseconds since the Unix epoch, UTC.
-- Foreign keys need PRAGMA foreign_keys = ON on every connection (Open sets it).

CREATE TABLE gatehouse_users (
	id             TEXT NOT NULL PRIMARY KEY,
	name           TEXT NOT NULL DEFAULT '',
	email          TEXT UNIQUE,            -- NULL when the user has no address
	email_verified INTEGER,                -- NULL when never verified
	image          TEXT NOT NULL DEFAULT ''
);

CREATE TABLE gatehouse_accounts (
	provider            TEXT NOT NULL,
	provider_account_id TEXT NOT NULL,
	user_id             TEXT NOT NULL REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	type                TEXT NOT NULL,
	access_token        TEXT NOT NULL DEFAULT '',
	id_token            TEXT NOT NULL DEFAULT '',
	refresh_token       TEXT NOT NULL DEFAULT '',
	expires_at          INTEGER NOT NULL DEFAULT 0,  -- seconds since the epoch
	expires_in          INTEGER NOT NULL DEFAULT 0,  -- seconds
	scope               TEXT NOT NULL DEFAULT '',
	token_type          TEXT NOT NULL DEFAULT '',
	session_state       TEXT NOT NULL DEFAULT '',
	extra               TEXT,                        -- JSON object, NULL when empty
	PRIMARY KEY (provider, provider_account_id)
);

CREATE INDEX gatehouse_accounts_user_id ON gatehouse_accounts (user_id);

CREATE TABLE gatehouse_sessions (
	token   TEXT NOT NULL PRIMARY KEY,
	user_id TEXT NOT NULL REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	expires INTEGER NOT NULL
);

CREATE INDEX gatehouse_sessions_user_id ON gatehouse_sessions (user_id);

CREATE TABLE gatehouse_verification_tokens (
	identifier TEXT NOT NULL,
	token_hash TEXT NOT NULL,
	expires    INTEGER NOT NULL,
	PRIMARY KEY (identifier, token_hash)
);
