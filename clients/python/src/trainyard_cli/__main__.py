"""`python -m trainyard_cli`, the same as the `trainyard` console script."""

from trainyard_cli.app import main

main()
