-- Hosts that run jobs. Today each server registers its own host (its in-process agent); agents on other
-- hosts use the same rows. An agent holds a lease it renews by heartbeat; each registration starts a new
-- epoch, so a stale agent process can be told apart from its successor.
create table agents (
    id                  text        primary key,
    host                text        not null,
    gpus                jsonb       not null default '[]'::jsonb,
    cpu_slots           integer     not null,
    epoch               bigint      not null,
    state               text        not null,
    registered_at       timestamptz not null,
    last_heartbeat_at   timestamptz not null,
    lease_expires_at    timestamptz not null,
    constraint agents_state_check check (state in ('ACTIVE', 'LOST'))
);
create index agents_lease_idx on agents (lease_expires_at) where state = 'ACTIVE';

-- Retry policy: failures of the infrastructure (a lost host, a lost run) start a new attempt after an
-- exponential backoff, up to max_attempts attempts in all.
alter table jobs add column max_attempts integer not null default 1;
alter table jobs add column retry_backoff_seconds integer not null default 30;
alter table jobs add column not_before timestamptz;
