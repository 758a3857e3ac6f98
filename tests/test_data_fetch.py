"""Fetching into the cache: loopback HTTP (success and faults), local mirrors, cache checks."""

import base64
import dataclasses
import http.server
import importlib
import logging
import socket
import time
import urllib.error
import urllib.request

import pytest
from click.testing import CliRunner
from conftest import loopback_server

from rulelearn.cli import main
from rulelearn.data import fetch, get_spec, load_dataset, registry
from rulelearn.errors import ChecksumError, DataError, FetchError, RuleLearnError

# the package re-exports the function fetch(), which hides the module of the same name
fetch_module = importlib.import_module("rulelearn.data.fetch")
SONAR = "sonar.all-data"
SONAR_SHA = get_spec("sonar").source.files[0].sha256

pytestmark = pytest.mark.usefixtures("data_env")


@pytest.fixture(autouse=True)
def _no_backoff(monkeypatch):
    monkeypatch.setattr(fetch_module, "RETRY_BACKOFF", 0.01)


def cache_files(cache):
    """Every file in the cache (there should be none after a failed fetch)."""
    return sorted(p.name for p in cache.rglob("*") if p.is_file()) if cache.exists() else []


# ------------------------------------------------------------------------------ loopback HTTP

@pytest.mark.network
def test_http_success_then_cached(http_mirror, mirror_dir, data_env):
    paths = fetch("sonar", mirror=http_mirror.url, timeout=5)
    assert paths == [data_env / "sonar" / SONAR]
    assert fetch_module.sha256(paths[0]) == SONAR_SHA
    assert http_mirror.hits == ["/sonar/sonar.all-data"]
    fetch("sonar", mirror=http_mirror.url)  # cached and verified: no second request
    assert len(http_mirror.hits) == 1
    assert cache_files(data_env) == [SONAR]


@pytest.mark.network
def test_http_quotes_file_names(http_mirror, mirror_dir, data_env):
    (path,) = fetch("ilpd", mirror=http_mirror.url, timeout=5)
    assert path.name == "Indian Liver Patient Dataset (ILPD).csv"
    assert http_mirror.hits == ["/ilpd/Indian%20Liver%20Patient%20Dataset%20%28ILPD%29.csv"]


@pytest.mark.network
def test_http_404_is_not_retried(http_mirror, data_env):
    http_mirror.fault = 404
    with pytest.raises(FetchError, match=r"HTTP error 404 .* for http://127\.0\.0\.1:\d+/sonar/"):
        fetch("sonar", mirror=http_mirror.url, retries=3)
    assert len(http_mirror.hits) == 1
    assert cache_files(data_env) == []


@pytest.mark.network
def test_http_500_is_retried(http_mirror, data_env):
    http_mirror.fault = 500
    with pytest.raises(FetchError, match="HTTP error 500"):
        fetch("sonar", mirror=http_mirror.url, retries=2)
    assert len(http_mirror.hits) == 2


@pytest.mark.network
def test_a_retry_is_logged(http_mirror, data_env, caplog):
    http_mirror.fault = 500
    caplog.set_level(logging.INFO, logger="rulelearn")
    with pytest.raises(FetchError):
        fetch("sonar", mirror=http_mirror.url, retries=2)
    (record,) = [r for r in caplog.records if "attempt" in r.getMessage()]
    assert record.levelno == logging.INFO
    assert record.getMessage().startswith("download attempt 1 of 2 failed: HTTP error 500")


@pytest.mark.network
def test_http_truncated_body_leaves_nothing(http_mirror, data_env):
    http_mirror.fault = "truncate"
    with pytest.raises(FetchError, match=r"dropped .*--mirror"):
        fetch("sonar", mirror=http_mirror.url, retries=2, timeout=5)
    assert len(http_mirror.hits) == 2  # bounded retry
    assert cache_files(data_env) == []


@pytest.mark.network
def test_http_wrong_checksum_discards_file(http_mirror, data_env):
    http_mirror.fault = "wrong"
    with pytest.raises(ChecksumError) as info:
        fetch("sonar", mirror=http_mirror.url)
    message = str(info.value)
    assert f"checksum mismatch for {SONAR}: expected {SONAR_SHA}, got " in message
    assert message.endswith("the file was discarded")
    assert cache_files(data_env) == []


