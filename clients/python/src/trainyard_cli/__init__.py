"""The `trainyard` command line, on top of the generated client (trainyard_client)."""
