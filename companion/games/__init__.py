"""Pure rules engines, one per game. Nothing here may import Django (a test checks)."""
