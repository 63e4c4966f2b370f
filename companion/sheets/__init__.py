"""Sheets as data (issue 44): a game's score sheet is a JSON file, checked against a JSON Schema
(score-sheet.schema.json) and the pad's own rules when it is read, and played on the score pad.
No Django here: the views and the API read it through library.py."""
