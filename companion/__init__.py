"""Werewolf table companion: rules engine, scripted replays and (later) the hub."""

__version__ = "0.1.0"
