"""Тысяча (Thousand): the rules engine, bots and front ends."""

__version__ = "0.1.0"
