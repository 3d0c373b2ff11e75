"""brains layer."""
