"""The site's features around the live tables: accounts, ratings, quick play, rematches,
tournaments, player pages and analyses.  Each uses the live tables (server/live/) and the
store; the live tables never call them."""
