"""The proxy in front of IR Lab's app processes: nginx with sticky sessions and upload limits, one generator.

**Sticky sessions that survive a restart.** Streamlit keeps a learner's session (pictures, K,
uploaded runs) in the memory of the process whose websocket they opened, and a file upload is a
separate HTTP request (``PUT /_stcore/upload_file/<session>/<file>``) that only that process can
accept. So every request of one browser must reach the replica that holds its websocket, also
after a replica died, the browser reconnected elsewhere and the dead one came back.

The cookie ``irlab_route`` therefore *names the replica that answered* (``r1``, ``r2``, ...): every
response, the websocket's ``101 Switching Protocols`` included, sets it from ``$upstream_addr`` (the
last address nginx tried is the one that answered). A request whose cookie names a replica goes to
that replica's own upstream group, in which every other replica is a ``backup``: when the named one
is down, another answers, the cookie follows it, and the browser's websocket (which reconnects
through the same group) and its uploads stay together on the replica that took over, also once the
dead one is back. A browser without the cookie (or with a value naming no replica: the cookie is
the browser's to change, so only known names are routed) goes to the replica with the fewest open
connections (``least_conn``: websockets are long-lived, so this spreads a class evenly). A rejected
design: ``hash $cookie consistent`` on a random value sends such a browser back to the restarted
replica while its websocket stays on the other one (uploads then fail with "Invalid session_id"
until a reload). ``ip_hash`` would send a whole class behind one NAT to a single replica.

**Limits on uploads** (``/_stcore/upload_file/``), per client address, counted on ``PUT`` only (a
``DELETE`` or ``OPTIONS`` carries no body):

* at most :data:`UPLOAD_RATE` uploads a second with a burst of :data:`UPLOAD_BURST` at once
  (``limit_req ... nodelay``: the excess is refused at once, never queued), and at most
  :data:`UPLOADS_IN_FLIGHT` bodies streaming at the same time (``limit_conn``). A class of 200
  behind one NAT address whose students all drop their first file in the same second fits in the
  burst, and two or three files each within half a minute fit in the rate; one machine that loops
  uploads gets ``429 Too Many Requests`` with ``Retry-After`` for the excess. What a session may
  *hold* is the app's budget, not the proxy's: the proxy cannot tell one student from a class.
* a body is at most :data:`MAX_BODY_BYTES`: a file of :data:`MAX_UPLOAD_BYTES` (100 MB, MB = 10^6
  bytes, as the app says) plus room for its multipart framing. A larger announced body gets ``413``
  before any of it is read.

A shared task's runs (``/api/tasks/``, irlab/sharedtask/api.py) are posted by a student's command line as the
bare body (no multipart framing), so that location takes a body of up to :data:`MAX_TASK_RUN_BYTES` (the
200 MB no task exceeds; the app counts it again, and a task's own smaller limit); a larger announced body gets
``413`` before any of it is read, in the routes' own JSON (``{"error": "..."}``), which the command line prints.

Refusals are one line of plain text with a clear status (413, 429, 502), never a hang.

**A replica that died** is left alone for :data:`REST_SECONDS` after it refused a connection: run-local
restarts it at once, and a restarted Streamlit listens before it serves, so what reached it in its first
seconds would wait for it. A student's answer (``/_irlab/class/answer``) is sent once more to another
replica when one does not reply within :data:`ANSWER_WAIT_SECONDS` s: the phone numbers its sends, so it
counts once.

**The live class's event stream** (``/_irlab/class/events``, irlab/ui/classroom/feed.py): every
waiting phone holds one open for the whole lecture, and each event must reach it at once, so that
location passes responses on unbuffered and uncached, with an hour's read timeout (the app sends a
beat every ten seconds). It follows the same sticky cookie, so a stream and its page's websocket stay
on one replica and move together when it dies. A class of 500 holds about 2,000 connections through
the proxy (websocket and stream, each both ways): each worker may open :data:`MAX_OPEN_FILES` files.

Behind a TLS terminator every request comes from the terminator's address, and the whole class
would share one address's limits: ``trusted_proxies`` names the terminators whose
``X-Forwarded-For`` gives the client's address instead (run-local, which listens on 127.0.0.1 only,
trusts 127.0.0.1). Anyone else's ``X-Forwarded-For`` is ignored, so it cannot dodge a limit.

``deploy/run-local`` calls :func:`render` with its replicas' local ports and a private folder;
``deploy/proxy-entrypoint`` (the compose file's proxy) calls it with the addresses the service name
``app`` resolves to, named by :func:`address_names`.

>>> text = render(["127.0.0.1:8601", "127.0.0.1:8602"], listen="127.0.0.1:8500", prefix="/tmp/x")
>>> "r2 irlab_r2;" in text and "server 127.0.0.1:8601 max_fails=1 fail_timeout=30s backup;" in text
True
"""

