"""A real headless Chromium for page tests (Debian's chromium and chromium-driver, driven by selenium).

`chromium()` starts one with WebGL on SwiftShader (no GPU needed) and the browser's console kept; it
skips the test, saying why, where Chromium, its driver or selenium cannot be found (.ci/run installs
them: apt-get install chromium chromium-driver; pip install -e '.[test]' brings selenium).
"""

from __future__ import annotations

import contextlib
import shutil
import time
from collections.abc import Iterator

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "chrome")
DRIVERS = ("chromedriver",)
FLAGS = ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--use-angle=swiftshader",
         "--enable-unsafe-swiftshader", "--hide-scrollbars", "--mute-audio", "--no-first-run")


def find_chromium() -> tuple[str, str]:
    """(browser, driver) paths, or pytest.skip with the reason."""
    browser = next((found for name in BROWSERS if (found := shutil.which(name))), None)
    driver = next((found for name in DRIVERS if (found := shutil.which(name))), None)
    if browser is None or driver is None:
        missing = " and ".join(what for what, path in (("chromium", browser), ("chromedriver", driver)) if path is None)
        pytest.skip(f"no {missing} on this machine (apt-get install chromium chromium-driver; .ci/run does)")
    return browser, driver


@contextlib.contextmanager
def chromium(size: tuple[int, int] = (1280, 900), extra: tuple[str, ...] = ()) -> Iterator[object]:
    """A selenium driver on headless Chromium; quit at the end."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
    from selenium.webdriver.chrome.service import Service

    browser, driver_path = find_chromium()
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in (*FLAGS, f"--window-size={size[0]},{size[1]}", *extra):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(driver, script: str, seconds: float = 60.0, poll: float = 0.25):
    """Poll `script` (JavaScript returning a value) every `poll` seconds until it is truthy; its last value."""
    deadline = time.monotonic() + seconds
    value = None
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(poll)
    return value


def console_errors(driver) -> list[str]:
    """The browser console's errors (and bow3d's own warnings) since the last call."""
    return [entry["message"] for entry in driver.get_log("browser")
            if entry["level"] == "SEVERE" or "bow3d" in entry["message"]]


def installed_three():
    """npm's global three THREE_VERSION (bow3d.view.report.three.find_three), or skip."""
    from bow3d.view.report.three import find_three

    try:
        return find_three()
    except Exception as error:  # noqa: BLE001 (the reason is the skip's message)
        pytest.skip(f"three.js is not installed here ({error}); .ci/run installs it with npm")
