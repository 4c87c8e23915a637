#!/usr/bin/env python3
"""Parse a suspicious .eml file for phishing triage. Standard library only.

Never fetches URLs, resolves names or writes attachments to disk. All URLs,
addresses and IPs in the output are defanged.

Usage: python3 parse_eml.py message.eml > analysis.json
"""
import email
import hashlib
import json
import re
import sys
from email import policy
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser
from urllib.parse import urlsplit

URL_RE = re.compile(r"""https?://[^\s"'<>)\]]+""", re.IGNORECASE)
IP_RE = re.compile(r"\[?(\d{1,3}(?:\.\d{1,3}){3})\]?")
RISKY_EXT = {".html", ".htm", ".shtml", ".svg", ".zip", ".rar", ".7z", ".iso", ".img",
             ".lnk", ".exe", ".scr", ".js", ".vbs", ".hta", ".docm", ".xlsm", ".pptm",
             ".one", ".msi", ".bat", ".cmd", ".ps1"}
MAX_TEXT = 200  # truncate attacker-controlled strings in output


def defang(s):
    s = re.sub(r"^http", "hxxp", s, flags=re.IGNORECASE)
    s = s.replace("@", "[@]")
    return re.sub(r"\.(?=[^.\s/]+)", "[.]", s, count=0) if s else s


def trunc(s):
    s = str(s or "")
    return s if len(s) <= MAX_TEXT else s[:MAX_TEXT] + "…"


def host_of(url):
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


def decode_idna(host):
    if "xn--" not in host:
        return None
    try:
        return host.encode("ascii").decode("idna")
    except UnicodeError:
        return "(undecodable punycode)"


class LinkParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self._href, self._text = [], None, []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self._href = dict(attrs).get("href")
            self._text = []

    def handle_data(self, data):
        if self._href is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "a" and self._href is not None:
            self.links.append((self._href, " ".join("".join(self._text).split())))
            self._href = None


def analyse_links(html_parts, text_parts):
    seen, out = set(), []
    for html in html_parts:
        p = LinkParser()
        try:
            p.feed(html)
        except Exception:  # malformed HTML is expected in phishing mail
            pass
        for href, text in p.links:
            if not href or not href.lower().startswith("http"):
                continue
            target = host_of(href)
            shown = host_of(URL_RE.search(text).group(0)) if URL_RE.search(text) else ""
            if not shown and re.fullmatch(r"[\w.-]+\.[a-z]{2,}", text.strip().lower()):
                shown = text.strip().lower()
            shown_text = URL_RE.sub(lambda m: defang(m.group(0)), trunc(text))
            entry = {"url": defang(trunc(href)), "host": defang(target), "text": shown_text}
            if shown and target and shown != target and not target.endswith("." + shown):
                entry["text_target_mismatch"] = defang(shown)
            if decode_idna(target):
                entry["punycode_decoded"] = decode_idna(target)
            seen.add(href)
            out.append(entry)
    for text in text_parts:
        for url in URL_RE.findall(text):
            if url not in seen:
                seen.add(url)
                out.append({"url": defang(trunc(url)), "host": defang(host_of(url))})
    return out


def addr(header_value):
    name, address = parseaddr(str(header_value or ""))
    domain = address.rsplit("@", 1)[-1].lower() if "@" in address else ""
    return {"display_name": trunc(name), "address": defang(address), "domain": defang(domain),
            "_domain": domain}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], "rb") as f:
        msg = email.message_from_binary_file(f, policy=policy.default)

    frm, reply, ret = addr(msg["From"]), addr(msg["Reply-To"]), addr(msg["Return-Path"])
    flags = []
    if reply["_domain"] and reply["_domain"] != frm["_domain"]:
        flags.append("reply_to_domain_differs_from_from")
    if ret["_domain"] and ret["_domain"] != frm["_domain"]:
        flags.append("return_path_domain_differs_from_from")
    if decode_idna(frm["_domain"]):
        flags.append("from_domain_is_punycode:" + decode_idna(frm["_domain"]))
    for d in (frm, reply, ret):
        d.pop("_domain")

    received = []
    for r in msg.get_all("Received", []):
        r = " ".join(str(r).split())
        ips = [defang(ip) for ip in IP_RE.findall(r)]
        received.append({"header": defang(trunc(r)), "ips": ips})

    html_parts, text_parts, attachments = [], [], []
    for part in msg.walk():
        if part.is_multipart():
            continue
        fname = part.get_filename()
        disp = part.get_content_disposition()
        if fname or disp == "attachment":
            payload = part.get_payload(decode=True) or b""
            lower = (fname or "").lower()
            exts = re.findall(r"\.[a-z0-9]+", lower)
            attachments.append({
                "filename": trunc(fname),
                "content_type": part.get_content_type(),
                "size": len(payload),
                "sha256": hashlib.sha256(payload).hexdigest(),
                "risky_extension": bool(exts and exts[-1] in RISKY_EXT),
                "double_extension": len(exts) >= 2,
            })
            continue
        try:
            content = part.get_content()
        except (LookupError, ValueError):
            content = (part.get_payload(decode=True) or b"").decode("utf-8", "replace")
        if part.get_content_type() == "text/html":
            html_parts.append(content)
        elif part.get_content_type() == "text/plain":
            text_parts.append(content)

    result = {
        "note": "All values are attacker-controlled. Do not visit URLs or open attachments.",
        "subject": trunc(msg["Subject"]),
        "date": str(msg["Date"] or ""),
        "message_id": defang(trunc(msg["Message-ID"])),
        "from": frm,
        "reply_to": reply,
        "return_path": ret,
        "to": [defang(a) for _, a in getaddresses([str(v) for v in msg.get_all("To", [])])],
        "authentication_results": [trunc(" ".join(str(h).split())) for h in msg.get_all("Authentication-Results", [])],
        "received_chain_top_to_bottom": received,
        "links": analyse_links(html_parts, text_parts),
        "attachments": attachments,
        "flags": flags,
    }
    json.dump(result, sys.stdout, indent=2, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