from __future__ import annotations

import re
import sys
import zlib
from collections.abc import Sequence

MAX_UPLOAD_MB = 100
"""The app's largest upload in MB (10^6 bytes): must equal the runs page's limit (tests/deploy checks)."""
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 10**6
MULTIPART_ROOM = 64 * 1024
"""Bytes a browser's multipart body adds to the file: boundaries, part headers, a long file name."""
MAX_BODY_BYTES = MAX_UPLOAD_BYTES + MULTIPART_ROOM
TASKS_PATH = "/api/tasks/"
"""A shared task's routes (irlab/sharedtask/api.py, added to the app in app.py)."""
MAX_TASK_RUN_MB = 200
"""The largest run any shared task takes, in MB: irlab/sharedtask/definition.py's MAX_RUN_MB (tests check)."""
MAX_TASK_RUN_BYTES = MAX_TASK_RUN_MB * 10**6
UPLOAD_RATE = 10
"""Uploads a second one client address may start, sustained."""
UPLOAD_BURST = 200
"""Uploads one client address may start at once above the rate (a class behind one NAT)."""
UPLOADS_IN_FLIGHT = 100
"""Upload bodies one client address may stream at the same time."""
RETRY_AFTER_SECONDS = 5
EVENTS_PATH = "/_irlab/class/events"
"""The live class's event stream (irlab/ui/classroom/feed.py's EVENTS_PATH; tests/deploy checks they agree)."""
ANSWER_PATH = "/_irlab/class/answer"
"""A student's answer (irlab/ui/classroom/feed.py's ANSWER_PATH)."""
REST_SECONDS = 30
"""How long a replica that refused a connection (it died) is left alone. Restarted, it listens at once but answers
only once it has started (seconds): what reached it meanwhile would wait; by then it serves."""
ANSWER_WAIT_SECONDS = 5
"""How long an answer waits for a replica's reply before it is sent to another (it is counted once anyway)."""
MAX_OPEN_FILES = 16384

_NAME = re.compile(r"[a-z][a-z0-9]{0,31}")


def replica_names(count: int) -> list[str]:
    """The cookie values of ``count`` replicas numbered from 1, as run-local numbers them.

    >>> replica_names(3)
    ['r1', 'r2', 'r3']
    """
    return [f"r{number}" for number in range(1, count + 1)]


def address_names(addresses: Sequence[str]) -> list[str]:
    """A name per address that stays the same whatever the other addresses are (CRC-32 of the address).

    A replica keeps its name when others come and go, so browsers' cookies keep pointing at it;
    the name does not show the internal address to the browser.

    >>> address_names(["172.18.0.3:8501"])
    ['ac8d5cd6d']
    """
    return [f"a{zlib.crc32(address.encode()):08x}" for address in addresses]


