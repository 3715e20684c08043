-- System metrics of jobs (GPU utilisation, memory, power, temperature per GPU; CPU, memory and I/O per worker),
-- sampled by the agent every few seconds and stored like TensorBoard scalars (see metric_chunks): one row per
-- series of each shipped batch, its points packed. A series' step is milliseconds since the attempt started.
create table system_metric_chunks (like metric_chunks);
alter table system_metric_chunks add primary key (id);
alter table system_metric_chunks add foreign key (job_id) references jobs (id) on delete cascade;
create sequence system_metric_chunks_id_seq owned by system_metric_chunks.id;
alter table system_metric_chunks alter column id set default nextval('system_metric_chunks_id_seq');
create index system_metric_chunks_series_idx on system_metric_chunks (job_id, tag, attempt, id);
create index system_metric_chunks_follow_idx on system_metric_chunks (job_id, id);

-- The last batch of samples stored per attempt (see metric_shipments); an agent numbers its batches by the time
-- it made them, so a restarted agent's batches follow its predecessor's without being told where they stopped.
create table system_metric_shipments (
    job_id      uuid    not null references jobs (id) on delete cascade,
    attempt     integer not null,
    last_batch  bigint  not null,
    primary key (job_id, attempt)
);

-- The sum and count of a chunk's values (NaN left out), so a series' mean needs no unpacking: the job page's
-- "GPU 7 % avg". Null in chunks stored before this column existed; a mean then covers the later chunks.
alter table metric_chunks add column value_sum double precision;
alter table metric_chunks add column value_count integer;
alter table system_metric_chunks add column value_sum double precision;
alter table system_metric_chunks add column value_count integer;

-- Each GPU's last sample as the agent's heartbeat reported it: the Pool page's live utilisation, Prometheus'
-- per-host gauges. Null until an agent that samples its GPUs heartbeats.
alter table agents add column gpu_samples jsonb;
alter table agents add column gpu_sampled_at timestamptz;
