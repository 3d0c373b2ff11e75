"""mind layer."""
