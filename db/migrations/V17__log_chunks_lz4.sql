-- PostgreSQL compresses a log chunk's text as it stores it, inside the transaction that holds the job's row lock, so
-- every batch of a job waits for it: with pglz, a third of PostgreSQL's CPU while a job printed a burst (perf). lz4
-- compresses several times faster for a similar size. A server built without lz4 (the embedded one) keeps pglz.
-- Only chunks stored from now on are affected; older ones stay as they are, and both read alike.
do $$
begin
    alter table log_chunks alter column lines set compression lz4;
exception when feature_not_supported then
    raise notice 'this PostgreSQL was built without lz4: log chunks stay compressed with pglz';
end
$$;
