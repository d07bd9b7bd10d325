"""One module per `physr3` command: arguments and a thin call into the library (see physr3.cli)."""
