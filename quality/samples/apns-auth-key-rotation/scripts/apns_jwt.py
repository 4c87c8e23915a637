#!/usr/bin/env python3
"""Create an APNs provider authentication token (ES256 JWT) from a .p8 auth key.

The token is printed to stdout and nothing else is written anywhere. It is valid for up to an
hour; APNs rejects tokens older than that (ExpiredProviderToken).

Requires the `cryptography` package (pip install cryptography).

Example:
  export APNS_JWT="$(python3 apns_jwt.py --key-file ~/secrets/AuthKey_ABC123DEFG.p8 \
                     --key-id ABC123DEFG --team-id DEF123GHIJ)"
"""

from __future__ import annotations

import argparse
import base64
import json
import re
import sys
import time
from pathlib import Path

try:
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
except ImportError:
    sys.exit("error: the 'cryptography' package is required (pip install cryptography)")

ID_PATTERN = re.compile(r"^[A-Z0-9]{10}$")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def make_token(key_pem: bytes, key_id: str, team_id: str, issued_at: int) -> str:
    key = serialization.load_pem_private_key(key_pem, password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise ValueError("the key is not a P-256 EC private key; is this an APNs .p8 file?")

    header = {"alg": "ES256", "kid": key_id}
    claims = {"iss": team_id, "iat": issued_at}
    signing_input = (
        b64url(json.dumps(header, separators=(",", ":")).encode())
        + "."
        + b64url(json.dumps(claims, separators=(",", ":")).encode())
    )

    der_sig = key.sign(signing_input.encode("ascii"), ec.ECDSA(hashes.SHA256()))
    # JWS ES256 wants the raw 64-byte r||s form, not the DER encoding cryptography returns.
    r, s = decode_dss_signature(der_sig)
    raw_sig = r.to_bytes(32, "big") + s.to_bytes(32, "big")
    return signing_input + "." + b64url(raw_sig)


def main() -> int:
    ap = argparse.ArgumentParser(description="Print an APNs provider JWT for a .p8 auth key.")
    ap.add_argument("--key-file", required=True, type=Path, help="path to AuthKey_XXXXXXXXXX.p8")
    ap.add_argument("--key-id", required=True, help="10-character Key ID from the developer portal")
    ap.add_argument("--team-id", required=True, help="10-character Apple Developer Team ID")
    args = ap.parse_args()

    for label, value in (("--key-id", args.key_id), ("--team-id", args.team_id)):
        if not ID_PATTERN.match(value):
            print(f"error: {label} should be 10 uppercase letters/digits, got {value!r}", file=sys.stderr)
            return 2

    try:
        key_pem = args.key_file.read_bytes()
    except OSError as exc:
        print(f"error: cannot read key file: {exc}", file=sys.stderr)
        return 2

    try:
        token = make_token(key_pem, args.key_id, args.team_id, int(time.time()))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    print(token)
    return 0


if __name__ == "__main__":
    sys.exit(main())
