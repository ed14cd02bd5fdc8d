"""The web table: play in the browser, alone against computers or with friends.

``boneyard serve`` runs :func:`boneyard.web.app.create_app` with uvicorn; ``boneyard play
VARIANT --web`` starts a server, creates the game and opens the browser.  The modules need the
``web`` extra (FastAPI, uvicorn, SQLAlchemy) and are imported only when used.
"""
