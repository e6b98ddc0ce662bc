"""Tabletown: play and study city-building board games over one engine contract."""

__version__ = "0.1.0"
