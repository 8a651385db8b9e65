-- A user has at most one account per provider (the linking rules): kept
-- by the schema, so that concurrent links cannot break it. This fails on
-- a database that already holds two accounts of one user at one
-- provider: unlink one (gatehouse_accounts) and migrate again.
CREATE UNIQUE INDEX gatehouse_accounts_user_provider ON gatehouse_accounts (user_id, provider);
