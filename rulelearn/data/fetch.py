"""Download, verify and cache dataset files. The only module of rulelearn that uses the network.

Files are cached as ``<cache>/<dataset>/<file name>``, the same layout as a mirror folder. A file
is written to a temporary name next to its target and renamed only once verified: by its sha256,
or, where no sha256 is known, by parsing it and checking the entry's shape and class counts (its
sha256 is then pinned in ``<file name>.sha256`` so later runs check the bytes). A cached file that
no longer matches is deleted and fetched again, never used.

Where files come from (first match wins): the ``mirror`` argument, the ``RULELEARN_MIRROR``
environment variable, the real URLs of the registry. A mirror is a local folder laid out like the
cache or a base URL (``<base>/<dataset>/<url-quoted file name>``). A URL may carry credentials
(``https://user:password@host/...``, percent-encoded): they are sent as HTTP basic
authentication, and shown as ``user:***@host`` in every message and log line (:func:`redact`).
"""

from __future__ import annotations

import base64
import hashlib
import http.client
import logging
import os
import re
import shutil
import socket
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from pathlib import Path

from rulelearn.data import parse
from rulelearn.data.registry import DatasetSpec, Source, SourceFile, get_spec
from rulelearn.errors import ChecksumError, DataError, FetchError, ParameterError

#: Seconds to wait before retry k (k = 1, 2, ...) is ``RETRY_BACKOFF * 2 ** (k - 1)``.
RETRY_BACKOFF = 1.0
_CHUNK = 1 << 16
_USER_AGENT = "rulelearn (+https://github.com/rulelearn)"
_HINT = "use --mirror DIR_OR_URL or set RULELEARN_MIRROR"
_CACHE_HINT = "set RULELEARN_DATA to a writable folder"
log = logging.getLogger(__name__)


def cache_dir() -> Path:
    """The cache: ``$RULELEARN_DATA``, else ``<project>/datasets/cache`` in a source checkout,
    else the user's cache directory (``$XDG_CACHE_HOME/rulelearn`` or ``~/.cache/rulelearn``)."""
    if os.environ.get("RULELEARN_DATA"):
        return Path(os.environ["RULELEARN_DATA"]).expanduser()
    project = Path(__file__).resolve().parents[2]
    if (project / "pyproject.toml").is_file() and (project / "datasets").is_dir():
        return project / "datasets" / "cache"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "rulelearn"


def resolve_mirror(mirror=None) -> str | None:
    """The mirror to use: the argument, else ``$RULELEARN_MIRROR``, else None (real URLs)."""
    mirror = mirror if mirror not in (None, "") else os.environ.get("RULELEARN_MIRROR") or None
    return None if mirror is None else str(mirror)


def _is_url(mirror: str) -> bool:
    try:
        return urllib.parse.urlsplit(mirror).scheme in ("http", "https")
    except ValueError:  # malformed, e.g. "http://[::1": downloading says so
        return mirror.lower().startswith(("http://", "https://"))


