-- Every job has its typed configs now (V6 added them, V7 read the older jobs' text).
alter table jobs alter column task set not null;
alter table jobs alter column resource set not null;
