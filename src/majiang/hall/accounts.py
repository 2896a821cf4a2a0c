"""Accounts: registration and login (argon2 password hashes), guests, signed session tokens that
expire and can be revoked, and the sign-up coin grant."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import time
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from majiang.hall.ledger import grant
from majiang.store import Database
from majiang.store.models import Account, Setting

USERNAME_RE = re.compile(r"^[A-Za-z0-9_\u4e00-\u9fff-]{3,20}$")
_hasher = PasswordHasher()


class AuthError(ValueError):
    """Bad credentials or token; the message says how to fix it."""


@dataclass(frozen=True)
class Principal:
    account_id: int
    username: str
    kind: str


class Accounts:
    def __init__(self, db: Database, signup_grant: int = 10_000, guest_grant: int = 2_000,
                 token_ttl_s: int = 7 * 24 * 3600) -> None:
        self.db = db
        self.signup_grant = signup_grant
        self.guest_grant = guest_grant
        self.token_ttl_s = token_ttl_s
        self._secret = self._load_secret()

    def _load_secret(self) -> bytes:
        """The token-signing secret, shared by every hall process through the database."""
        with self.db.session() as s:
            row = s.get(Setting, "token_secret")
            if row is None:
                try:
                    with s.begin_nested():
                        row = Setting(key="token_secret", value=secrets.token_hex(32))
                        s.add(row)
                except IntegrityError:
                    row = s.get(Setting, "token_secret")
            assert row is not None
            return bytes.fromhex(row.value)

    # ---- accounts --------------------------------------------------------------------------
    def register(self, username: str, password: str) -> Principal:
        if not isinstance(username, str) or not USERNAME_RE.match(username):
            raise AuthError("a username has 3–20 letters, digits, _ or - (Chinese characters allowed)")
        if not isinstance(password, str) or len(password) < 8 or len(password) > 200:
            raise AuthError("a password needs at least 8 characters")
        with self.db.session() as s:
            acc = Account(username=username, kind="player", password_hash=_hasher.hash(password))
            s.add(acc)
            try:
                s.flush()
            except IntegrityError:
                raise AuthError(f"the name {username!r} is taken; choose another") from None
            p = Principal(acc.id, acc.username, acc.kind)
        if self.signup_grant:
            grant(self.db, p.account_id, self.signup_grant, f"signup:{p.account_id}", "signup")
        return p

    def login(self, username: str, password: str) -> Principal:
        with self.db.session() as s:
            acc = s.scalar(select(Account).where(Account.username == username, Account.kind == "player"))
            if acc is None or acc.password_hash is None:
                raise AuthError("unknown user or wrong password")
            try:
                _hasher.verify(acc.password_hash, password)
            except (VerificationError, InvalidHashError):
                raise AuthError("unknown user or wrong password") from None
            if _hasher.check_needs_rehash(acc.password_hash):
                acc.password_hash = _hasher.hash(password)
            return Principal(acc.id, acc.username, acc.kind)

    def guest(self) -> Principal:
        with self.db.session() as s:
            acc = Account(username=f"guest-{secrets.token_hex(3)}", kind="guest")
            s.add(acc)
            s.flush()
            p = Principal(acc.id, acc.username, acc.kind)
        if self.guest_grant:
            grant(self.db, p.account_id, self.guest_grant, f"signup:{p.account_id}", "guest")
        return p

    def bot_account(self, name: str, float_: int = 1_000_000) -> int:
        """The coin account of a server bot (created and funded from the mint on first use)."""
        with self.db.session() as s:
            acc = s.scalar(select(Account).where(Account.username == f"bot:{name}"))
            if acc is None:
                try:
                    with s.begin_nested():
                        acc = Account(username=f"bot:{name}", kind="bot")
                        s.add(acc)
                except IntegrityError:
                    acc = s.scalar(select(Account).where(Account.username == f"bot:{name}"))
            assert acc is not None
            account_id = acc.id
        grant(self.db, account_id, float_, f"bot-float:{account_id}", "bot")
        return account_id

    def get(self, account_id: int) -> Account | None:
        with self.db.session() as s:
            return s.get(Account, account_id)

    # ---- tokens ----------------------------------------------------------------------------
    def issue(self, p: Principal) -> str:
        with self.db.session() as s:
            acc = s.get(Account, p.account_id)
            version = acc.token_version if acc else 0
        body = {"a": p.account_id, "v": version, "e": int(time.time()) + self.token_ttl_s}
        raw = base64.urlsafe_b64encode(json.dumps(body, separators=(",", ":")).encode()).decode().rstrip("=")
        sig = hmac.new(self._secret, raw.encode(), hashlib.sha256).hexdigest()
        return f"{raw}.{sig}"

    def verify(self, token: str | None) -> Principal:
        if not token or not isinstance(token, str) or token.count(".") != 1 or len(token) > 500:
            raise AuthError("log in first (no valid session token)")
        raw, sig = token.split(".")
        good = hmac.new(self._secret, raw.encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(sig, good):
            raise AuthError("session token is not valid; log in again")
        try:
            body = json.loads(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))
        except (ValueError, json.JSONDecodeError):
            raise AuthError("session token is not valid; log in again") from None
        if body.get("e", 0) < time.time():
            raise AuthError("session expired; log in again")
        with self.db.session() as s:
            acc = s.get(Account, body.get("a"))
            if acc is None or acc.token_version != body.get("v"):
                raise AuthError("session was revoked; log in again")
            return Principal(acc.id, acc.username, acc.kind)

    def revoke(self, account_id: int) -> None:
        """Log out everywhere: every token issued so far stops working."""
        with self.db.session() as s:
            s.execute(update(Account).where(Account.id == account_id)
                      .values(token_version=Account.token_version + 1))
