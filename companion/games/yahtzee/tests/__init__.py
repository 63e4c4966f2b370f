"""The game's rules tests, collected by pytest from its folder."""
