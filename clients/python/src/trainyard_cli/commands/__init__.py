"""The command line's commands, one module per resource: jobs, logs, the cluster (agents, versions)."""
