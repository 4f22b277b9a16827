"""The one error hierarchy of bow3d. The library raises; only the CLI prints and picks exit codes."""

from __future__ import annotations


class Bow3dError(Exception):
    """Base of every error bow3d raises on purpose; its message says what and where."""


class UserInputError(Bow3dError, ValueError):
    """A file or argument the user gave is wrong; the CLI exits with code 2."""


class LDrawError(UserInputError):
    """An LDraw file cannot be read (strict mode, cycles, unreadable main file)."""


class SceneError(UserInputError):
    """A scene file is invalid: the message names the file, the field path and the fix."""


class ReplayError(UserInputError):
    """A replay file is invalid, truncated, of another scene, or diverges on re-simulation."""


class RulesError(Bow3dError):
    """An action breaks a rule; carries a typed reason (see bow3d.rules)."""
