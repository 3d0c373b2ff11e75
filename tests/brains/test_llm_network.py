"""The network as written (issue 24, item 5), against the local protocol server: a
redirect is never followed and is named with its target; a malformed base URL is one
line, never a traceback; an API key no HTTP header can carry is named as the problem,
and nothing is sent with it."""

from __future__ import annotations

import pytest
from llm_fakes import ask
from llm_helpers import SECRET
from protocol_server import ProtocolServer

from game.brains.llm.endpoint import key_problem, url_problem
from game.brains.llm.model import EmbedRequest, EndpointDown
from game.brains.llm.openai_chat import OpenAIChat
from game.cli import main
from game.core.errors import SmallvilleError


@pytest.fixture
def cli(tmp_path, monkeypatch, capsys):
    """`main.py` in this process (a fresh one costs seconds): (exit code, stdout, stderr)
    of one command, with no config file and the key in the environment."""
    monkeypatch.setenv("SMALLVILLE_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("SMALLVILLE_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)

    def run(args: list[str], key: str = SECRET) -> tuple[int, str, str]:
        monkeypatch.setenv("OPENAI_API_KEY", key)
        code = main(args)
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


@pytest.fixture
def servers():
    """An endpoint, and the second server its redirects point at."""
    with ProtocolServer() as first, ProtocolServer() as second:
        yield first, second


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_a_redirect_is_not_followed_and_names_its_target(servers, status) -> None:
    first, second = servers
    first.redirect = (status, second.url)
    model = OpenAIChat(first.url, lambda: SECRET, 5.0)
    try:
        with pytest.raises(EndpointDown) as chat:
            model.chat(ask("1. Klaus Mueller remembers the party at Hobbs Cafe"))
        with pytest.raises(EndpointDown) as embed:
            model.embed(EmbedRequest(("Klaus Mueller's memories",), "e"))
    finally:
        model.close()
    for caught, path in ((chat, "/chat/completions"), (embed, "/embeddings")):
        said = str(caught.value)
        assert f"redirects ({status}) to '{second.url}{path}'" in said
        assert "not followed" in said and "\n" not in said
    assert len(first.requests) == 2 and second.requests == []  # no prompt went on


def test_the_doctor_names_a_redirect_and_the_second_server_hears_nothing(servers, cli) -> None:
    first, second = servers
    first.redirect = (307, second.url)
    code, out, _ = cli(["doctor", "--base-url", first.url, "--model", "m"])
    assert code == 1
    verdict = next(line for line in out.splitlines() if line.startswith("verdict:"))
    assert f"redirects (307) to '{second.url}/" in verdict
    assert second.requests == []


MALFORMED = [
    "http://[::1/v1",  # an IPv6 address with no closing bracket
    "http://localhost:11434/v1\r\nX-Injected: yes",
    "http://localhost:11434/v1\n",
    "http://local host/v1",
    "http://localhost:eleven/v1",
    "localhost:11434/v1",  # no scheme
    "http:///v1",  # no host
]


@pytest.mark.parametrize("url", MALFORMED)
def test_a_malformed_base_url_is_one_line(url, cli) -> None:
    code, _, err = cli(["doctor", "--base-url", url, "--model", "m"])
    assert code == 2
    assert err.startswith("error: the base URL ") and "is malformed" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    with pytest.raises(SmallvilleError, match="is malformed"):
        OpenAIChat(url, lambda: SECRET)


def test_a_malformed_base_url_stops_a_run_in_one_line(cli) -> None:
    args = ["run", "--scenario", "three", "--hours", "1", "--brain", "llm", "--model", "m"]
    code, _, err = cli([*args, "--base-url", "http://[::1/v1", "--quiet"])
    assert code == 2
    assert err.strip().splitlines() == [
        "error: the base URL 'http://[::1/v1' is malformed: it cannot be read as a URL "
        "(Invalid IPv6 URL); fix --base-url, $OPENAI_BASE_URL or base_url in the config file"
    ]


