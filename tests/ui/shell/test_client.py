"""The client's address as the limits count it: the peer, or what a trusted proxy says the peer is; never what a
client says about itself."""

from __future__ import annotations

from irlab.ui.shell.client import address_behind_proxies, address_group, trusted_proxies

COMPOSE = trusted_proxies({"IRLAB_TRUSTED_PROXIES": "172.16.0.0/12"})


def test_a_proxy_on_this_machine_names_the_client_and_a_client_cannot_name_itself():
    # run-local: nginx on 127.0.0.1 appends the address it saw; whatever the client sent stays on the left
    assert address_behind_proxies("127.0.0.1", ["6.6.6.6, 10.1.2.3"]) == "10.1.2.3"
    assert address_behind_proxies("::1", ["10.1.2.3"]) == "10.1.2.3"
    # a client reaching the app directly sends the header itself: it is not believed
    assert address_behind_proxies("10.9.9.9", ["127.0.0.1", "1.1.1.1"]) == "10.9.9.9"
    # a header that is not an address list (a client writing through a proxy that does not append)
    assert address_behind_proxies("127.0.0.1", ["1.1.1.1, not-an-address"]) == "127.0.0.1"
    # several Forwarded-For headers read as one list, right-most first
    assert address_behind_proxies("127.0.0.1", ["6.6.6.6", "10.1.2.3"]) == "10.1.2.3"


def test_compose_trusts_its_own_network_only_when_told():
    assert address_behind_proxies("172.18.0.5", ["6.6.6.6, 192.0.2.7"]) == "172.18.0.5"  # not told: the proxy
    assert address_behind_proxies("172.18.0.5", ["6.6.6.6, 192.0.2.7"], COMPOSE) == "192.0.2.7"
    # a TLS terminator in front of the compose proxy, also trusted: skipped, the client is left of it
    both = trusted_proxies({"IRLAB_TRUSTED_PROXIES": "172.16.0.0/12, 203.0.113.10"})
    assert address_behind_proxies("172.18.0.5", ["6.6.6.6, 192.0.2.7, 203.0.113.10"], both) == "192.0.2.7"


def test_an_ipv6_client_counts_by_its_network_and_mapped_ipv4_as_ipv4():
    assert address_group("2001:db8::1") == address_group("2001:db8::ffff") == "2001:db8::/64"
    assert address_behind_proxies("::ffff:10.1.2.3", []) == "10.1.2.3"
    assert address_behind_proxies("127.0.0.1", ["[2001:db8::7]:5123"]) == "2001:db8::7"
