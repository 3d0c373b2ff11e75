"""The town: map data, the area tree, objects and their states, pathfinding, scenarios."""
