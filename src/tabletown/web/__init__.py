"""The browser platform (issue 12): a FastAPI game server built only on the engine contract.

``tabletown.web.app.create_app(db_url)`` builds the application; ``tabletown.web.server.serve``
runs it on uvicorn. See docs/server.md for the protocol.
"""
