-- Gatehouse schema, version 4 (SQLite): the provider a session was created
-- through and that provider's session id (the ID token's sid), so that
-- back-channel logout ends exactly the sessions a logout token names
-- (OpenID Connect Back-Channel Logout 1.0 §2.4).

ALTER TABLE gatehouse_sessions ADD COLUMN provider TEXT NOT NULL DEFAULT '';
ALTER TABLE gatehouse_sessions ADD COLUMN sid TEXT NOT NULL DEFAULT '';

CREATE INDEX gatehouse_sessions_provider_sid ON gatehouse_sessions (provider, sid);
