"""The server's routes by resource, each an ``APIRouter`` that ``create_app`` includes."""
