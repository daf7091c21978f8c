"""The public site's own logic that needs neither a database nor the web: ratings
(:mod:`thousand.site.ratings`) and, through them, the tournaments of
:mod:`thousand.evaluation.tournament`.

A package apart from :mod:`thousand.server` on purpose: importing the server package
builds on FastAPI and SQLAlchemy, and a rating (or a bot ladder on the command line) needs
neither.  Nothing is imported here, so ``import thousand.site.ratings`` costs only openskill.
"""
