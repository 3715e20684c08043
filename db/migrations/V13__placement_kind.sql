-- Placements gain their type tag, `kind` (see io.trainyard.job.Placement): until now Jackson told the two
-- shapes apart by their fields, which clients generated from the OpenAPI contract cannot do reliably.
update jobs set placement = placement || '{"kind": "agent"}'::jsonb where placement ? 'node';
update jobs set placement = placement || '{"kind": "vertexAi"}'::jsonb where placement ? 'region';
