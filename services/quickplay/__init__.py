"""Quick play: a seat at a fair table in seconds (docs/quickplay.md)."""
