"""The HTTP and WebSocket routes: one FastAPI router per subject, with the request and
response bodies (models.py); ``create_app`` (server/app.py) includes them."""
