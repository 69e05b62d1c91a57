"""After a recovery (failover, point-in-time restore): what players were told, kept outside the
database (``journal``), and what the restored database lost of it (``after_restore``)."""
