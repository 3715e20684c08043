-- The single sign-ins under way, by their OAuth 2.0 state: in the database, so that the provider's redirect back may
-- reach any replica (each replica kept its own in memory, and a callback that reached another one failed). The row
-- holds Spring Security's authorization request (the PKCE verifier among it), serialized; the server forgets a
-- sign-in 10 minutes after it started.
create table sso_sign_ins (
    state text primary key,
    request bytea not null,
    started_at timestamptz not null default now()
);
create index sso_sign_ins_started_idx on sso_sign_ins (started_at);
