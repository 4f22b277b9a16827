"""Where `bow3d library install` puts the official LDraw library, and how bow3d finds it again.

Layer: ldraw (imports only the standard library and platformdirs, lazily). The library is unpacked
into the user data folder (`$BOW3D_DATA_DIR`, else the platform's, e.g. ~/.local/share/bow3d on
Linux) as `ldraw/`, or where `--to DIR` says; `library.json` in the data folder records a
library installed elsewhere. `Library.from_env` looks here after --library and LDRAWDIR, before
the bundled starter library.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

RECORD = "library.json"
DEFAULT_FOLDER = "ldraw"


def data_dir() -> Path:
    """$BOW3D_DATA_DIR, else the user data folder (platformdirs; XDG_DATA_HOME on Linux)."""
    override = os.environ.get("BOW3D_DATA_DIR")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("bow3d", appauthor=False))


def default_install_dir() -> Path:
    return data_dir() / DEFAULT_FOLDER


def installed_library() -> Path | None:
    """The folder of the installed library: the one `library.json` records, else `ldraw/` in the data folder
    when it exists; None when nothing was installed. A record that cannot be read counts as none."""
    try:
        record = json.loads((data_dir() / RECORD).read_text(encoding="utf-8"))
        path = record.get("path") if isinstance(record, dict) else None
        if isinstance(path, str) and path:
            return Path(path)
    except (OSError, ValueError):
        pass
    folder = default_install_dir()
    return folder if folder.is_dir() else None


def record_installed(folder: Path) -> None:
    """Remember `folder` as the installed library (written whole, then renamed into place)."""
    target = data_dir() / RECORD
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{RECORD}.{os.getpid()}.tmp")
    temporary.write_text(json.dumps({"path": str(folder.resolve())}) + "\n", encoding="utf-8")
    os.replace(temporary, target)
