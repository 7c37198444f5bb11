"""tidings: daily and weekly development reports for fast-moving GitHub repositories."""

__version__ = "0.1.0"
