"""Behind a load balancer every request comes from the balancer, so per-address limits would count
all clients as one. ``--trusted-proxies`` names the balancers whose X-Forwarded-For is believed;
from anyone else the header is ignored, so a client cannot claim a new address per request."""

from __future__ import annotations

import httpx
import pytest
from web_helpers import free_port, start_server

from tabletown.web.server import ConfigError, check_trusted_proxies, serve

TWO_TABLES_A_MINUTE = {"TABLETOWN_LIMIT_TABLES_PER_MINUTE": "2"}


def test_trusted_proxies_are_addresses_or_networks():
    assert check_trusted_proxies(" 10.0.0.5, 10.0.0.0/24 ,") == "10.0.0.5,10.0.0.0/24"
    assert check_trusted_proxies("") == ""
    for bad in ("*", "balancer.local", "10.0.0.300"):
        with pytest.raises(ConfigError, match="trusted-proxies"):
            check_trusted_proxies(bad)


def new_tables(server: str, forwarded_for: list[str]) -> list[int]:
    with httpx.Client(base_url=server, timeout=30) as http:
        return [
            http.post(
                "/api/tables",
                json={"game": "toyrace", "seats": ["human", "human"]},
                headers={"X-Forwarded-For": address},
            ).status_code
            for address in forwarded_for
        ]


def test_a_trusted_balancers_forwarded_address_is_the_client(tmp_path):
    port = free_port()
    extra = ["--trusted-proxies", "127.0.0.1"]
    process = start_server(f"sqlite:///{tmp_path / 't.db'}", port, extra, TWO_TABLES_A_MINUTE)
    try:
        answers = new_tables(f"http://127.0.0.1:{port}", ["203.0.113.5"] * 3 + ["203.0.113.6"])
    finally:
        process.terminate()
        process.wait(10)
    # one client's third table is over its limit; another client behind the same balancer is not
    assert answers == [201, 201, 429, 201]


@pytest.mark.parametrize("given", [None, "", "10.0.0.5"])
def test_forwarded_headers_are_believed_only_from_named_balancers(monkeypatch, tmp_path, given):
    """Without a name the header is ignored (uvicorn's own proxy_headers default would believe it
    from 127.0.0.1, that is from anyone on this machine)."""
    import uvicorn

    seen: dict = {}
    monkeypatch.delenv("TABLETOWN_TRUSTED_PROXIES", raising=False)
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.update(options))
    serve(db_url=f"sqlite:///{tmp_path / 't.db'}", trusted_proxies=given)
    assert seen["proxy_headers"] is bool(given)
    assert seen.get("forwarded_allow_ips") == (given or None)
