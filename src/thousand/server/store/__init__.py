"""The server's lasting store in any SQL database: the tables of games (tables.py), the
players and their sessions (accounts.py), the site's ratings (ratings.py) and the
analyses (analyses.py)."""
