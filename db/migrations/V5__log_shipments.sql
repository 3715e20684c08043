-- Agents ship a run's log in numbered batches and resend a batch until it is acknowledged. The number of
-- the last batch stored for an attempt is kept here, written in the transaction that stores the batch, so
-- a resent batch is acknowledged without being stored twice, also after a restart of either side.
create table log_shipments (
    job_id      uuid    not null references jobs (id) on delete cascade,
    attempt     integer not null,
    last_batch  bigint  not null,
    primary key (job_id, attempt)
);