_USERINFO = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*:/{1,2})(?P<user>[^/?#@\s:]*)"
                       r"(?::(?P<password>[^/?#\s]*))?@(?=[^/?#\s@]*(?:[/?#\s]|$))")


def redact(text) -> str:
    """``text`` with the credentials of every URL in it hidden: ``user:***@host`` (``***@host``
    for a user name alone, which may be a token)."""
    def hide(match):
        user = match["user"]
        shown = f"{user}:***" if match["password"] is not None and user else "***"
        return f"{match['scheme']}{shown}@"
    return _USERINFO.sub(hide, str(text))


def _credentials(url: str) -> tuple[str, str | None]:
    """``url`` without its user information, and the ``Authorization`` header it asks for
    (HTTP basic, user and password percent-decoded), or None."""
    parts = urllib.parse.urlsplit(url)
    if "@" not in parts.netloc:
        return url, None
    userinfo, _, hostport = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    pair = f"{urllib.parse.unquote(user)}:{urllib.parse.unquote(password)}"
    token = base64.b64encode(pair.encode("utf-8")).decode("ascii")
    return urllib.parse.urlunsplit(parts._replace(netloc=hostport)), f"Basic {token}"


def sha256(path) -> str:
    """Hex sha256 of a file."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(_CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


# ----------------------------------------------------------------------------------- public API

def cache_status(spec: DatasetSpec, *, cache_dir=None) -> str:
    """What the cache holds for ``spec``, its files checked against their sha256 (or pin).

    ``"cached (<source>)"`` (``", unverified"`` added for a file put there by hand, with no
    checksum yet), ``"corrupt (<source>: <file>)"`` (a file that does not match, e.g. a
    truncated copy), ``"partial (<source>: k of n files)"``, or ``"no"``. Never raises.
    """
    root = _cache_root(cache_dir) / spec.name
    problems = []
    for source in spec.sources:
        present = [f for f in source.files if (root / f.file).is_file()]
        if not present:
            continue
        if len(present) < len(source.files):
            problems.append(f"partial ({source.name}: {len(present)} of {len(source.files)} "
                            "files)")
            continue
        unverified, bad = False, None
        for f in source.files:
            path = root / f.file
            try:
                expected = _expected_sha256(f, path)
                got = sha256(path)
            except OSError:
                bad = f"{f.file} unreadable"
                break
            if expected is None:
                unverified = True
            elif got != expected:
                bad = f.file
                break
        if bad is None:
            return f"cached ({source.name}{', unverified' if unverified else ''})"
        problems.append(f"corrupt ({source.name}: {bad})")
    return problems[0] if problems else "no"


def cached_source(spec: DatasetSpec, *, cache_dir=None) -> Source | None:
    """The first source whose files are all in the cache (not re-verified), or None."""
    root = _cache_root(cache_dir) / spec.name
    for source in spec.sources:
        if source.files and all((root / f.file).is_file() for f in source.files):
            return source
    return None


def fetch(name, *, mirror=None, cache_dir=None, timeout=30.0, retries=3) -> list[Path]:
    """Make sure the files of dataset ``name`` are cached and verified; return their paths.

    Sources are tried in the registry's order; a cached, verified source is used as is. A bundled
    dataset has no files (returns ``[]``). Raises FetchError / ChecksumError with a one-line
    message naming the problem, and leaves nothing unverified in the cache.
    """
    return fetch_source(name, mirror=mirror, cache_dir=cache_dir, timeout=timeout,
                        retries=retries)[1]


def fetch_source(name, *, mirror=None, cache_dir=None, timeout=30.0, retries=3):
    """Like :func:`fetch`, but returns ``(source, paths)``: which source the files belong to."""
    if not (isinstance(timeout, (int, float)) and 0 < timeout < float("inf")):
        raise ParameterError(f"timeout must be a positive, finite number of seconds; got "
                             f"{timeout!r}")
    spec = get_spec(name)
    if spec.bundled:
        return spec.source, []
    root = _cache_root(cache_dir) / spec.name
    mirror = resolve_mirror(mirror)
    for source in spec.sources:  # already cached and still valid?
        if all((root / f.file).is_file() for f in source.files):
            paths = _check_cached(spec, source, root)
            if paths:
                log.debug("%s: using the cached %s files in %s", spec.name, source.name, root)
                return source, paths
    errors = []
    for source in spec.sources:
        try:
            return source, [_fetch_file(spec, source, f, root, mirror, timeout, retries)
                            for f in source.files]
        except FetchError as exc:
            errors.append((source, type(exc)(redact(exc))))
    if len(errors) == 1:
        raise errors[0][1]
    parts = [f"{source.name}: {str(exc).removesuffix('; ' + _HINT)}" for source, exc in errors]
    hint = f"; {_HINT}" if any(str(exc).endswith(_HINT) for _, exc in errors) else ""
    raise type(errors[0][1])(f"cannot fetch {spec.name} from any source: "
                             + "; ".join(parts) + hint)


# ------------------------------------------------------------------------------------ internals

def _cache_root(cache_dir_=None) -> Path:
    return Path(cache_dir_).expanduser() if cache_dir_ is not None else cache_dir()


def _pin(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def _expected_sha256(f: SourceFile, path: Path) -> str | None:
    """The registry's sha256 of ``f``, else the one pinned beside ``path``, else None."""
    return f.sha256 or (_pin(path).read_text().strip() if _pin(path).is_file() else None)


def _check_cached(spec, source: Source, root: Path) -> list[Path] | None:
    """The cached files of ``source`` if they still verify; otherwise delete them, return None.

    Raises FetchError if a file that does not verify cannot be deleted (a read-only cache).
    """
    paths = [root / f.file for f in source.files]
    for f, path in zip(source.files, paths):
        try:
            got = sha256(path)
            expected = _expected_sha256(f, path)
        except OSError as exc:
            got, expected = None, f.sha256
            problem = f"{path.name} cannot be read ({_reason(exc)})"
        else:
            problem = f"{path.name} does not match its sha256 (expected {expected}, got {got})"
        if got is not None and expected == got:
            continue
        if got is not None and expected is None:  # put there by hand: verify by parsing, pin
            try:
                _verify_by_parsing(spec, source, f, path)
                _write_pin(path, got)
                continue
            except FetchError as exc:
                problem = str(exc).removesuffix("; the file was discarded")
        try:
            for p in paths:
                p.unlink(missing_ok=True)
                _pin(p).unlink(missing_ok=True)
                log.info("deleted the cached file %s", p)
        except OSError as exc:
            raise FetchError(f"cached file of {spec.name}: {problem}; it cannot be deleted "
                             f"({_reason(exc)}): delete {path} or {_CACHE_HINT}") from None
        warnings.warn(f"cached file of {spec.name}: {problem}; it was deleted and will be "
                      "fetched again", stacklevel=4)
        return None
    return paths


def _reason(exc: OSError) -> str:
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        return "a file is in the way (not a folder)"
    return exc.strerror or str(exc)


def _write_pin(path: Path, digest: str) -> None:
    """Pin a verified file's sha256; in a read-only cache it is verified again next time."""
    try:
        _pin(path).write_text(digest + "\n")
    except OSError as exc:
        log.debug("cannot pin the sha256 of %s (%s); it is verified again next time", path,
                  _reason(exc))
    else:
        log.debug("pinned the sha256 of %s", path)


def _cannot_write(root: Path, exc: OSError) -> FetchError:
    return FetchError(f"cannot write to the dataset cache {root}: {_reason(exc)}; {_CACHE_HINT}")


def _fetch_file(spec, source, f: SourceFile, root: Path, mirror, timeout, retries) -> Path:
    """Fetch one file into the cache through a temporary file; verify; rename."""
    target = root / f.file
    try:
        root.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(dir=root, prefix=f".{f.file}.", suffix=".part")
    except OSError as exc:
        raise _cannot_write(root, exc) from None
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            if mirror is None:
                origin = f.url
                _download(f.url, out, timeout, retries)
            elif _is_url(mirror):
                origin = f"{mirror.rstrip('/')}/{spec.name}/{urllib.parse.quote(f.file)}"
                _download(origin, out, timeout, retries)
            else:
                origin = str(Path(mirror).expanduser() / spec.name / f.file)
                _copy_from_folder(Path(mirror).expanduser(), spec.name, f.file, out)
        got = sha256(tmp)
        if f.sha256 is not None and got != f.sha256:
            raise ChecksumError(f"checksum mismatch for {f.file}: expected {f.sha256}, got {got}; "
                                "the file was discarded")
        if f.sha256 is None:
            _verify_by_parsing(spec, source, f, tmp)
        try:
            os.chmod(tmp, 0o644)  # mkstemp made it private
            os.replace(tmp, target)
        except OSError as exc:
            raise _cannot_write(root, exc) from None
        log.info("cached %s from %s (%s)", target, redact(origin),
                 "sha256 checked" if f.sha256 is not None else "verified by parsing")
        if f.sha256 is None:
            _write_pin(target, got)
        return target
    finally:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


def _verify_by_parsing(spec, source, f, tmp: Path) -> None:
    if len(source.files) != 1:  # every multi-file source so far has checksums
        raise FetchError(f"{f.file} has no sha256 and cannot be verified on its own")
    try:
        X, y = parse.parse_source(source, [tmp])
        parse.check_shape(spec, X, y, what=f"{source.name} file {f.file}")
    except DataError as exc:
        raise ChecksumError(f"{f.file} has no known sha256 and failed verification by parsing: "
                            f"{exc}; the file was discarded") from None


def _copy_from_folder(folder: Path, name: str, file: str, out) -> None:
    if not folder.is_dir():
        if "://" in str(folder) or ":/" in str(folder):
            raise FetchError(f"mirror {redact(folder)} is neither a folder nor an http(s) URL")
        what = "is not a folder" if folder.exists() else "does not exist"
        raise FetchError(f"mirror folder {folder} {what}")
    src = folder / name / file
    if not src.is_file():
        raise FetchError(f"mirror folder {folder} has no {name}/{file}")
    try:
        with open(src, "rb") as inp:
            shutil.copyfileobj(inp, out, _CHUNK)
    except OSError as exc:
        raise FetchError(f"cannot copy {src} into the cache: {_reason(exc)}") from None


def _get_once(url: str, out, timeout: float, authorization: str | None = None) -> None:
    """One GET of ``url`` into ``out``; a body shorter than its Content-Length is an error.
    ``authorization``: an ``Authorization`` header, not passed on to a redirect."""
    request = urllib.request.Request(url, headers={"User-Agent": _USER_AGENT})
    if authorization is not None:
        request.add_unredirected_header("Authorization", authorization)
    with urllib.request.urlopen(request, timeout=timeout) as response:
        expected = response.headers.get("Content-Length")
        size = 0
        for block in iter(lambda: response.read(_CHUNK), b""):
            out.write(block)
            size += len(block)
        if expected is not None and size != int(expected):
            raise http.client.IncompleteRead(b"", int(expected) - size)


def _unreachable(exc: urllib.error.URLError, host: str, timeout: float, hint: str) -> FetchError:
    """The error of a connection that could not be made."""
    if isinstance(exc.reason, (TimeoutError, socket.timeout)):
        return FetchError(f"timed out after {timeout:g} s connecting to {host}; {hint}")
    return FetchError(f"cannot reach {host} (no network?): {exc.reason}; {hint}")


def _download(url: str, out, timeout: float, retries: int) -> None:
    """GET ``url`` into the open file ``out``; retry connection faults, not HTTP 4xx.

    Credentials in ``url`` are sent as basic authentication; messages show ``url`` redacted.
    """
    shown = redact(url)
    try:
        url, authorization = _credentials(url)
        host, hint = urllib.parse.urlsplit(shown).netloc.rpartition("@")[2], _HINT
    except ValueError as exc:
        raise FetchError(f"cannot download {shown}: {redact(exc)}") from None
    attempts = max(1, int(retries))
    for attempt in range(1, attempts + 1):
        out.seek(0)
        out.truncate()
        try:
            _get_once(url, out, timeout, authorization)
            return
        except urllib.error.HTTPError as exc:
            error = FetchError(f"HTTP error {exc.code} ({exc.reason}) for {shown}")
            if exc.code < 500:
                raise error from None
        except (TimeoutError, socket.timeout):
            error = FetchError(f"timed out after {timeout:g} s reading {shown} "
                               f"({attempts} attempt{'s' * (attempts > 1)}); {hint}")
        except (http.client.InvalidURL, ValueError) as exc:  # a malformed URL: no retry
            raise FetchError(f"cannot download {shown}: {redact(exc)}") from None
        except (http.client.IncompleteRead, http.client.HTTPException, ConnectionError) as exc:
            error = FetchError(f"connection to {host} dropped while downloading {shown} "
                               f"({attempts} attempt{'s' * (attempts > 1)}): "
                               f"{type(exc).__name__}; {hint}")
        except urllib.error.URLError as exc:
            error = _unreachable(exc, host, timeout, hint)
            if isinstance(exc.reason, socket.gaierror):  # name lookup failed: retry is moot
                break
        except OSError as exc:
            error = FetchError(f"cannot download {shown}: {redact(exc)}; {hint}")
        if attempt < attempts:
            delay = RETRY_BACKOFF * 2 ** (attempt - 1)
            log.info("download attempt %d of %d failed: %s; trying again in %g s", attempt,
                     attempts, str(error).removesuffix(f"; {hint}"), delay)
            time.sleep(delay)
    raise error
