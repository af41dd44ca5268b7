"""Who is asking: the client's network address, as the server's limits count it.

A limit per address (uploads held, joins tried) must count the student's machine, not the proxy in
front of the app. Streamlit's ``st.context.ip_address`` is no help behind a proxy: it gives the
proxy's address, and ``None`` for one on this machine (deploy/run-local's nginx), so every student
would share one budget, or none. What the server knows for sure is the TCP peer of the browser's
websocket (``client_context.remote_ip``); a proxy in front adds the address it saw to the end of
``X-Forwarded-For`` (nginx's ``$proxy_add_x_forwarded_for``).

The rule (:func:`address_behind_proxies`): when the peer is a **trusted proxy**, read
``X-Forwarded-For`` from its right end, skip the entries that are trusted proxies too, and take the
first one that is not: the address the outermost trusted proxy saw. Entries further left were
written by the client and are never believed (anyone can send ``X-Forwarded-For: 1.2.3.4``). A peer
that is not a trusted proxy is the client, whatever header it sends.

Trusted proxies are the addresses a proxy on this machine connects from, 127.0.0.1 and ::1 (as
deploy/run-local runs nginx; the rest of 127/8 is this machine too, but no proxy uses it unasked, and
the proxy tests use it for clients), and the addresses or CIDR ranges in ``IRLAB_TRUSTED_PROXIES``
(comma-separated; deploy/compose.yaml names its proxy's fixed address). Name only proxies: an address
trusted here may name any client it likes. An IPv6 client counts by its /64 network in :func:`address_group`, since
one machine may use any address of its /64.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable, Sequence

from streamlit.runtime.scriptrunner import get_script_run_ctx

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

LOOPBACK: tuple[Network, ...] = (ipaddress.ip_network("127.0.0.1/32"), ipaddress.ip_network("::1/128"))


def trusted_proxies(environ: dict[str, str] | None = None) -> tuple[Network, ...]:
    """Loopback, and the networks named in ``IRLAB_TRUSTED_PROXIES`` (entries that are not an address are skipped).

    >>> [str(n) for n in trusted_proxies({"IRLAB_TRUSTED_PROXIES": "10.0.0.5, 172.16.0.0/12, nonsense"})]
    ['127.0.0.1/32', '::1/128', '10.0.0.5/32', '172.16.0.0/12']
    """
    environ = os.environ if environ is None else environ
    networks = list(LOOPBACK)
    for entry in environ.get("IRLAB_TRUSTED_PROXIES", "").split(","):
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            continue
    return tuple(networks)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address, proxies: Sequence[Network]) -> bool:
    return any(address.version == network.version and address in network for network in proxies)


def address_behind_proxies(peer: str | None, forwarded: Iterable[str], proxies: Sequence[Network] = LOOPBACK
                           ) -> str | None:
    """The client's address: ``peer``, or, when ``peer`` is a trusted proxy, the right-most untrusted entry of
    ``X-Forwarded-For`` (``forwarded``: every such header's value, in order). None when ``peer`` is unknown.

    >>> address_behind_proxies("127.0.0.1", ["203.0.113.9, 10.1.2.3"])  # nginx appended 10.1.2.3
    '10.1.2.3'
    >>> address_behind_proxies("198.51.100.7", ["10.1.2.3"])  # not a proxy: its header is not believed
    '198.51.100.7'
    >>> address_behind_proxies("127.0.0.1", ["1.2.3.4, 127.0.0.1"])  # two proxies on this machine
    '1.2.3.4'
    >>> address_behind_proxies("127.0.0.1", []), address_behind_proxies(None, ["1.2.3.4"])
    ('127.0.0.1', None)
    """
    client = _address(peer) if peer else None
    if client is None:
        return None
    if _trusted(client, proxies):
        entries = [entry for value in forwarded for entry in value.split(",")]
        for entry in reversed(entries):
            address = _address(entry)
            if address is None:
                break  # not what a proxy writes: believe nothing further left
            client = address
            if not _trusted(address, proxies):
                break
    return str(client)


def address_group(address: str | None) -> str | None:
    """The unit a per-address limit counts: an IPv4 address, or an IPv6 address's /64 network.

    >>> address_group("2001:db8:1:2:aaaa::1"), address_group("10.1.2.3"), address_group(None)
    ('2001:db8:1:2::/64', '10.1.2.3', None)
    """
    if address is None:
        return None
    parsed = _address(address)
    if parsed is None:
        return address
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def session_client_address(session_id: str | None) -> str | None:
    """The client address of a browser session (from its websocket's handshake), or None when unknown."""
    if session_id is None:
        return None
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return None
    client = Runtime.instance().get_client(session_id)
    context = getattr(client, "client_context", None) if client is not None else None
    if context is None:
        return None
    forwarded = [value for name, value in context.headers if name.lower() == "x-forwarded-for"]
    return address_behind_proxies(context.remote_ip, forwarded, trusted_proxies())


def client_address() -> str | None:
    """The address of the client whose script run this is (see the module's text), or None when unknown."""
    ctx = get_script_run_ctx(suppress_warning=True)
    return session_client_address(ctx.session_id if ctx is not None else None)


def request_address(peer: str | None, headers: Iterable[tuple[str, str]]) -> str | None:
    """The client address of an HTTP request the app's own routes answer (the live class's event stream and answers):
    the same rule as for a browser session, from the request's TCP peer and its headers, counted by
    :func:`address_group`.

    >>> request_address("127.0.0.1", [("x-forwarded-for", "6.6.6.6, 10.1.2.3"), ("host", "x")])
    '10.1.2.3'
    """
    forwarded = [value for name, value in headers if name.lower() == "x-forwarded-for"]
    return address_group(address_behind_proxies(peer, forwarded, trusted_proxies()))
