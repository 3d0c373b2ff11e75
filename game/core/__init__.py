"""The bottom layer: game time, errors, settings and paths; imports nothing of ours."""
