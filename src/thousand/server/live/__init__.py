"""The live tables: the hub that holds them, each table's game, its connections and
clocks, the bots' pool that plays and hints for them, and the reaper of abandoned ones.
The live tables know nothing of the site's features (server/features/): they announce
what happened and the features listen."""
