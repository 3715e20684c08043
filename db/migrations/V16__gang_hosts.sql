-- Jobs of the local pool that span several agents (a gang). The job row's node_id is the first host's, where
-- rank 0 runs; the others are in its placement (moreHosts). Once a host's agent reports its processes started,
-- the host has a row here: the processes (run_state, for a restarted agent to re-attach), on the first host the
-- address the world meets at (the other hosts are started only once it is known), and whether the host's
-- processes all exited 0. The gang succeeds when every host did; the first host to end otherwise ends it.
create table gang_hosts (
    job_id      uuid    not null references jobs (id) on delete cascade,
    attempt     integer not null,
    -- 0: the first host (the job's node_id), then the placement's moreHosts in order
    host        integer not null,
    node_id     text    not null,
    run_state   text    not null,
    rendezvous  text,
    succeeded   boolean not null default false,
    primary key (job_id, attempt, host)
);

-- Every host of a gang ships its own numbered batches: the last one stored is kept per host.
alter table log_shipments add column host integer not null default 0;
alter table log_shipments drop constraint log_shipments_pkey, add primary key (job_id, attempt, host);
alter table metric_shipments add column host integer not null default 0;
alter table metric_shipments drop constraint metric_shipments_pkey, add primary key (job_id, attempt, host);
alter table system_metric_shipments add column host integer not null default 0;
alter table system_metric_shipments drop constraint system_metric_shipments_pkey, add primary key (job_id, attempt, host);

-- Placements on the pool list the other hosts a job runs on, none until now.
update jobs set placement = placement || '{"moreHosts": []}'::jsonb where placement ->> 'kind' = 'agent';
