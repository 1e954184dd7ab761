"""One module per `atout` subcommand; see `services/cli.py`."""
