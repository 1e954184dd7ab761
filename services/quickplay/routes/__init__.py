"""The quick-play routes."""
