"""`bow3d library install|status` (issue 13): fetched from a local HTTP server (http.server in a thread) or read from
a zip made here, checked, unpacked safely, used from then on without LDRAWDIR. No test touches the network."""

from __future__ import annotations

import functools
import http.server
import io
import stat
import threading
import time
import zipfile
from pathlib import Path

import pytest

from bow3d.cli import main
from bow3d.ldraw import BUNDLED_LIBRARY, Library, install as installing, load_model
from bow3d.ldraw.install import InstallError, install_library
from tests.conftest import LDCONFIG, PARTS


def library_zip(path: Path, top: str = "ldraw/", extra: dict[str, bytes] | None = None, skip: str = "") -> Path:
    """A zip of the small test library, in a folder `top` as complete.zip has it."""
    files = {"LDConfig.ldr": LDCONFIG, **PARTS}
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in files.items():
            if name != skip:
                zf.writestr(top + name, text)
        for name, data in (extra or {}).items():
            zf.writestr(name, data)
    return path


@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    """An empty user data folder and no LDRAWDIR: what a new user has."""
    folder = tmp_path / "data"
    monkeypatch.setenv("BOW3D_DATA_DIR", str(folder))
    monkeypatch.delenv("LDRAWDIR", raising=False)
    return folder


@pytest.fixture
def server(tmp_path):
    """A local HTTP server over tmp_path/www (in a thread); yields its base URL."""
    root = tmp_path / "www"
    root.mkdir()
    handler = functools.partial(_QuietHandler, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", root
    httpd.shutdown()
    httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # no request lines on the test output
        pass


def test_install_from_a_server_and_use_it_without_ldrawdir(data_dir, server, tmp_path, capsys):
    url, www = server
    library_zip(www / "complete.zip")
    assert Library.from_env().is_bundled  # nothing installed yet
    assert main(["library", "install", "--from", f"{url}/complete.zip"]) == 0
    out = capsys.readouterr()
    assert f"installed 5 parts in {data_dir / 'ldraw'}" in out.out and "download" in out.err  # the progress bar
    library = Library.from_env()
    assert library.roots == [(data_dir / "ldraw").resolve()]
    (tmp_path / "m.ldr").write_text("1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n")
    model = load_model(tmp_path / "m.ldr", cache=False)  # the installed library, found by itself
    assert not model.diagnostics and model.triangle_count() == 12
    assert main(["library", "status"]) == 0
    status = capsys.readouterr().out
    assert "installed by bow3d library install" in status and "parts     5" in status


def test_the_order_is_library_then_ldrawdir_then_installed_then_bundled(data_dir, tmp_path, monkeypatch, capsys):
    install_library(str(library_zip(tmp_path / "lib.zip")), tmp_path / "mine")
    assert Library.from_env().roots == [(tmp_path / "mine").resolve()]  # --to is remembered
    monkeypatch.setenv("LDRAWDIR", str(BUNDLED_LIBRARY))
    assert Library.from_env().is_bundled
    assert main(["library", "status"]) == 0
    out = capsys.readouterr().out
    assert "chosen    LDRAWDIR" in out and f"installed {(tmp_path / 'mine').resolve()} (not in use" in out
    assert Library.from_env(str(tmp_path / "mine")).roots == [(tmp_path / "mine").resolve()]


def test_status_without_an_install(data_dir, capsys):
    assert main(["library", "status"]) == 0
    out = capsys.readouterr().out
    bundled_parts = len(list((BUNDLED_LIBRARY / "parts").glob("*.dat")))
    assert "the bundled starter library" in out and "installed none" in out and f"parts     {bundled_parts:,}\n" in out


def test_a_new_install_replaces_the_old_one_only_once_it_is_good(data_dir, tmp_path, capsys):
    install_library(str(library_zip(tmp_path / "good.zip", top="")))
    marker = data_dir / "ldraw" / "parts" / "box.dat"
    assert marker.is_file()
    bad = library_zip(tmp_path / "bad.zip", skip="LDConfig.ldr")
    assert main(["library", "install", "--from", str(bad)]) == 2
    assert "is no LDraw library" in capsys.readouterr().err
    assert marker.is_file() and not list(data_dir.glob(".bow3d-install-*"))  # untouched, nothing left behind
    install_library(str(library_zip(tmp_path / "again.zip")))
    assert marker.is_file()


def _symlink_member(zf: zipfile.ZipFile, name: str, target: str) -> None:
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    zf.writestr(info, target)


@pytest.mark.parametrize("evil, why", [
    ("../evil.dat", "outside the library folder"), ("ldraw/../../evil.dat", "outside the library folder"),
    ("/tmp/evil.dat", "outside the library folder"), ("C:/evil.dat", "outside the library folder"),
    ("ldraw\\..\\..\\evil.dat", "outside the library folder"), ("link", "is a link"),
])
def test_unsafe_zips_are_refused(data_dir, tmp_path, capsys, evil, why):
    path = library_zip(tmp_path / "evil.zip")
    with zipfile.ZipFile(path, "a") as zf:
        if evil == "link":
            _symlink_member(zf, "ldraw/parts/link.dat", "/etc/passwd")
        else:
            zf.writestr(evil, "0 evil\n")
    assert main(["library", "install", "--from", str(path)]) == 2
    err = capsys.readouterr().err
    assert why in err and "Traceback" not in err
    assert not (data_dir / "ldraw").exists() and not (tmp_path / "evil.dat").exists()


def test_size_bounds_are_counted_on_the_bytes_written(data_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(installing, "MAX_MEMBER_BYTES", 1000)
    path = library_zip(tmp_path / "big.zip", extra={"ldraw/parts/big.dat": b"0 big\n" + b"0 x\n" * 1000})
    assert main(["library", "install", "--from", str(path)]) == 2
    assert "more than any LDraw file may" in capsys.readouterr().err
    monkeypatch.setattr(installing, "MAX_MEMBER_BYTES", 1 << 20)
    monkeypatch.setattr(installing, "MAX_UNPACKED_BYTES", 2000)
    assert main(["library", "install", "--from", str(path)]) == 2
    assert "more than 2,000 bytes" in capsys.readouterr().err
    assert not (data_dir / "ldraw").exists()


def test_a_member_that_lies_about_its_size_is_caught(data_dir, tmp_path, monkeypatch):
    path = library_zip(tmp_path / "liar.zip")
    real_open = zipfile.ZipFile.open

    def lying_open(self, member, *args, **kwargs):  # the header says 10 bytes, the data is longer
        stream = real_open(self, member, *args, **kwargs)
        if isinstance(member, zipfile.ZipInfo) and member.filename.endswith("box.dat"):
            member.file_size = 10
        return stream

    monkeypatch.setattr(zipfile.ZipFile, "open", lying_open)
    with pytest.raises(InstallError, match="unpacks to more than it says"):
        install_library(str(path))


@pytest.mark.parametrize("case", ["404", "not a zip", "no such file", "refused"])
def test_fetch_problems_are_one_line(data_dir, server, tmp_path, capsys, case):
    url, www = server
    (www / "page.zip").write_text("<html>not a zip</html>")
    source = {"404": f"{url}/missing.zip", "not a zip": f"{url}/page.zip", "no such file": str(tmp_path / "no.zip"),
              "refused": "http://127.0.0.1:9/complete.zip"}[case]
    assert main(["library", "install", "--from", source]) == 2
    err = capsys.readouterr().err
    expected = {"404": "answered 404", "not a zip": "is not a zip file", "no such file": "no such zip file",
                "refused": "cannot be downloaded"}[case]
    assert expected in err.strip().splitlines()[-1] and "Traceback" not in err


def test_the_official_url_is_the_default(data_dir, tmp_path):
    asked = []

    def opener(url, timeout):
        asked.append(url)
        data = library_zip(tmp_path / "complete.zip").read_bytes()
        return _Response(data)

    installed = install_library(opener=opener)
    assert asked == ["https://library.ldraw.org/library/updates/complete.zip"] and installed.parts == 5


class _Response(io.BytesIO):
    def __init__(self, data: bytes):
        super().__init__(data)
        self.headers = {"Content-Length": str(len(data))}


def test_to_a_folder_that_holds_something_else_is_refused(data_dir, tmp_path, capsys):
    other = tmp_path / "photos"
    other.mkdir()
    (other / "cat.jpg").write_bytes(b"jpeg")
    assert main(["library", "install", "--from", str(library_zip(tmp_path / "l.zip")), "--to", str(other)]) == 2
    assert "holds something else than an LDraw library" in capsys.readouterr().err
    assert (other / "cat.jpg").read_bytes() == b"jpeg"


def test_a_folder_that_cannot_be_written_is_one_line(data_dir, tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code = main(["library", "install", "--from", str(library_zip(tmp_path / "l.zip")), "--to", str(locked / "lib")])
    finally:
        locked.chmod(0o700)
    err = capsys.readouterr().err
    if code == 0:  # root writes anywhere: nothing to test here
        pytest.skip("this user can write into a read-only folder")
    assert code == 2 and "cannot be written" in err and "Traceback" not in err


# --- issue 32: no user file lost; a download that drips is given up on ----------------------------------

def _user_library(folder: Path) -> dict[Path, bytes]:
    """A library folder the user made by hand, with files of their own; returns those files' bytes."""
    (folder / "parts").mkdir(parents=True)
    files = {folder / "LDConfig.ldr": LDCONFIG.encode(), folder / "parts" / "mine.dat": b"0 my own part\n",
             folder / "notes.txt": b"my notes\n"}
    for path, data in files.items():
        path.write_bytes(data)
    return files


def test_to_a_library_folder_of_the_user_s_leaves_every_file_byte_for_byte(data_dir, tmp_path, capsys):
    mine = tmp_path / "my-ldraw"
    files = _user_library(mine)
    assert main(["library", "install", "--from", str(library_zip(tmp_path / "l.zip")), "--to", str(mine)]) == 2
    err = capsys.readouterr().err
    assert "did not write" in err and str(mine) in err and "Traceback" not in err
    assert {path: path.read_bytes() for path in files} == files
    assert sorted(p.name for p in mine.rglob("*")) == ["LDConfig.ldr", "mine.dat", "notes.txt", "parts"]


@pytest.mark.parametrize("change", ["a file of the user's", "an installed file edited"])
def test_a_library_it_installed_is_replaced_only_while_it_holds_nothing_else(data_dir, tmp_path, capsys, change):
    target = tmp_path / "lib"
    install_library(str(library_zip(tmp_path / "l.zip")), target)
    if change == "a file of the user's":
        touched, data = target / "parts" / "mine.dat", b"0 my own part\n"
    else:
        touched, data = target / "parts" / "box.dat", b"0 my better box\n"
    touched.write_bytes(data)
    assert main(["library", "install", "--from", str(tmp_path / "l.zip"), "--to", str(target)]) == 2
    err = capsys.readouterr().err
    assert "parts/" + touched.name in err and "nothing was replaced" in err
    assert touched.read_bytes() == data
    touched.unlink()
    if change == "an installed file edited":
        touched.write_text(PARTS["parts/box.dat"])   # as written again: replaceable
    assert main(["library", "install", "--from", str(tmp_path / "l.zip"), "--to", str(target)]) == 0


class _DrippingHandler(http.server.BaseHTTPRequestHandler):
    """Announces a megabyte, then sends one byte every 20 ms, for at most 4 seconds (the test stays bounded)."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(1 << 20))
        self.end_headers()
        stop = time.monotonic() + 4.0
        try:
            while time.monotonic() < stop:
                self.wfile.write(b"P")
                self.wfile.flush()
                time.sleep(0.02)
        except OSError:   # the client gave up
            pass

    def log_message(self, *args) -> None:
        pass


def test_a_server_that_drips_bytes_meets_the_overall_deadline(data_dir, monkeypatch, capsys):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _DrippingHandler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    monkeypatch.setattr(installing, "MAX_DOWNLOAD_SECONDS", 1.0, raising=False)
    try:
        started = time.monotonic()
        code = main(["library", "install", "--from", f"http://127.0.0.1:{httpd.server_address[1]}/complete.zip"])
        took = time.monotonic() - started
    finally:
        httpd.shutdown()
        httpd.server_close()
    err = capsys.readouterr().err
    assert code == 2 and "did not finish within 1 seconds" in err and "Traceback" not in err
    assert took < 3.5 and "download" in err   # given up on in time, with the progress bar shown meanwhile
    assert not (data_dir / "ldraw").exists() and not list(data_dir.glob(".bow3d-install-*"))