def _served_pattern(address: str) -> str:
    """A regular expression for ``$upstream_addr`` whose answering (last) address is ``address``.

    ``$upstream_addr`` lists every address tried, ``", "``-separated, the one that answered last.

    >>> _served_pattern("127.0.0.1:8601")
    '"~(^|, )127\\\\.0\\\\.0\\\\.1:8601$"'
    """
    return '"~(^|, )' + re.escape(address).replace('"', r"\"") + '$"'


def _groups(upstreams: Sequence[str], names: Sequence[str]) -> str:
    """One upstream group per replica (the replica first, every other one a backup) and one for newcomers; a replica
    that refused a connection is left alone for :data:`REST_SECONDS`."""
    rest = f" max_fails=1 fail_timeout={REST_SECONDS}s"
    blocks = ["    upstream irlab_any {\n        least_conn;\n"
              + "".join(f"        server {address}{rest};\n" for address in upstreams) + "    }\n"]
    for name, address in zip(names, upstreams, strict=True):
        backups = "".join(f"        server {other}{rest} backup;\n" for other in upstreams if other != address)
        blocks.append(f"    upstream irlab_{name} {{\n        server {address}{rest};\n{backups}    }}\n")
    return "".join(blocks)


def render(upstreams: Sequence[str], *, listen: str, names: Sequence[str] | None = None, prefix: str | None = None,
           replica_header: bool = True, foreground: bool = True, worker_connections: int = 4096,
           trusted_proxies: Sequence[str] = ()) -> str:
    """nginx.conf for ``upstreams`` (``host:port`` each, called ``names``; default r1, r2, ...), served on ``listen``.

    ``prefix``: a private folder for nginx's pid and temp files (run-local runs nginx unprivileged and
    in the foreground). ``replica_header`` adds ``X-IRLab-Replica`` (the address that answered) to
    every proxied response, for the load benchmark and the tests. ``foreground`` adds ``daemon off;``.
    ``trusted_proxies``: addresses or CIDR ranges whose ``X-Forwarded-For`` names the client.
    """
    names = list(names) if names is not None else replica_names(len(upstreams))
    if len(set(upstreams)) != len(upstreams) or len(names) != len(upstreams) or not upstreams:
        raise ValueError("render needs distinct upstream addresses, one name each")
    if len(set(names)) != len(names) or not all(_NAME.fullmatch(name) for name in names):
        raise ValueError(f"replica names must be distinct lowercase words (the cookie's value), got {names}")
    paths = temp = ""
    if prefix is not None:
        paths = f"pid {prefix}/nginx.pid;\n"
        temp = "".join(f"    {kind}_temp_path {prefix}/{kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    routes = "".join(f"        {name} irlab_{name};\n" for name in names)
    served = "".join(f"        {_served_pattern(address)} {name};\n" for name, address in zip(names, upstreams))
    replica = "        add_header X-IRLab-Replica $upstream_addr always;\n" if replica_header else ""
    real_ip = ""
    if trusted_proxies:
        real_ip = ("        # the client's address as the trusted front proxy saw it (the limits count per client)\n"
                   + "".join(f"        set_real_ip_from {proxy};\n" for proxy in trusted_proxies)
                   + "        real_ip_header X-Forwarded-For;\n        real_ip_recursive on;\n")
    proxy = f"""            proxy_pass http://$irlab_upstream;
            add_header Set-Cookie $irlab_cookie always;
{replica.replace("        ", "            ", 1)}"""
    return f"""# Generated by deploy/nginx_conf.py: edit that file, not this one.
worker_processes auto;
worker_rlimit_nofile {MAX_OPEN_FILES};
{"daemon off;" if foreground else ""}
error_log stderr warn;
{paths}
events {{
    worker_connections {worker_connections};
}}

http {{
    access_log off;
{temp}
    # a browser's cookie names the replica that answered it last; a newcomer goes to the least busy one
    map $cookie_irlab_route $irlab_upstream {{
        default irlab_any;
{routes}    }}
    # the replica that answered this request (the last address tried), by name
    map $upstream_addr $irlab_served {{
        default "";
{served}    }}
    map $irlab_served $irlab_cookie {{
        ""      "";
        default "irlab_route=$irlab_served; Path=/; HttpOnly; SameSite=Lax";
    }}
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ""      close;
    }}
    # uploads are counted per client address, PUT only (DELETE and OPTIONS carry no body)
    map $request_method $irlab_upload_client {{
        default "";
        PUT     $binary_remote_addr;
    }}
    limit_req_zone $irlab_upload_client zone=irlab_upload_rate:10m rate={UPLOAD_RATE}r/s;
    limit_conn_zone $irlab_upload_client zone=irlab_upload_flight:10m;
    limit_req_status 429;
    limit_conn_status 429;

{_groups(upstreams, names)}
    server {{
        listen {listen};
        # a file of {MAX_UPLOAD_BYTES:,} bytes (100 MB) and its multipart framing; more: 413 before reading it
        client_max_body_size {MAX_BODY_BYTES};
{real_ip}
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        # Streamlit compares the websocket's Origin with Host, port included
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        # a learner may leave a tab open through a lecture
        proxy_read_timeout 3600s;
        proxy_send_timeout 3600s;
        # a dead replica refuses at once; one that hangs is given up after 5 s (then a backup answers)
        proxy_connect_timeout 5s;
        # uploads stream to the app (it checks the size again), responses stream to the browser
        proxy_request_buffering off;
        proxy_buffering off;

        error_page 413 @too_large;
        error_page 429 @too_many;
        error_page 502 504 @unavailable;

        location / {{
{proxy}        }}

        # a student's answer: idempotent (the phone numbers its sends), so a replica that does not reply within
        # {ANSWER_WAIT_SECONDS} s is given up for another, POST or not
        location = {ANSWER_PATH} {{
            proxy_next_upstream error timeout non_idempotent;
            proxy_read_timeout {ANSWER_WAIT_SECONDS}s;
{proxy}        }}

        # a live class's event stream: each event at once, held open through a lecture (beats every 10 s)
        location = {EVENTS_PATH} {{
            proxy_buffering off;
            proxy_cache off;
            proxy_read_timeout 3600s;
{proxy}        }}

        # a shared task's run, posted as the bare body by a student's command line: up to {MAX_TASK_RUN_MB} MB (the app
        # counts again); more: 413 before reading it, in the routes' JSON (error_page here replaces the server's)
        location {TASKS_PATH} {{
            client_max_body_size {MAX_TASK_RUN_BYTES};
            error_page 413 @task_too_large;
            error_page 502 504 @unavailable;
{proxy}        }}

        location /_stcore/upload_file/ {{
            limit_req zone=irlab_upload_rate burst={UPLOAD_BURST} nodelay;
            limit_conn irlab_upload_flight {UPLOADS_IN_FLIGHT};
{proxy}        }}

        location @too_large {{
            default_type text/plain;
            return 413 "IR Lab: a file can have at most {MAX_UPLOAD_MB} MB (MB = 10^6 bytes); nothing was uploaded.\\n";
        }}
        location @task_too_large {{
            default_type application/json;
            return 413 '{{"error": "the run is larger than the {MAX_TASK_RUN_MB} MB any task takes"}}\\n';
        }}
        location @too_many {{
            default_type text/plain;
            add_header Retry-After {RETRY_AFTER_SECONDS} always;
            return 429 "IR Lab: too many uploads from your address at once; try again in a few seconds.\\n";
        }}
        location @unavailable {{
            default_type text/plain;
            add_header Retry-After {RETRY_AFTER_SECONDS} always;
            return 502 "IR Lab is starting or restarting; try again in a few seconds.\\n";
        }}
    }}
}}
"""


if __name__ == "__main__":
    sys.stdout.write(render(sys.argv[1:] or ["127.0.0.1:8501"], listen="127.0.0.1:8080"))
