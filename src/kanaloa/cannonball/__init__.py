"""Cannonball Colony (R20): a second game on the engine, on a square grid of tiles, with roads, forts and
cannons and nothing hidden.  Its own package holds its island, its rules and everything the other layers
reach through the game registry."""
