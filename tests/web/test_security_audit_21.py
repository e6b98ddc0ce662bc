"""Security audit 21: per-address limits and IPv6. A client on IPv6 is handed a whole /64 and may
send from any address in it, so limits counted per full address (tables a minute, bot tables,
sockets, chat, analyses...) let one client take a fresh allowance with every request. Limits now
count an IPv6 client by its /64, and IPv4 mapped into IPv6 as the IPv4 address."""

from __future__ import annotations

from test_trusted_proxies import TWO_TABLES_A_MINUTE, new_tables
from web_helpers import free_port, start_server

from tabletown.web.access import address_key


def test_an_ipv6_client_is_its_64_and_ipv4_stays_itself():
    assert address_key("203.0.113.5") == "203.0.113.5"
    assert address_key("2001:db8:1:2::1") == address_key("2001:db8:1:2:ffff:ffff:ffff:fffe")
    assert address_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:203.0.113.5") == "203.0.113.5"
    assert address_key("fe80::1%eth0") == "fe80::/64"
    assert address_key("testclient") == "testclient"  # not an address: kept as it is


def test_one_ipv6_client_cannot_renew_its_allowance_by_changing_address(tmp_path):
    port = free_port()
    extra = ["--trusted-proxies", "127.0.0.1"]
    process = start_server(f"sqlite:///{tmp_path / 't.db'}", port, extra, TWO_TABLES_A_MINUTE)
    try:
        one_client = ["2001:db8:7:1::1", "2001:db8:7:1::2", "2001:db8:7:1:abcd::3"]
        answers = new_tables(
            f"http://127.0.0.1:{port}", [*one_client, "2001:db8:7:2::1", "::ffff:198.51.100.7"]
        )
        again = new_tables(f"http://127.0.0.1:{port}", ["198.51.100.7", "198.51.100.7"])
    finally:
        process.terminate()
        process.wait(10)
    # the third table from the same /64 is over its limit; another /64 is another client; an
    # IPv4-mapped address is the IPv4 client, whose third table (second here) is refused
    assert answers == [201, 201, 429, 201, 201]
    assert again == [201, 429]
