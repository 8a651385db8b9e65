-- Gatehouse schema, version 2 (SQLite): WebAuthn credentials (passkeys).

CREATE TABLE gatehouse_authenticators (
	credential_id          TEXT NOT NULL PRIMARY KEY,  -- base64url, no padding
	user_id                TEXT NOT NULL REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	provider_account_id    TEXT NOT NULL,
	credential_public_key  BLOB NOT NULL,              -- COSE key
	counter                INTEGER NOT NULL DEFAULT 0, -- 0 to 2^32-1
	credential_device_type TEXT NOT NULL,              -- singleDevice or multiDevice
	credential_backed_up   INTEGER NOT NULL DEFAULT 0, -- 0 or 1
	transports             TEXT NOT NULL DEFAULT ''    -- comma-joined
);

CREATE INDEX gatehouse_authenticators_user_id ON gatehouse_authenticators (user_id);
