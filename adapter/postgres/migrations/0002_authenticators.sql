-- Gatehouse schema, version 2 (PostgreSQL): WebAuthn credentials (passkeys).

CREATE TABLE gatehouse_authenticators (
	credential_id          text NOT NULL PRIMARY KEY,  -- base64url, no padding
	user_id                text NOT NULL REFERENCES gatehouse_users (id) ON DELETE CASCADE,
	provider_account_id    text NOT NULL,
	credential_public_key  bytea NOT NULL,             -- COSE key
	counter                bigint NOT NULL DEFAULT 0 CHECK (counter BETWEEN 0 AND 4294967295),
	credential_device_type text NOT NULL,              -- singleDevice or multiDevice
	credential_backed_up   boolean NOT NULL DEFAULT false,
	transports             text NOT NULL DEFAULT ''    -- comma-joined
);

CREATE INDEX gatehouse_authenticators_user_id ON gatehouse_authenticators (user_id);
