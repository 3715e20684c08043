-- A job may name its own trainer images (GiGL's --cpu_docker_uri / --cuda_docker_uri); null: the server's.
alter table jobs add column cpu_docker_uri text;
alter table jobs add column cuda_docker_uri text;
