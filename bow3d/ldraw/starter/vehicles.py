"""Placeholder."""


def parts():
    return []
