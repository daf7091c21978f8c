"""How a server process runs and is watched: its worker id, log lines, metrics, health
checks and garbage collector."""
