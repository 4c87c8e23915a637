#!/usr/bin/env python3
"""Check the entries of a BibTeX file against DOI registration metadata.

For each entry with a DOI, fetch the registered metadata through doi.org
content negotiation (works for Crossref, DataCite and other agencies) and
compare title, first author and year with what the .bib file says.
With --search, entries without a DOI are looked up in the Crossref search
API and a candidate DOI is suggested when the title matches closely.

The .bib file is never modified. Results go to stdout as a table and,
with --json, to a machine-readable report.

Standard library only. Python 3.8+.

Examples:
    python check_citations.py refs.bib --mailto you@example.org
    python check_citations.py refs.bib --search --json report.json --cache .doi-cache.json
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
import time
import unicodedata
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Optional, Tuple

CSL_JSON = "application/vnd.citationstyles.csl+json"
SKIP_TYPES = {"comment", "string", "preamble"}
DEFAULT_THRESHOLD = 0.85


# --------------------------------------------------------------------------
# BibTeX parsing (enough for real-world reference lists, not a full grammar)
# --------------------------------------------------------------------------

def _read_braced(text: str, i: int) -> Tuple[str, int]:
    """text[i] is '{'. Return the content up to the matching '}' and the index after it."""
    depth = 0
    start = i + 1
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start:i], i + 1
        i += 1
    raise ValueError("unbalanced braces")


def _read_quoted(text: str, i: int) -> Tuple[str, int]:
    """text[i] is '"'. Quotes inside braces do not end the value."""
    depth = 0
    start = i + 1
    i += 1
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == '"' and depth == 0:
            return text[start:i], i + 1
        i += 1
    raise ValueError("unterminated quoted value")


def parse_bibtex(text: str) -> List[Dict[str, str]]:
    """Return a list of entries as dicts with 'ENTRYTYPE', 'ID' and lower-cased field names."""
    entries: List[Dict[str, str]] = []
    pos = 0
    while True:
        at = text.find("@", pos)
        if at == -1:
            break
        m = re.match(r"@\s*([A-Za-z]+)\s*([{(])", text[at:])
        if not m:
            pos = at + 1
            continue
        entry_type = m.group(1).lower()
        open_ch = m.group(2)
        close_ch = "}" if open_ch == "{" else ")"
        i = at + m.end()
        if entry_type in SKIP_TYPES:
            # skip to the matching close of this block
            depth = 1
            while i < len(text) and depth:
                if text[i] == open_ch:
                    depth += 1
                elif text[i] == close_ch:
                    depth -= 1
                i += 1
            pos = i
            continue

        comma = text.find(",", i)
        if comma == -1:
            break
        key = text[i:comma].strip()
        i = comma + 1
        fields: Dict[str, str] = {"ENTRYTYPE": entry_type, "ID": key}

        while i < len(text):
            # skip whitespace and separators
            while i < len(text) and text[i] in " \t\r\n,":
                i += 1
            if i >= len(text) or text[i] == close_ch:
                i += 1
                break
            fm = re.match(r"([A-Za-z][\w\-:.]*)\s*=\s*", text[i:])
            if not fm:
                # malformed field; resynchronise at the next line
                nl = text.find("\n", i)
                i = len(text) if nl == -1 else nl + 1
                continue
            name = fm.group(1).lower()
            i += fm.end()
            parts: List[str] = []
            while True:
                if i < len(text) and text[i] == "{":
                    value, i = _read_braced(text, i)
                elif i < len(text) and text[i] == '"':
                    value, i = _read_quoted(text, i)
                else:
                    vm = re.match(r"[^,#}\)\s]+", text[i:])
                    value = vm.group(0) if vm else ""
                    i += len(value)
                parts.append(value)
                while i < len(text) and text[i] in " \t\r\n":
                    i += 1
                if i < len(text) and text[i] == "#":  # string concatenation
                    i += 1
                    while i < len(text) and text[i] in " \t\r\n":
                        i += 1
                    continue
                break
            fields[name] = " ".join(p.strip() for p in parts)
        entries.append(fields)
        pos = i
    return entries


# --------------------------------------------------------------------------
# Normalisation and comparison
# --------------------------------------------------------------------------

def normalise(s: str) -> str:
    """Lower-case, strip LaTeX markup, accents and punctuation."""
    s = re.sub(r"\\[A-Za-z]+\s*|\\.", "", s)  # \emph, \textit, \" \' ...
    s = s.replace("{", "").replace("}", "")
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c))
    s = re.sub(r"<[^>]+>", " ", s)  # JATS/HTML tags in registered titles
    s = re.sub(r"[^\w\s]", " ", s.casefold())
    return re.sub(r"\s+", " ", s).strip()


def title_similarity(a: str, b: str) -> float:
    na, nb = normalise(a), normalise(b)
    if not na or not nb:
        return 0.0
    score = difflib.SequenceMatcher(None, na, nb).ratio()
    # "Main title" vs "Main title: a subtitle" is a match, not a mismatch.
    short, long_ = sorted((na, nb), key=len)
    if len(short.split()) >= 4 and long_.startswith(short):
        score = max(score, 0.95)
    return score


def normalise_doi(raw: str) -> str:
    doi = raw.strip()
    doi = re.sub(r"^(https?://)?(dx\.)?doi\.org/", "", doi, flags=re.I)
    doi = re.sub(r"^doi:\s*", "", doi, flags=re.I)
    return doi.strip().rstrip(".")


def first_author_family(bib_author: str) -> str:
    first = re.split(r"\s+and\s+", bib_author.strip(), maxsplit=1, flags=re.I)[0]
    first = first.strip().strip("{}")
    if "," in first:
        return normalise(first.split(",", 1)[0])
    tokens = first.split()
    return normalise(tokens[-1]) if tokens else ""


def csl_first_author(csl: Dict[str, Any]) -> str:
    for role in ("author", "editor"):
        people = csl.get(role) or []
        if people:
            p = people[0]
            return normalise(p.get("family") or p.get("literal") or p.get("name") or "")
    return ""


def csl_years(csl: Dict[str, Any]) -> List[int]:
    years = []
    for key in ("issued", "published-print", "published-online", "created"):
        parts = (csl.get(key) or {}).get("date-parts") or []
        if parts and parts[0] and parts[0][0]:
            try:
                years.append(int(parts[0][0]))
            except (TypeError, ValueError):
                pass
    return years


def csl_title(csl: Dict[str, Any]) -> str:
    t = csl.get("title") or ""
    if isinstance(t, list):
        t = t[0] if t else ""
    return t


def bib_year(entry: Dict[str, str]) -> Optional[int]:
    raw = entry.get("year") or entry.get("date") or ""
    m = re.search(r"\b(1[5-9]\d\d|20\d\d)\b", raw)
    return int(m.group(1)) if m else None


# --------------------------------------------------------------------------
# Network
# --------------------------------------------------------------------------

class Fetcher:
    def __init__(self, mailto: Optional[str], delay: float, cache_path: Optional[str], timeout: float = 20.0):
        contact = f" (mailto:{mailto})" if mailto else ""
        self.user_agent = f"check_citations/1.0{contact}"
        self.delay = delay
        self.timeout = timeout
        self.cache_path = cache_path
        self.cache: Dict[str, Any] = {}
        self._last = 0.0
        if cache_path:
            try:
                with open(cache_path, encoding="utf-8") as fh:
                    self.cache = json.load(fh)
            except FileNotFoundError:
                pass

    def save(self) -> None:
        if self.cache_path:
            with open(self.cache_path, "w", encoding="utf-8") as fh:
                json.dump(self.cache, fh, indent=1, sort_keys=True)

    def get_json(self, url: str, accept: str = "application/json") -> Tuple[int, Optional[Any]]:
        """Return (http_status, parsed_json_or_None). Status 0 means a network error."""
        if url in self.cache:
            cached = self.cache[url]
            return cached["status"], cached["body"]
        wait = self.delay - (time.monotonic() - self._last)
        if wait > 0:
            time.sleep(wait)
        req = urllib.request.Request(url, headers={"Accept": accept, "User-Agent": self.user_agent})
        status, body = 0, None
        for attempt in range(4):
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    status = resp.status
                    body = json.loads(resp.read().decode("utf-8"))
                break
            except urllib.error.HTTPError as err:
                status = err.code
                if err.code in (429, 500, 502, 503, 504) and attempt < 3:
                    retry_after = err.headers.get("Retry-After") if err.headers else None
                    pause = float(retry_after) if retry_after and retry_after.isdigit() else 2 ** (attempt + 1)
                    time.sleep(pause)
                    continue
                break
            except (urllib.error.URLError, TimeoutError, json.JSONDecodeError, UnicodeDecodeError) as err:
                status = 0
                body = {"error": str(err)}
                if attempt < 3:
                    time.sleep(2 ** (attempt + 1))
                    continue
                break
        self._last = time.monotonic()
        if status in (200, 404):  # only cache definitive answers
            self.cache[url] = {"status": status, "body": body}
        return status, body


# --------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------

def check_with_doi(entry: Dict[str, str], doi: str, fetcher: Fetcher, threshold: float) -> Dict[str, Any]:
    url = "https://doi.org/" + urllib.parse.quote(doi, safe="/:;()._-")
    status, csl = fetcher.get_json(url, accept=CSL_JSON)
    result: Dict[str, Any] = {"doi": doi}
    if status == 404:
        result["status"] = "NOT_FOUND"
        result["notes"] = ["DOI is not registered (typo, or a fabricated reference)"]
        return result
    if status != 200 or not isinstance(csl, dict):
        result["status"] = "ERROR"
        result["notes"] = [f"lookup failed (HTTP {status or 'network error'}); re-run later"]
        return result

    notes: List[str] = []
    problems = 0

    reg_title = csl_title(csl)
    sim = title_similarity(entry.get("title", ""), reg_title)
    result["registered_title"] = reg_title
    result["title_similarity"] = round(sim, 2)
    if not entry.get("title"):
        notes.append("entry has no title")
    elif sim < threshold:
        problems += 1
        notes.append(f"title differs (similarity {sim:.2f}); registered: {reg_title!r}")

    bib_auth = first_author_family(entry.get("author", "") or entry.get("editor", ""))
    reg_auth = csl_first_author(csl)
    result["registered_first_author"] = reg_auth
    if bib_auth and reg_auth and bib_auth not in reg_auth and reg_auth not in bib_auth:
        problems += 1
        notes.append(f"first author differs: bib {bib_auth!r}, registered {reg_auth!r}")

    year = bib_year(entry)
    reg_years = csl_years(csl)
    result["registered_years"] = sorted(set(reg_years))
    if year and reg_years and year not in reg_years:
        if min(abs(year - y) for y in reg_years) == 1:
            notes.append(f"year {year} is one off from registered {sorted(set(reg_years))} (online vs print?)")
        else:
            problems += 1
            notes.append(f"year {year} not in registered {sorted(set(reg_years))}")

    if problems:
        result["status"] = "MISMATCH"
    elif notes:
        result["status"] = "WARN"
    else:
        result["status"] = "OK"
    result["notes"] = notes
    return result


def search_crossref(entry: Dict[str, str], fetcher: Fetcher, threshold: float) -> Dict[str, Any]:
    title = entry.get("title", "")
    if not title:
        return {"status": "NO_DOI", "notes": ["no DOI and no title to search for"]}
    bits = [re.sub(r"[{}\\]", "", title), first_author_family(entry.get("author", "")), str(bib_year(entry) or "")]
    query = " ".join(b for b in bits if b)
    url = "https://api.crossref.org/works?" + urllib.parse.urlencode(
        {"query.bibliographic": query, "rows": 5, "select": "DOI,title,author,issued"}
    )
    status, body = fetcher.get_json(url)
    if status != 200 or not isinstance(body, dict):
        return {"status": "ERROR", "notes": [f"Crossref search failed (HTTP {status or 'network error'})"]}
    best: Optional[Tuple[float, Dict[str, Any]]] = None
    for item in body.get("message", {}).get("items", []):
        cand_title = (item.get("title") or [""])[0]
        sim = title_similarity(title, cand_title)
        if best is None or sim > best[0]:
            best = (sim, item)
    if best and best[0] >= threshold:
        sim, item = best
        return {
            "status": "SUGGESTED",
            "suggested_doi": item.get("DOI"),
            "registered_title": (item.get("title") or [""])[0],
            "title_similarity": round(sim, 2),
            "notes": ["candidate only: confirm authors, venue and year before adding it"],
        }
    return {"status": "NO_MATCH", "notes": ["no close Crossref match (books, theses and reports often have no DOI)"]}


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bibfile", help="BibTeX/BibLaTeX file to check (read only)")
    ap.add_argument("--mailto", help="contact email sent in the User-Agent, as Crossref asks of API users")
    ap.add_argument("--search", action="store_true", help="search Crossref for entries without a DOI")
    ap.add_argument("--json", metavar="PATH", help="write a JSON report to PATH")
    ap.add_argument("--cache", metavar="PATH", help="JSON file to cache lookups between runs")
    ap.add_argument("--delay", type=float, default=1.0, help="seconds between requests (default 1.0)")
    ap.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD,
                    help=f"minimum title similarity to count as a match (default {DEFAULT_THRESHOLD})")
    ap.add_argument("--only", metavar="KEY", action="append", help="check only these citation keys (repeatable)")
    args = ap.parse_args(argv)

    try:
        with open(args.bibfile, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as err:
        print(f"error: cannot read {args.bibfile}: {err}", file=sys.stderr)
        return 2

    try:
        entries = parse_bibtex(text)
    except ValueError as err:
        print(f"error: could not parse {args.bibfile}: {err}", file=sys.stderr)
        return 2
    if args.only:
        wanted = set(args.only)
        entries = [e for e in entries if e["ID"] in wanted]
    if not entries:
        print("no entries found", file=sys.stderr)
        return 2

    fetcher = Fetcher(args.mailto, args.delay, args.cache)
    results = []
    try:
        for n, entry in enumerate(entries, 1):
            print(f"[{n}/{len(entries)}] {entry['ID']}", file=sys.stderr)
            raw_doi = entry.get("doi", "")
            if raw_doi:
                res = check_with_doi(entry, normalise_doi(raw_doi), fetcher, args.threshold)
            elif args.search:
                res = search_crossref(entry, fetcher, args.threshold)
            else:
                res = {"status": "NO_DOI", "notes": ["no DOI field (use --search to look for one)"]}
            res = {"key": entry["ID"], "type": entry["ENTRYTYPE"], "bib_title": entry.get("title", ""), **res}
            results.append(res)
    finally:
        fetcher.save()

    counts: Dict[str, int] = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1

    width = max(len(r["key"]) for r in results)
    for r in results:
        line = f"{r['status']:<10} {r['key']:<{width}}"
        if r.get("doi"):
            line += f"  {r['doi']}"
        if r.get("suggested_doi"):
            line += f"  -> {r['suggested_doi']}"
        print(line)
        for note in r.get("notes", []):
            print(f"{'':<10} {'':<{width}}  - {note}")
    print()
    print("summary: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))

    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"file": args.bibfile, "summary": counts, "results": results}, fh, indent=2, ensure_ascii=False)

    clean = {"OK", "WARN"}
    return 0 if all(r["status"] in clean for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
