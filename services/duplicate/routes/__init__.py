"""The duplicate routes: playing a robot duplicate event, and travellers."""
