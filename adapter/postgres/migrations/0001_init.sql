-- Gatehouse schema, version 1 (PostgreSQL).
-- Tables are created in the first schema of the search_path.

CREATE TABLE gatehouse_users (
	id             text NOT NULL PRIMARY KEY,
	name           text NOT NULL DEFAULT '',
	email          text UNIQUE,            -- NULL when the user has no address
	email_verified timestamptz,            -- NULL when never verified
	image          text NOT NULL DEFAULT ''
);

CREATE TABLE gatehouse_accounts (
	provider            text NOT NULL,
	provider_account_id text NOT NULL,
	user_id             text NOT NULL REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	type                text NOT NULL,
	access_token        text NOT NULL DEFAULT '',
	id_token            text NOT NULL DEFAULT '',
	refresh_token       text NOT NULL DEFAULT '',
	expires_at          bigint NOT NULL DEFAULT 0,  -- seconds since the epoch
	expires_in          bigint NOT NULL DEFAULT 0,  -- seconds
	scope               text NOT NULL DEFAULT '',
	token_type          text NOT NULL DEFAULT '',
	session_state       text NOT NULL DEFAULT '',
	extra               jsonb,                      -- NULL when empty
	PRIMARY KEY (provider, provider_account_id)
);

CREATE INDEX gatehouse_accounts_user_id ON gatehouse_accounts (user_id);

CREATE TABLE gatehouse_sessions (
	token   text NOT NULL PRIMARY KEY,
	user_id text NOT NULL REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	expires timestamptz NOT NULL
);

CREATE INDEX gatehouse_sessions_user_id ON gatehouse_sessions (user_id);

CREATE TABLE gatehouse_verification_tokens (
	identifier text NOT NULL,
	token_hash text NOT NULL,
	expires    timestamptz NOT NULL,
	PRIMARY KEY (identifier, token_hash)
);
