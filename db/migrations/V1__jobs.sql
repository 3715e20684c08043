-- Jobs, their state history and their logs. PostgreSQL is the only source of truth: every state change
-- updates `jobs` and appends to `job_events` in one transaction.

create table jobs (
    id                  uuid primary key,
    job_name            text        not null,
    state               text        not null,
    backend             text        not null,
    priority            integer     not null default 0,
    labels              jsonb       not null default '{}'::jsonb,
    task_config         text        not null,
    resource_config     text        not null,
    task_config_source  text,
    resource_config_source text,
    require_gpus        boolean     not null default false,
    slots               integer     not null,
    timeout_seconds     bigint      not null,
    attempt             integer     not null default 1,
    failure_cause       text,
    failure_message     text,
    exit_code           integer,
    idempotency_key     text unique,
    request_hash        text,
    -- Where the current attempt runs and how to find its processes again after a restart.
    node_id             text,
    placement           jsonb,
    run_state           jsonb,
    created_at          timestamptz not null,
    queued_at           timestamptz not null,
    started_at          timestamptz,
    finished_at         timestamptz,
    updated_at          timestamptz not null,
    version             bigint      not null default 0,
    constraint jobs_state_check check (state in
        ('QUEUED', 'STARTING', 'RUNNING', 'CANCELLING', 'SUCCEEDED', 'FAILED', 'CANCELLED'))
);

-- Listing is newest first with a (created_at, id) cursor.
create index jobs_created_idx on jobs (created_at desc, id desc);
create index jobs_name_idx on jobs (job_name text_pattern_ops);
create index jobs_labels_idx on jobs using gin (labels);
-- The dispatcher's claim query scans only queued jobs, highest priority and oldest first.
create index jobs_queue_idx on jobs (backend, priority desc, queued_at) where state = 'QUEUED';
create index jobs_node_active_idx on jobs (node_id) where state in ('STARTING', 'RUNNING', 'CANCELLING');

create table job_events (
    id          bigserial primary key,
    job_id      uuid        not null references jobs (id) on delete cascade,
    attempt     integer     not null,
    from_state  text,
    to_state    text        not null,
    cause       text,
    message     text,
    at          timestamptz not null
);
create index job_events_job_idx on job_events (job_id, id);

-- Log lines are stored in chunks: one row per flush of up to a few thousand lines, because a row per
-- line cannot keep up with a trainer printing 100k lines/s. Sequence numbers are per job, across attempts.
create table log_chunks (
    job_id      uuid        not null references jobs (id) on delete cascade,
    first_seq   bigint      not null,
    last_seq    bigint      not null,
    attempt     integer     not null,
    line_count  integer     not null,
    lines       text        not null,
    primary key (job_id, first_seq)
);
create index log_chunks_last_seq_idx on log_chunks (job_id, last_seq);

-- How far each log file of a run has been read into log_chunks; written with each chunk, so a restarted
-- server resumes reading a still-running trainer's output without losing or repeating a line.
create table log_read_positions (
    job_id      uuid    not null references jobs (id) on delete cascade,
    attempt     integer not null,
    source      text    not null,
    byte_offset bigint  not null,
    primary key (job_id, attempt, source)
);
