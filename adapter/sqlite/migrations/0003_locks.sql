-- Gatehouse schema, version 3 (SQLite): account locks (adapter.AccountLocker).
-- A row is a lock held until expires (Unix milliseconds), so that a
-- process that died holding one does not hold it for ever.

CREATE TABLE gatehouse_locks (
	key     TEXT    NOT NULL PRIMARY KEY,
	owner   TEXT    NOT NULL, -- random per holder: only the holder releases
	expires INTEGER NOT NULL
);