@pytest.mark.network
def test_http_server_that_stops_answering_times_out(http_mirror, data_env):
    http_mirror.fault, http_mirror.hang_seconds = "hang", 1.5
    start = time.monotonic()
    with pytest.raises(FetchError, match=r"timed out after 0\.2 s .*--mirror"):
        fetch("sonar", mirror=http_mirror.url, timeout=0.2, retries=2)
    assert time.monotonic() - start < 1.5
    assert len(http_mirror.hits) == 2
    assert cache_files(data_env) == []


def test_no_network_says_so_and_suggests_mirror(data_env):
    with socket.socket() as s:  # a port on which nothing listens
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(FetchError, match=rf"cannot reach 127\.0\.0\.1:{port} \(no network\?\).*"
                                         "use --mirror DIR_OR_URL or set RULELEARN_MIRROR"):
        fetch("sonar", mirror=f"http://127.0.0.1:{port}", retries=1)
    assert cache_files(data_env) == []


def test_failed_name_lookup_is_not_retried(monkeypatch, data_env):
    calls = []

    def no_dns(request, timeout):
        calls.append(request.full_url)
        raise urllib.error.URLError(socket.gaierror(-2, "Name or service not known"))

    monkeypatch.setattr(urllib.request, "urlopen", no_dns)
    with pytest.raises(FetchError, match=r"^cannot fetch musk from any source: UCI: cannot reach "
                                         r"archive\.ics\.uci\.edu \(no network\?\).*; PMLB: "
                                         r"cannot reach github\.com .*; use --mirror DIR_OR_URL"):
        fetch("musk", retries=3)
    assert calls == [s.files[0].url for s in get_spec("musk").sources]


# ------------------------------------------------------------------------------- local mirrors

def test_local_mirror_copies_and_verifies(mirror_dir, data_env):
    (path,) = fetch("wdbc", mirror=mirror_dir)
    assert path == data_env / "wdbc" / "wdbc.data"
    assert path.read_bytes() == (mirror_dir / "wdbc" / "wdbc.data").read_bytes()


def test_local_mirror_with_a_bad_copy(tmp_path, mirror_dir, data_env):
    bad = tmp_path / "bad-mirror"
    (bad / "sonar").mkdir(parents=True)
    (bad / "sonar" / SONAR).write_bytes((mirror_dir / "sonar" / SONAR).read_bytes()[:-10])
    with pytest.raises(ChecksumError, match=f"expected {SONAR_SHA}, got [0-9a-f]{{64}}"):
        fetch("sonar", mirror=bad)
    assert cache_files(data_env) == []


def test_local_mirror_missing_file_or_folder(tmp_path, data_env):
    (tmp_path / "empty").mkdir()
    with pytest.raises(FetchError, match=f"mirror folder .*empty has no sonar/{SONAR}"):
        fetch("sonar", mirror=tmp_path / "empty")
    with pytest.raises(FetchError, match="mirror folder .*nowhere does not exist"):
        fetch("sonar", mirror=tmp_path / "nowhere")
    assert cache_files(data_env) == []


def test_mirror_argument_beats_environment(monkeypatch, tmp_path, mirror_dir, data_env):
    monkeypatch.setenv("RULELEARN_MIRROR", str(tmp_path / "nowhere"))
    with pytest.raises(FetchError, match="nowhere does not exist"):
        fetch("pima")
    assert fetch("pima", mirror=mirror_dir)[0].is_file()


def test_musk_falls_back_to_the_pmlb_source(mirror_dir, data_env):
    # ../shared/uci has PMLB's clean2.tsv.gz but not UCI's clean2.data.Z
    ds = load_dataset("musk", mirror=mirror_dir)
    assert ds.X.shape == (6598, 166)
    assert "pmlb" in ds.source
    assert cache_files(data_env) == ["clean2.tsv.gz"]


def test_all_sources_failing_names_each(tmp_path, data_env):
    (tmp_path / "empty").mkdir()
    with pytest.raises(FetchError,
                       match=r"cannot fetch musk from any source: UCI: .*clean2\.data\.Z"
                             r"; PMLB: .*clean2\.tsv\.gz"):
        fetch("musk", mirror=tmp_path / "empty")


def test_source_without_checksum_is_verified_by_parsing(monkeypatch, tmp_path, mirror_dir,
                                                        data_env):
    spec = get_spec("sonar")
    src = spec.source
    unknown = dataclasses.replace(src, files=(dataclasses.replace(src.files[0], sha256=None),))
    monkeypatch.setitem(registry.REGISTRY, "sonar", dataclasses.replace(spec, sources=(unknown,)))
    short = tmp_path / "short"
    (short / "sonar").mkdir(parents=True)
    lines = (mirror_dir / "sonar" / SONAR).read_bytes().splitlines(keepends=True)
    (short / "sonar" / SONAR).write_bytes(b"".join(lines[:-1]))
    with pytest.raises(ChecksumError, match="no known sha256 and failed verification by parsing: "
                                            "sonar .*expected 208 rows .*got 207"):
        fetch("sonar", mirror=short)
    assert cache_files(data_env) == []
    (path,) = fetch("sonar", mirror=mirror_dir)  # a good copy: verified, then its hash pinned
    assert (path.parent / f"{SONAR}.sha256").read_text().strip() == SONAR_SHA


