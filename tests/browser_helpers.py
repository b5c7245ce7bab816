"""Headless Chromium for the browser tests, driven by Selenium (Debian's ``chromium`` and ``chromium-driver``).

``skip_without_chromium()`` skips a test module where Chromium or its
driver is missing, saying so, and under CI (``CI`` set, where ``.ci/run``
installs both) lets the module run so that ``chromium()`` fails instead of
passing unseen.  ``chromium()`` starts one browser (headless, a fixed
window size) and ``wait_for`` polls a condition until it holds.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
WAIT = 30  # seconds any one thing may take to show


def missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if CHROMIUM and DRIVER:
        return None
    return ("headless Chromium is not installed (Debian packages chromium and chromium-driver: "
            "apt-get install chromium chromium-driver)")


def skip_without_chromium() -> None:
    """Skip the calling test module without Chromium, except under CI, which must run it."""
    if missing() and not os.environ.get("CI"):
        pytest.skip(missing(), allow_module_level=True)


def chromium(downloads: Path | None = None, size: str = "1500,1100", device: dict | None = None):
    """A headless Chromium under Selenium, its window ``size`` pixels wide and high, saving downloads in
    ``downloads``, or a phone or tablet as Chromium's mobile emulation makes one from ``device`` (its
    ``mobileEmulation`` option: ``deviceMetrics`` and ``userAgent``); fails the test under CI when Chromium is
    missing.  Quit it when done."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    if missing():
        pytest.fail(f"CI must run the browser tests, but {missing()}")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    if downloads is not None:
        options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                                  "download.prompt_for_download": False})
    if device is not None:
        options.add_experimental_option("mobileEmulation", device)
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={size}", "--disable-extensions", "--no-first-run"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.implicitly_wait(0)
    return driver


def wait_for(driver, condition, timeout: float = WAIT):
    """What ``condition(driver)`` returns once it is truthy, polled every 50 ms; a timeout fails."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(condition)
