"""Polite HTTP fetch layer: robots.txt, per-host delay, Retry-After, disk cache.

    from polite_fetch import PoliteFetcher
    f = PoliteFetcher(user_agent="mybot/1.0 (+mailto:me@example.org)")
    text = f.get("https://example.org/page")   # str, or None if robots disallows

Single-threaded on purpose. Run one fetcher per host if you need to crawl
several hosts in parallel.
"""

from __future__ import annotations

import hashlib
import json
import time
import urllib.robotparser
from email.utils import parsedate_to_datetime
from pathlib import Path
from urllib.parse import urlsplit

import requests


class TooManyFailures(RuntimeError):
    pass


class PoliteFetcher:
    def __init__(
        self,
        user_agent: str,
        cache_dir: str | Path = ".scrape-cache",
        min_delay: float = 1.0,
        timeout: tuple[float, float] = (5.0, 30.0),
        max_retries: int = 4,
        max_backoff: float = 120.0,
    ) -> None:
        if "@" not in user_agent and "http" not in user_agent:
            raise ValueError("user_agent should include a contact URL or email")
        self.ua = user_agent
        self.cache = Path(cache_dir)
        self.cache.mkdir(parents=True, exist_ok=True)
        self.min_delay = min_delay
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_backoff = max_backoff
        self.session = requests.Session()
        self.session.headers["User-Agent"] = user_agent
        self._robots: dict[str, urllib.robotparser.RobotFileParser] = {}
        self._last_hit: dict[str, float] = {}

    # robots.txt -------------------------------------------------------------

    def _robots_for(self, url: str) -> urllib.robotparser.RobotFileParser:
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        if origin not in self._robots:
            rp = urllib.robotparser.RobotFileParser()
            try:
                r = self.session.get(origin + "/robots.txt", timeout=self.timeout)
                if r.status_code in (401, 403):
                    rp.disallow_all = True          # same policy as the stdlib
                elif r.status_code >= 400:
                    rp.allow_all = True             # no robots.txt -> allowed
                else:
                    rp.parse(r.text.splitlines())
            except requests.RequestException:
                rp.disallow_all = True              # can't tell -> don't crawl
            self._robots[origin] = rp
        return self._robots[origin]

    def allowed(self, url: str) -> bool:
        return self._robots_for(url).can_fetch(self.ua, url)

    def _delay_for(self, url: str) -> float:
        crawl_delay = self._robots_for(url).crawl_delay(self.ua)
        return max(self.min_delay, float(crawl_delay or 0))

    # cache ------------------------------------------------------------------

    def _cache_paths(self, url: str) -> tuple[Path, Path]:
        key = hashlib.sha256(url.encode()).hexdigest()
        return self.cache / f"{key}.body", self.cache / f"{key}.meta.json"

    # fetch ------------------------------------------------------------------

    def _wait_turn(self, host: str, delay: float) -> None:
        last = self._last_hit.get(host)
        if last is not None:
            remaining = delay - (time.monotonic() - last)
            if remaining > 0:
                time.sleep(remaining)
        self._last_hit[host] = time.monotonic()

    @staticmethod
    def _retry_after_seconds(value: str | None) -> float | None:
        if not value:
            return None
        if value.isdigit():
            return float(value)
        try:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
        except (TypeError, ValueError):
            return None

    def get(self, url: str, revalidate: bool = False) -> str | None:
        body_path, meta_path = self._cache_paths(url)
        meta = json.loads(meta_path.read_text()) if meta_path.exists() else None

        if meta and not revalidate:
            return body_path.read_text(encoding="utf-8")

        if not self.allowed(url):
            return None

        headers = {}
        if meta:
            if meta.get("etag"):
                headers["If-None-Match"] = meta["etag"]
            if meta.get("last_modified"):
                headers["If-Modified-Since"] = meta["last_modified"]

        host = urlsplit(url).netloc
        delay = self._delay_for(url)
        backoff = 2.0
        for _attempt in range(self.max_retries + 1):
            self._wait_turn(host, delay)
            r = self.session.get(url, headers=headers, timeout=self.timeout)

            if r.status_code == 304 and meta:
                return body_path.read_text(encoding="utf-8")

            if r.status_code in (429, 503):
                wait = self._retry_after_seconds(r.headers.get("Retry-After"))
                time.sleep(min(wait if wait is not None else backoff, self.max_backoff))
                backoff = min(backoff * 2, self.max_backoff)
                continue

            r.raise_for_status()
            body_path.write_text(r.text, encoding="utf-8")
            meta_path.write_text(json.dumps({
                "url": url,
                "fetched_at": time.time(),
                "etag": r.headers.get("ETag"),
                "last_modified": r.headers.get("Last-Modified"),
            }))
            return r.text

        raise TooManyFailures(f"{url}: still throttled after {self.max_retries} retries; stopping")