# --------------------------------------------------------------------------------- the cache

def test_corrupted_cache_file_is_refetched_never_used(mirror_dir, data_env):
    (path,) = fetch("liver", mirror=mirror_dir)
    path.write_bytes(path.read_bytes().replace(b"1", b"2", 1))
    with pytest.warns(UserWarning, match="does not match its sha256"):
        fetch("liver", mirror=mirror_dir)
    assert path.read_bytes() == (mirror_dir / "liver" / "bupa.data").read_bytes()


def test_cache_actions_are_logged_at_info_and_cache_hits_at_debug(mirror_dir, data_env, caplog):
    caplog.set_level(logging.DEBUG, logger="rulelearn")
    (path,) = fetch("liver", mirror=mirror_dir)
    path.write_bytes(b"garbage")
    with pytest.warns(UserWarning, match="deleted"):
        fetch("liver", mirror=mirror_dir)
    fetch("liver", mirror=mirror_dir)
    lines = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert lines == [
        ("INFO", f"cached {path} from {mirror_dir / 'liver' / 'bupa.data'} (sha256 checked)"),
        ("INFO", f"deleted the cached file {path}"),
        ("INFO", f"cached {path} from {mirror_dir / 'liver' / 'bupa.data'} (sha256 checked)"),
        ("DEBUG", f"liver: using the cached UCI files in {path.parent}")]


def test_verbose_shows_the_log_on_stderr(mirror_dir, data_env):
    runner = CliRunner()
    args = ["datasets", "fetch", "liver", "--mirror", str(mirror_dir)]
    quiet = runner.invoke(main, args)
    assert quiet.exit_code == 0 and quiet.stderr == ""
    (data_env / "liver" / "bupa.data").unlink()
    verbose = runner.invoke(main, ["-v", *args])
    assert verbose.exit_code == 0, verbose.output
    assert verbose.stderr.startswith("INFO rulelearn.data.fetch: cached ")
    assert "DEBUG" not in verbose.stderr
    debug = runner.invoke(main, ["-vv", *args])
    assert debug.stderr == f"DEBUG rulelearn.data.fetch: liver: using the cached UCI files in " \
                           f"{data_env / 'liver'}\n"
    again = runner.invoke(main, args)  # the handler left with the command
    assert again.stderr == ""
    assert logging.getLogger("rulelearn").handlers == []
    assert logging.getLogger("rulelearn").level == logging.NOTSET


def test_corrupted_cache_file_without_a_source_is_an_error(tmp_path, mirror_dir, data_env):
    (path,) = fetch("liver", mirror=mirror_dir)
    path.write_bytes(b"garbage")
    (tmp_path / "empty").mkdir()
    with pytest.warns(UserWarning, match="deleted"), pytest.raises(FetchError, match="has no"):
        load_dataset("liver", mirror=tmp_path / "empty")
    assert cache_files(data_env) == []


def test_cache_dir_follows_environment(data_env):
    assert fetch_module.cache_dir() == data_env


def test_unknown_and_bundled_names():
    with pytest.raises(DataError, match=r"unknown dataset 'sonr'; did you mean 'sonar'\?"):
        fetch("sonr")
    assert fetch("wdbc_bundled") == []


# ----------------------------------------------------------------------------------------- CLI

def test_cli_fetch_all_then_info(mirror_dir, data_env):
    pytest.importorskip("rulelearn.binarize", reason="info needs the binarizer")
    runner = CliRunner()
    result = runner.invoke(main, ["datasets", "fetch", "--all", "--mirror", str(mirror_dir)])
    assert result.exit_code == 0, result.output
    listing = runner.invoke(main, ["datasets", "list"]).output
    assert "cached (PMLB)" in listing and " no\n" not in listing
    result = runner.invoke(main, ["datasets", "info", "transfusion"])
    assert result.exit_code == 0, result.output
    assert "748 rows x 4 features" in result.output
    assert "0=570 (76.2%), 1=178 (23.8%)" in result.output


