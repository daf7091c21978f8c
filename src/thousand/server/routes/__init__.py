"""The HTTP and WebSocket routes, every one in a FastAPI router of its subject: the pages
(shells.py), the tables (tables.py), the games (games.py), the table's WebSocket
(socket.py), the words (catalog.py), operations (operations.py), the players (accounts.py,
players.py), quick play and ratings (play.py), tournaments, analyses and exercises; the
request and response bodies are models.py's.  ``create_app`` (server/app.py) includes
them; a route finds the hub, the cluster and the limiter in ``app.state`` (``hub_of``,
``cluster_of``, ``limiter_of``)."""
