-- The hosts a submission asked its workers to be spread over (its `nodes`); 0 where it asked for none and the
-- backend decides (one host on the local pool, `tasks-per-node` on Slurm).
alter table jobs add column nodes integer not null default 0;