def test_cli_errors_are_one_line(tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["datasets", "fetch", "sonr"])
    assert result.exit_code == 1
    assert result.output.strip() == "Error: unknown dataset 'sonr'; did you mean 'sonar'?"
    result = runner.invoke(main, ["datasets", "fetch", "wdbc", "--mirror", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0 and "has no wdbc/wdbc.data" in result.output
    assert runner.invoke(main, ["datasets", "fetch"]).exit_code == 2


# ------------------------------------------------------------- unwritable or odd caches (CLI)

def one_line_error(result, *words):
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and result.exception is None or \
        isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: "), result.stderr
    for word in words:
        assert word in result.stderr, (word, result.stderr)


@pytest.mark.parametrize("command", ["fetch", "info"])
def test_read_only_cache_is_one_line(mirror_dir, data_env, read_only, command):
    data_env.mkdir()
    read_only(data_env)
    result = CliRunner().invoke(main, ["datasets", command, "liver", "--mirror", str(mirror_dir)])
    one_line_error(result, f"cannot write to the dataset cache {data_env / 'liver'}",
                   "Permission denied", "set RULELEARN_DATA to a writable folder")


@pytest.mark.parametrize("command", ["fetch", "info"])
def test_cache_that_is_a_file_is_one_line(mirror_dir, data_env, command):
    data_env.write_text("not a folder")
    result = CliRunner().invoke(main, ["datasets", command, "liver", "--mirror", str(mirror_dir)])
    one_line_error(result, "cannot write to the dataset cache", "not a folder")
    assert data_env.read_text() == "not a folder"


def test_truncated_file_in_a_read_only_cache_is_one_line(mirror_dir, data_env, read_only):
    (path,) = fetch("liver", mirror=mirror_dir)
    path.write_bytes(path.read_bytes()[:1000])
    read_only(data_env)
    result = CliRunner().invoke(main, ["datasets", "info", "liver", "--mirror", str(mirror_dir)])
    one_line_error(result, "bupa.data does not match its sha256", "cannot be deleted",
                   "Permission denied")
    assert len(path.read_bytes()) == 1000


def test_a_good_read_only_cache_is_used(mirror_dir, data_env, read_only):
    fetch("liver", mirror=mirror_dir)
    read_only(data_env)
    result = CliRunner().invoke(main, ["datasets", "info", "liver"])
    assert result.exit_code == 0, result.output
    assert "345 rows" in result.output


def test_list_checks_cached_files(mirror_dir, data_env):
    status = fetch_module.cache_status
    assert status(get_spec("liver")) == "no"
    (path,) = fetch("liver", mirror=mirror_dir)
    assert status(get_spec("liver")) == "cached (UCI)"
    path.write_bytes(path.read_bytes()[:1000])  # truncated
    assert status(get_spec("liver")) == "corrupt (UCI: bupa.data)"
    listing = CliRunner().invoke(main, ["datasets", "list"])
    assert listing.exit_code == 0
    assert any(line.startswith("liver") and line.endswith("corrupt (UCI: bupa.data)")
               for line in listing.output.splitlines()), listing.output
    path.unlink()
    assert status(get_spec("liver")) == "no"
    spec = get_spec("liver")
    two = dataclasses.replace(spec.source, files=spec.source.files * 2 + (dataclasses.replace(
        spec.source.files[0], file="other.data"),))
    path.write_bytes(b"x")
    assert status(dataclasses.replace(spec, sources=(two,))) == "partial (UCI: 2 of 3 files)"


def test_a_file_put_in_the_cache_by_hand_is_unverified_until_used(mirror_dir, data_env,
                                                                  monkeypatch):
    spec = get_spec("sonar")
    source = dataclasses.replace(spec.source, files=(dataclasses.replace(
        spec.source.files[0], sha256=None),))
    monkeypatch.setitem(registry.REGISTRY, "sonar", dataclasses.replace(spec, sources=(source,)))
    (data_env / "sonar").mkdir(parents=True)
    (data_env / "sonar" / SONAR).write_bytes((mirror_dir / "sonar" / SONAR).read_bytes())
    assert fetch_module.cache_status(get_spec("sonar")) == "cached (UCI, unverified)"


@pytest.mark.parametrize("args, code, words", [
    (["--timeout", "nan"], 2, ["'--timeout'", "not a finite number"]),
    (["--timeout", "inf"], 2, ["'--timeout'", "not a finite number"]),
    (["--timeout", "0"], 2, ["'--timeout'"]),
    (["--mirror", "http://[::1"], 1, ["cannot download http://[::1/liver/bupa.data",
                                      "Invalid IPv6 URL"]),
    (["--mirror", "ftp://example.org/"], 1, ["neither a folder nor an http(s) URL"]),
])
def test_bad_fetch_options_are_one_line(data_env, args, code, words):
    result = CliRunner().invoke(main, ["datasets", "fetch", "liver", *args])
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    error = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert len(error) == 1 and all(word in error[0] for word in words), result.stderr
    assert cache_files(data_env) == []


def test_library_fetch_checks_the_timeout(data_env):
    with pytest.raises(RuleLearnError, match="timeout must be a positive, finite number"):
        fetch("liver", timeout=float("nan"))


# ------------------------------------------------------------------------ credentials in a URL

class _BasicAuthHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder to requests with the right basic-auth header only (else 401)."""

    def do_GET(self):
        self.server.seen.append(self.headers.get("Authorization"))
        if self.headers.get("Authorization") != self.server.expected:
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="mirror"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        super().do_GET()

    def log_message(self, *args):
        pass


@pytest.fixture
def auth_mirror(mirror_dir):
    """A loopback server of the mirror that wants user ``me`` and password ``s3cr3t:p@ss``."""
    with loopback_server(_BasicAuthHandler, mirror_dir) as server:
        server.expected = "Basic " + base64.b64encode(b"me:s3cr3t:p@ss").decode()
        server.seen = []
        yield server


SECRET = "s3cr3t%3Ap%40ss"  # s3cr3t:p@ss, percent-encoded


def test_credentials_in_a_mirror_url_are_sent_as_basic_auth(auth_mirror, data_env, caplog):
    port = auth_mirror.server_address[1]
    with caplog.at_level(logging.DEBUG, logger="rulelearn"):
        (path,) = fetch("sonar", mirror=f"http://me:{SECRET}@127.0.0.1:{port}/", timeout=5)
    assert path.is_file() and auth_mirror.seen == [auth_mirror.expected]
    assert "s3cr3t" not in caplog.text and f"me:***@127.0.0.1:{port}" in caplog.text


def test_credentials_are_redacted_in_every_error(auth_mirror, data_env, caplog):
    port = auth_mirror.server_address[1]
    with caplog.at_level(logging.DEBUG, logger="rulelearn"):
        with pytest.raises(FetchError) as wrong:
            fetch("sonar", mirror=f"http://me:wr0ngpw@127.0.0.1:{port}/", retries=2)
    assert "HTTP error 401" in str(wrong.value) and "wr0ngpw" not in str(wrong.value)
    assert f"me:***@127.0.0.1:{port}/sonar/" in str(wrong.value)
    with socket.socket() as s:  # a port on which nothing listens
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    with caplog.at_level(logging.DEBUG, logger="rulelearn"):
        with pytest.raises(FetchError) as unreachable:
            fetch("sonar", mirror=f"http://user:{SECRET}@127.0.0.1:{closed}", retries=2)
    assert f"cannot reach 127.0.0.1:{closed}" in str(unreachable.value)
    assert "s3cr3t" not in str(unreachable.value) and "s3cr3t" not in caplog.text
    assert "wr0ngpw" not in caplog.text


def test_credentials_are_redacted_on_the_command_line(auth_mirror, data_env):
    port = auth_mirror.server_address[1]
    result = CliRunner().invoke(main, ["-vv", "datasets", "fetch", "sonar", "--mirror",
                                       f"http://me:wr0ngpw@127.0.0.1:{port}/"])
    assert result.exit_code == 1 and "wr0ngpw" not in result.output
    assert "me:***@" in result.stderr
    result = CliRunner().invoke(main, ["-v", "datasets", "fetch", "sonar", "--mirror",
                                       f"http://me:{SECRET}@127.0.0.1:{port}/"])
    assert result.exit_code == 0, result.output
    assert "s3cr3t" not in result.output
    result = CliRunner().invoke(main, ["datasets", "fetch", "liver", "--mirror",
                                       f"ftp://me:{SECRET}@127.0.0.1:{port}/"])
    assert result.exit_code == 1 and "s3cr3t" not in result.output and "me:***@" in result.output


def test_redact():
    redact = fetch_module.redact
    assert redact("get https://u:p%40w@h.org:8/x and http://tok@h/y") == \
        "get https://u:***@h.org:8/x and http://***@h/y"
    assert redact("https://h.org/a@b") == "https://h.org/a@b"  # an @ in the path is not userinfo
    assert redact("no url here: a@b") == "no url here: a@b"
