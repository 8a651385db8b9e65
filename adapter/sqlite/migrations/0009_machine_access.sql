-- Gatehouse schema, version 9 (SQLite): API keys (apikey.Store) and
-- the signing keys of service tokens (servicetoken.KeyStore).

-- An API key: its public id, and the SHA-256 of its secret (never the
-- secret). previous_hash is the secret before the last rotation, accepted
-- until previous_until. permissions are resource:action statements,
-- space-separated.
CREATE TABLE gatehouse_api_keys (
	id              TEXT        NOT NULL PRIMARY KEY,
	name            TEXT        NOT NULL,
	user_id         TEXT        NOT NULL REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	organization_id TEXT        NOT NULL DEFAULT '',
	permissions     TEXT        NOT NULL DEFAULT '',
	hash            TEXT        NOT NULL,
	previous_hash   TEXT        NOT NULL DEFAULT '',
	previous_until  INTEGER,
	expires         INTEGER,
	created_at      INTEGER NOT NULL,
	last_used_at    INTEGER,
	revoked_at      INTEGER
);
CREATE INDEX gatehouse_api_keys_user_id ON gatehouse_api_keys (user_id);

-- The keys that sign service tokens, one per generation (the primary key
-- makes two instances that add the next generation at once add one). The
-- private key is sealed with the app's secret; public_jwk is published.
CREATE TABLE gatehouse_signing_keys (
	generation INTEGER     NOT NULL PRIMARY KEY,
	kid        TEXT        NOT NULL UNIQUE,
	algorithm  TEXT        NOT NULL,
	sealed     TEXT        NOT NULL,
	public_jwk TEXT        NOT NULL,
	not_before INTEGER NOT NULL,
	created_at INTEGER NOT NULL
);
