"""One module per ``tablecam`` subcommand (see ``tablecam.cli``)."""
