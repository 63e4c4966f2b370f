"""A server a club runs for itself (issue 41): its first account from the environment, its
migrations one server at a time, its backups, and the host settings of its container."""
