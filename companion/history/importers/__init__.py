"""A group's past plays from elsewhere (issue 29, API.md "Moving a group's history in and out"):
BG Stats' export or backup (or one shared .bgsplay) and BoardGameGeek's plays XML.

The files' readers (bgstats_file, bgg_file) are pure: bytes in, plays (records.py) and warnings
out, or ImportRefused naming where the file is wrong. The writer (writer.py) matches the names to
the group's players and writes every play in one transaction."""
