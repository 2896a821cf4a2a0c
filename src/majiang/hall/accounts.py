"""Accounts: registration and login (argon2 password hashes), guests, signed session tokens that
expire and can be revoked, and the sign-up coin grant."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import re
import secrets
import threading
import time
import unicodedata
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from majiang.hall.ledger import grant
from majiang.store import Database
from majiang.store.models import Account, Setting

USERNAME_RE = re.compile(r"[A-Za-z0-9_\u4e00-\u9fff-]{3,20}")  # fullmatch: ``$`` let "bob\n" through
# categories refused anywhere in a name: controls, format (zero-width, bidi), line/paragraph separators,
# spaces, private use, surrogates, unassigned, combining marks
BAD_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Zs", "Co", "Cs", "Cn", "Mn", "Me"}
# look-alikes folded together by :func:`skeleton` (after casefold): digits and Cyrillic/Greek letters that
# look like Latin ones, and - like _
CONFUSABLES = str.maketrans(
    {
        "0": "o",
        "1": "l",
        "i": "l",
        "|": "l",
        "5": "s",
        "-": "_",
        "а": "a",
        "е": "e",
        "о": "o",
        "р": "p",
        "с": "c",
        "у": "y",
        "х": "x",
        "і": "l",
        "ј": "j",
        "ѕ": "s",
        "ԁ": "d",
        "һ": "h",
        "ԛ": "q",
        "ԝ": "w",
        "к": "k",
        "м": "m",
        "н": "h",
        "т": "t",
        "в": "b",
        "α": "a",
        "ο": "o",
        "ρ": "p",
        "ν": "v",
        "κ": "k",
        "ι": "l",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "ε": "e",
        "β": "b",
        "η": "n",
        "μ": "u",
    }
)
# names the server gives out: guests (guest-…), bots (fan-bot-0, bot:fan), the house and the mint
RESERVED_PREFIXES = ("guest", "bot", "fan_bot", "eff_bot", "rand_bot", "house", "mint", "admin", "system")


def normalise_username(name: str) -> str:
    """The name as stored: NFKC (full-width letters become ASCII), stripped of nothing else — a name with
    a control, invisible or space character is refused rather than silently cleaned."""
    return unicodedata.normalize("NFKC", name)


def skeleton(name: str) -> str:
    """What a name looks like: NFKC, casefolded, look-alikes folded (:data:`CONFUSABLES`), ``rn`` as ``m``;
    two accounts may not share one."""
    s = unicodedata.normalize("NFKC", name).casefold().translate(CONFUSABLES)
    return s.replace("rn", "m").replace("vv", "w")


def username_problem(name: str) -> str | None:
    """Why ``name`` (already normalised) may not be registered, or None."""
    if any(unicodedata.category(c) in BAD_CATEGORIES for c in name):
        return "a username may not contain control, invisible or space characters"
    if not USERNAME_RE.fullmatch(name):
        return "a username has 3–20 letters, digits, _ or - (Chinese characters allowed)"
    if skeleton(name).startswith(RESERVED_PREFIXES):
        return "names starting with guest, bot, house, mint, admin or system are reserved"
    return None


_hasher = PasswordHasher()
# verified when the username is unknown, so an unknown name costs the same time as a wrong password
_DUMMY_HASH = _hasher.hash(secrets.token_hex(16))
T = TypeVar("T")
RunDb = Callable[..., Awaitable[Any]]


class Busy(RuntimeError):
    """Too many password hashes waiting; the client should retry later."""


def _check(stored: str, password: str) -> tuple[bool, bool]:
    """(the password matches ``stored``, the hash should be recomputed)."""
    try:
        _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False, False
    return True, _hasher.check_needs_rehash(stored)


class AuthError(ValueError):
    """Bad credentials or token; the message says how to fix it."""


@dataclass(frozen=True)
class Principal:
    account_id: int
    username: str
    kind: str


class Accounts:
    def __init__(
        self,
        db: Database,
        signup_grant: int = 10_000,
        guest_grant: int = 2_000,
        token_ttl_s: int = 7 * 24 * 3600,
        hash_workers: int = 2,
        hash_queue: int = 32,
        seen_s: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.db = db
        # tokens verified in the last ``seen_s`` seconds: a request with one reads no row (a flood of
        # refused requests costs no database); a logout clears this process's entries at once, and the
        # other processes of a cluster see it within ``seen_s`` (docs/hardening.md, round 3)
        self.seen_s = seen_s
        self._clock = clock
        self._seen: dict[str, tuple[float, Principal]] = {}
        # argon2 runs here, never on the database worker (which also writes the tables' events)
        self.hash_pool = ThreadPoolExecutor(max_workers=hash_workers, thread_name_prefix="argon2")
        self._hash_slots = threading.BoundedSemaphore(hash_queue)
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

    # ---- password hashing, off the database worker ------------------------------------------
    def configure_hashing(self, workers: int, queue: int) -> None:
        """Resize the hash pool (``create_app(limits=…)``)."""
        self.hash_pool.shutdown(wait=False)
        self.hash_pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="argon2")
        self._hash_slots = threading.BoundedSemaphore(queue)

    async def hashing(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn`` (argon2) on the hash pool; :class:`Busy` when ``hash_queue`` are already queued."""
        if not self._hash_slots.acquire(blocking=False):
            raise Busy("the server is busy checking passwords; try again in a few seconds")
        try:
            return await asyncio.get_running_loop().run_in_executor(self.hash_pool, lambda: fn(*args))
        finally:
            self._hash_slots.release()

    async def register_async(self, run_db: RunDb, username: str, password: str) -> Principal:
        """:meth:`register` with the hash computed on the hash pool and the rows written by ``run_db``."""
        self.check_new(username, password)
        digest = await self.hashing(_hasher.hash, password)
        p: Principal = await run_db(self.register, username, password, digest)
        return p

    async def login_async(self, run_db: RunDb, username: str, password: str) -> Principal:
        """:meth:`login`: the row read by ``run_db``, the hash verified on the hash pool (a dummy hash
        for an unknown name, so both answers take the same time)."""
        if not isinstance(username, str) or not isinstance(password, str) or len(password) > 200:
            raise AuthError("unknown user or wrong password")
        row: tuple[Principal, str | None] | None = await run_db(self._lookup, username)
        stored = row[1] if row is not None and row[1] else _DUMMY_HASH
        ok, rehash = await self.hashing(_check, stored, password)
        if row is None or not row[1] or not ok:
            raise AuthError("unknown user or wrong password")
        if rehash:
            digest = await self.hashing(_hasher.hash, password)
            await run_db(self._set_hash, row[0].account_id, digest)
        return row[0]

    def _lookup(self, username: str) -> tuple[Principal, str | None] | None:
        username = normalise_username(username)
        with self.db.session() as s:
            acc = s.scalar(select(Account).where(Account.username == username, Account.kind == "player"))
            return None if acc is None else (Principal(acc.id, acc.username, acc.kind), acc.password_hash)

    def _set_hash(self, account_id: int, digest: str) -> None:
        with self.db.session() as s:
            s.execute(update(Account).where(Account.id == account_id).values(password_hash=digest))

    # ---- accounts --------------------------------------------------------------------------
    @staticmethod
    def check_new(username: str, password: str) -> None:
        if not isinstance(username, str) or (why := username_problem(normalise_username(username))):
            raise AuthError(why if isinstance(username, str) and why else "a username is a string")
        if not isinstance(password, str) or len(password) < 8 or len(password) > 200:
            raise AuthError("a password needs at least 8 characters")

    def register(self, username: str, password: str, digest: str | None = None) -> Principal:
        """A new account (``digest``: its password hash, when computed already).  The name is stored
        NFKC-normalised; its :func:`skeleton` is claimed in the same transaction (a ``name:`` setting,
        unique), so no two accounts look alike, whichever process registers them."""
        self.check_new(username, password)
        username = normalise_username(username)
        taken = AuthError(f"the name {username!r} is taken (or looks like one that is); choose another")
        with self.db.session() as s:
            if s.scalar(select(Account.id).where(func.lower(Account.username) == username.lower())) is not None:
                raise taken
            acc = Account(username=username, kind="player", password_hash=digest or _hasher.hash(password))
            s.add(acc)
            try:
                s.flush()
                s.add(Setting(key=f"name:{skeleton(username)}", value=str(acc.id)))
                s.flush()
            except IntegrityError:
                raise taken from None
            p = Principal(acc.id, acc.username, acc.kind)
        if self.signup_grant:
            grant(self.db, p.account_id, self.signup_grant, f"signup:{p.account_id}", "signup")
        return p

    def login(self, username: str, password: str) -> Principal:
        """Synchronous login, for scripts and tests (the HTTP route uses :meth:`login_async`)."""
        row = self._lookup(username)
        ok, rehash = _check(row[1] if row is not None and row[1] else _DUMMY_HASH, password)
        if row is None or not row[1] or not ok:
            raise AuthError("unknown user or wrong password")
        if rehash:
            self._set_hash(row[0].account_id, _hasher.hash(password))
        return row[0]

    def guest(self) -> Principal:
        """A guest account named ``guest-`` and random hex; a name already taken is drawn again (longer
        each time), never an error."""
        with self.db.session() as s:
            for attempt in range(8):
                try:
                    with s.begin_nested():
                        acc = Account(username=f"guest-{secrets.token_hex(3 + attempt)}", kind="guest")
                        s.add(acc)
                    break
                except IntegrityError:
                    continue
            else:
                raise AuthError("could not draw a free guest name; try again")
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

    def _signed_body(self, token: str | None) -> dict[str, Any]:
        """The token's body if its signature is good and it has not expired (no database)."""
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
        if not isinstance(body, dict) or body.get("e", 0) < time.time():
            raise AuthError("session expired; log in again")
        return body

    def peek(self, token: str | None) -> Principal | None:
        """The token's account if this process verified the token in the last ``seen_s`` seconds,
        else None (call :meth:`verify`); a bad or expired token raises :class:`AuthError` here too."""
        self._signed_body(token)
        return self._seen_recently(token)

    def _seen_recently(self, token: str | None) -> Principal | None:
        hit = self._seen.get(token or "")
        return hit[1] if hit is not None and self._clock() - hit[0] < self.seen_s else None

    def verify(self, token: str | None) -> Principal:
        body = self._signed_body(token)
        hit = self._seen_recently(token)
        if hit is not None:
            return hit
        with self.db.session() as s:
            acc = s.get(Account, body.get("a"))
            if acc is None or acc.token_version != body.get("v"):
                raise AuthError("session was revoked; log in again")
            p = Principal(acc.id, acc.username, acc.kind)
        if len(self._seen) >= 4096:  # bounded: a flood of distinct tokens only costs reads
            self._seen.clear()
        self._seen[token or ""] = (self._clock(), p)
        return p

    def revoke(self, account_id: int) -> None:
        """Log out everywhere: every token issued so far stops working."""
        for token, (_, p) in list(self._seen.items()):
            if p.account_id == account_id:
                self._seen.pop(token, None)
        with self.db.session() as s:
            s.execute(update(Account).where(Account.id == account_id).values(token_version=Account.token_version + 1))
