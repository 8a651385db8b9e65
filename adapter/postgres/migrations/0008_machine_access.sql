-- Gatehouse schema, version 8 (PostgreSQL): API keys (apikey.Store) and
-- the signing keys of service tokens (servicetoken.KeyStore).

-- An API key: its public id, and the SHA-256 of its secret (never the
-- secret). previous_hash is the secret before the last rotation, accepted
-- until previous_until. permissions are resource:action statements,
-- space-separated.
CREATE TABLE gatehouse_api_keys (
	id              text        NOT NULL PRIMARY KEY,
	name            text        NOT NULL,
	user_id         text        NOT NULL REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	organization_id text        NOT NULL DEFAULT '',
	permissions     text        NOT NULL DEFAULT '',
	hash            text        NOT NULL,
	previous_hash   text        NOT NULL DEFAULT '',
	previous_until  timestamptz,
	expires         timestamptz,
	created_at      timestamptz NOT NULL,
	last_used_at    timestamptz,
	revoked_at      timestamptz
);
CREATE INDEX gatehouse_api_keys_user_id ON gatehouse_api_keys (user_id);

-- The keys that sign service tokens, one per generation (the primary key
-- makes two instances that add the next generation at once add one). The
-- private key is sealed with the app's secret; public_jwk is published.
CREATE TABLE gatehouse_signing_keys (
	generation bigint      NOT NULL PRIMARY KEY,
	kid        text        NOT NULL UNIQUE,
	algorithm  text        NOT NULL,
	sealed     text        NOT NULL,
	public_jwk text        NOT NULL,
	not_before timestamptz NOT NULL,
	created_at timestamptz NOT NULL
);
