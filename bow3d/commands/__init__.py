"""One module per `bow3d` subcommand (see bow3d.cli): NAME, HELP, add_arguments, run."""