def test_a_malformed_base_url_loading_a_save_blames_the_url_not_the_save(cli) -> None:
    """With --load, the URL's line came as '<save>/save.json: the base URL ...': the
    save, which was whole, named as the problem."""
    code, _, _ = cli(["run", "--scenario", "three", "--hours", "0.1", "--save", "s", "--quiet"])
    assert code == 0
    args = ["interview", "--load", "s", "--agent", "Klaus Mueller", "hi", "--talk-brain", "llm"]
    code, _, err = cli([*args, "--model", "m", "--base-url", "http://[::1/v1"])
    assert code == 2
    assert err.startswith("error: the base URL 'http://[::1/v1' is malformed"), err
    assert "save.json" not in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "url",
    [
        "",
        "http://localhost:11434/v1",
        "https://api.openai.com/v1",
        "http://[::1]:8080/v1",
        "http://user:pass@example.org/v1",
    ],
)
def test_a_usable_base_url_passes(url) -> None:
    assert url_problem(url) == ""


BAD_KEYS = [
    (SECRET + "\n", "ends in a newline"),
    (SECRET + " ", "ends in a space"),
    (SECRET + "\r\n", "ends in a newline"),
    ("\t" + SECRET, "starts with a tab"),
    (SECRET[:8] + " " + SECRET[8:], "holds a space at position 9"),
    (SECRET[:8] + "\u2019" + SECRET[8:], "holds a non-ASCII character (U+2019"),
    (SECRET + "\u200b", "holds a control character (U+200B"),
    (SECRET[:8] + "\x00" + SECRET[8:], "holds a control character (U+0000)"),
]


@pytest.mark.parametrize(("key", "named"), BAD_KEYS)
def test_a_key_no_header_can_carry_is_named_and_never_sent(key, named) -> None:
    with ProtocolServer() as server:
        model = OpenAIChat(server.url, lambda: key, 5.0, key_source=lambda: "$MY_KEY")
        try:
            for call in (lambda: model.chat(ask()), lambda: model.embed(EmbedRequest(("x",), "e"))):
                with pytest.raises(EndpointDown) as caught:
                    call()
                said = str(caught.value)
                assert said.startswith(f"the API key from $MY_KEY {named}")
                assert "not sent" in said and SECRET not in said and "\n" not in said
        finally:
            model.close()
        assert server.requests == []


def test_the_doctor_names_a_key_with_a_trailing_newline(cli) -> None:
    with ProtocolServer() as server:
        code, out, err = cli(["doctor", "--base-url", server.url, "--model", "m"], SECRET + "\n")
        assert server.requests == []
    assert code == 1
    assert "verdict: unusable: the API key from $OPENAI_API_KEY ends in a newline" in out
    assert "cannot reach" not in out and SECRET not in out + err


@pytest.mark.parametrize("key", ["", SECRET, "sk-proj-" + "A" * 40, "ollama"])
def test_a_usable_key_passes(key) -> None:
    assert key_problem(key) == ""


def test_config_names_a_key_no_request_can_carry_and_never_shows_it(cli) -> None:
    code, out, _ = cli(["config"], SECRET + "\n")
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith("# api key:"))
    assert line == (
        "# api key: **** (from $OPENAI_API_KEY): it ends in a newline, so it is never sent"
    )
    code, out, _ = cli(["config"])
    assert f"# api key: ****{SECRET[-4:]} (from $OPENAI_API_KEY)" in out


def test_the_doctor_never_prints_a_url_password(cli) -> None:
    with ProtocolServer() as server:
        url = server.url.replace("http://", "http://smallville:pw-Hunter2-Zq9@")
        code, out, err = cli(["doctor", "--base-url", url, "--model", "m"])
    assert code == 0 and f"asking {server.url} about model 'm':" in out
    assert "Hunter2" not in out + err
