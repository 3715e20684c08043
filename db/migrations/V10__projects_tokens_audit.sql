-- Who may do what. Every job belongs to a project; users hold a role per project (viewer, editor, admin) or
-- are global admins. API tokens identify users, agent tokens identify agents (each valid for one agent id);
-- both are stored only as SHA-256 hashes of the random secret, which is shown once. Every change is audited.
create table users (
    name            text        primary key,
    global_admin    boolean     not null default false,
    created_at      timestamptz not null
);

create table projects (
    name                text        primary key,
    description         text        not null default '',
    -- Whether submissions may name gs:// configs, read with the server's own credentials.
    allow_gcs_configs   boolean     not null default false,
    created_at          timestamptz not null
);

create table project_members (
    project     text not null references projects (name) on delete cascade,
    user_name   text not null references users (name) on delete cascade,
    role        text not null,
    primary key (project, user_name),
    constraint project_members_role_check check (role in ('VIEWER', 'EDITOR', 'ADMIN'))
);
create index project_members_user_idx on project_members (user_name);

create table api_tokens (
    id              uuid        primary key,
    name            text        not null,
    token_hash      text        not null unique,
    -- Exactly one of the two: the user the token acts for, or the agent it identifies.
    owner           text        references users (name) on delete cascade,
    agent_id        text,
    created_by      text        not null,
    created_at      timestamptz not null,
    expires_at      timestamptz,
    last_used_at    timestamptz,
    revoked_at      timestamptz,
    constraint api_tokens_subject_check check ((owner is null) <> (agent_id is null))
);
create index api_tokens_owner_idx on api_tokens (owner);

create table audit_events (
    id              bigserial   primary key,
    at              timestamptz not null,
    actor           text        not null,
    action          text        not null,
    target          text,
    source_address  text,
    outcome         text        not null,
    detail          text
);
create index audit_events_at_idx on audit_events (at desc, id desc);
create index audit_events_actor_idx on audit_events (actor, at desc);

-- Jobs stored before projects existed belong to the default project.
insert into projects (name, description, created_at) values ('default', 'the project of jobs that name none', now());
alter table jobs add column project text not null default 'default' references projects (name);
create index jobs_project_created_idx on jobs (project, created_at desc, id desc);
-- Who submitted a job (a user's name; null for jobs stored before this version).
alter table jobs add column submitted_by text;
-- An Idempotency-Key is the submitter's own: two users choosing the same key get two jobs, and neither sees
-- the other's.
alter table jobs drop constraint jobs_idempotency_key_key;
create unique index jobs_submitter_idempotency_key_idx on jobs (submitted_by, idempotency_key);
