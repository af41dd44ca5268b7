"""``python -m irlab task create|submit|leaderboard|export|release``: a class's shared task from the command line.

Two ways to reach a task:

* **the store** (the lecturer, on the server's machine): the class store named by ``IRLAB_CLASS_DB``
  (or ``--db URL``). Whoever can read that database can read the hidden qrels, so this is the
  lecturer's and the server's way, never a student's;
* **the server** (``--server https://irlab.example.org``): the app's routes (:mod:`irlab.sharedtask.api`),
  exactly what the browser does. A student's way: their token goes in an ``Authorization`` header.

Secrets: ``--token`` / ``--key``, or (better: not in the shell's history and the process list) the
environment variables ``IRLAB_TASK_TOKEN`` / ``IRLAB_TASK_KEY``.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

HELP = "a class's shared task: create it, submit runs, see the leaderboard, export the results"
EPILOG = """\
examples (the lecturer, on the server):
  python -m irlab task create --title "Mini TREC" --qrels hidden.qrels --deadline 2026-12-20T23:59Z \\
      --measure AP --measure nDCG@10 --roster students.txt --baseline bm25.run --links links.csv \\
      --base-url https://irlab.example.org
  python -m irlab task leaderboard ABCDEF --key "$KEY"
  python -m irlab task export ABCDEF --key "$KEY" -o results.csv
  python -m irlab task release ABCDEF --key "$KEY" --what per_topic --what qrels
a student, from their own machine:
  IRLAB_TASK_TOKEN=... python -m irlab task submit ABCDEF my.run --server https://irlab.example.org
  IRLAB_TASK_TOKEN=... python -m irlab task leaderboard ABCDEF --server https://irlab.example.org
"""


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``task`` command and its subcommands."""
    parser = commands.add_parser("task", help=HELP, description=HELP + ".", epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    create = actions.add_parser("create", help="create a task from hidden qrels (the lecturer, on the server)")
    create.add_argument("--title", required=True)
    create.add_argument("--qrels", required=True, type=Path, help="the hidden qrels file (.gz accepted)")
    create.add_argument("--deadline", required=True, help="ISO time with a zone, e.g. 2026-12-20T23:59Z")
    create.add_argument("--measure", action="append", dest="measures", metavar="NAME",
                        help="a measure (repeat; the first ranks the leaderboard; default AP, nDCG@10, P@10, RR)")
    create.add_argument("--max-submissions", type=int, default=3)
    create.add_argument("--max-run-mb", type=int, default=100)
    create.add_argument("--show", choices=("primary", "all"), default="primary",
                        help="measures students see before the deadline (default: the primary one)")
    create.add_argument("--test", choices=("t", "wilcoxon", "randomisation"), default="t")
    who = create.add_mutually_exclusive_group(required=True)
    who.add_argument("--roster", type=Path, help="students' names, one per line: one personal link each")
    who.add_argument("--class-code", help="a live class: its students take part with their seats")
    create.add_argument("--class-key", help="the class's lecturer key (or IRLAB_CLASS_KEY)")
    create.add_argument("--baseline", type=Path, help="the baseline run every student is compared with")
    create.add_argument("--topics", type=Path, help="the topics' texts (TREC format, tab-separated or JSON lines)")
    create.add_argument("--links", type=Path, help="write each student's token and link here (CSV)")
    create.add_argument("--base-url", default="", help="the app's address, for the links")
    create.add_argument("--db", help="the class store's URL (default: IRLAB_CLASS_DB)")
    create.set_defaults(run=run_create)

    submit = actions.add_parser("submit", help="submit a run (a student: with --server)")
    submit.add_argument("code")
    submit.add_argument("run_file", type=Path, metavar="run", help="the run file (.gz accepted)")
    _reach(submit, secret="token")
    submit.set_defaults(run=run_submit)

    board = actions.add_parser("leaderboard", help="the leaderboard as your token or key may see it")
    board.add_argument("code")
    board.add_argument("--format", choices=("text", "json"), default="text")
    _reach(board, secret="either")
    board.set_defaults(run=run_board)

    export = actions.add_parser("export", help="every scored submission with every measure (the lecturer)")
    export.add_argument("code")
    export.add_argument("-o", "--output", type=Path, help="the CSV file (default: standard output)")
    export.add_argument("--pool", type=Path, help="also write each student's best run's kept top documents here")
    _reach(export, secret="key", server=False)
    export.set_defaults(run=run_export)

    release = actions.add_parser("release", help="release per-topic scores, every measure or the qrels "
                                                 "(after the deadline)")
    release.add_argument("code")
    release.add_argument("--what", action="append", required=True, choices=("measures", "per_topic", "qrels"))
    _reach(release, secret="key", server=False)
    release.set_defaults(run=run_release)


def _reach(parser: argparse.ArgumentParser, *, secret: str, server: bool = True) -> None:
    if secret in ("token", "either"):
        parser.add_argument("--token", help="your personal token (or IRLAB_TASK_TOKEN)")
    if secret in ("key", "either"):
        parser.add_argument("--key", help="the task's lecturer key (or IRLAB_TASK_KEY)")
    if server:
        parser.add_argument("--server", help="the app's address (a student's way; without it: the store)")
    parser.add_argument("--db", help="the class store's URL (default: IRLAB_CLASS_DB)")


def _secret(args: argparse.Namespace, kind: str) -> str:
    from irlab.cli.common import CliError

    value = getattr(args, kind, None) or os.environ.get(f"IRLAB_TASK_{kind.upper()}", "")
    if not value:
        raise CliError(f"give --{kind} or set IRLAB_TASK_{kind.upper()}")
    return value


def _store(args: argparse.Namespace):
    from irlab.sharedtask.store import TaskStore

    return TaskStore(args.db) if args.db else TaskStore()


def _deadline(text: str) -> float:
    from irlab.cli.common import CliError

    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise CliError(f"--deadline: not an ISO time such as 2026-12-20T23:59Z, got {text!r}") from None
    if when.tzinfo is None:
        raise CliError("--deadline needs a time zone (Z for UTC, or +01:00 ...), so every replica agrees on it")
    return when.timestamp()


def run_create(args: argparse.Namespace) -> int:
    from irlab.runs.texts import read_topics
    from irlab.runs.trec import read_bytes

    settings = {"title": args.title, "deadline": _deadline(args.deadline), "max_submissions": args.max_submissions,
                "max_run_mb": args.max_run_mb, "visible_before": args.show, "test": args.test}
    if args.measures:
        settings["measures"] = args.measures
    if args.roster:
        settings["roster"] = [line.strip() for line in args.roster.read_text(encoding="utf-8").splitlines()
                              if line.strip()]
    else:
        settings |= {"enrolment": "class", "class_code": args.class_code}
    if args.topics:
        settings["topic_texts"] = read_topics(read_bytes(args.topics), str(args.topics))
    baseline = read_bytes(args.baseline) if args.baseline else None
    new = _store(args).create(settings, read_bytes(args.qrels), str(args.qrels), baseline=baseline,
                              class_key=args.class_key or os.environ.get("IRLAB_CLASS_KEY"))
    base = args.base_url.rstrip("/")
    print(f"task {new.code} created")
    print(f"lecturer link (keep it secret; shown once): {base}/task?task={new.code}&key={new.key}")
    if new.tokens:
        rows = [(name, token, f"{base}/task?task={new.code}&student={token}") for name, token in new.tokens.items()]
        if args.links:
            with args.links.open("w", newline="", encoding="utf-8") as out:
                writer = csv.writer(out)
                writer.writerow(["name", "token", "link"])
                writer.writerows(rows)
            print(f"{len(rows)} personal links written to {args.links} (each student gets only their own)")
        else:
            print(f"{len(rows)} personal links (each student gets only their own):")
            for name, _, link in rows:
                print(f"  {name}\t{link}")
    else:
        print(f"students of class {args.class_code} take part from {base}/task?task={new.code}")
    return 0


def run_submit(args: argparse.Namespace) -> int:
    from irlab.runs.trec import read_bytes
    from irlab.sharedtask.api import MAX_BODY, submission_json

    token = _secret(args, "token")
    data = read_bytes(args.run_file, limit=MAX_BODY)  # no task takes more (the server and its proxy refuse it too)
    name = args.run_file.name
    if args.server:
        found = _http(args.server, f"/api/tasks/{args.code}/runs?name={_quote(name)}", token, data)
    else:
        found = submission_json(_store(args).seat(args.code, token).submit(data, name))
    print(f"submission {found['number']}: {found['name']} ({found['lines']:,} lines, run id {found['runid']})")
    for measure, mean in found["means"].items():
        low, high = found["intervals"][measure]
        print(f"  {measure:<12} {mean:.4f}   95% interval [{low:.4f}, {high:.4f}]")
    for finding in found["findings"]:
        if finding["count"]:
            print(f"  doctor: {finding['line']}")
    return 0


def run_board(args: argparse.Namespace) -> int:
    from irlab.sharedtask.api import view_json

    secret = getattr(args, "token", None) or getattr(args, "key", None) or os.environ.get("IRLAB_TASK_TOKEN") \
        or os.environ.get("IRLAB_TASK_KEY", "")
    if not secret:
        from irlab.cli.common import CliError
        raise CliError("give --token or --key (or IRLAB_TASK_TOKEN / IRLAB_TASK_KEY)")
    if args.server:
        view = _http(args.server, f"/api/tasks/{args.code}/leaderboard", secret)
    else:
        store = _store(args)
        from irlab.classroom.refusals import AccessDenied
        try:
            view = view_json(store.seat(args.code, secret).view())
        except AccessDenied:
            view = view_json(store.desk(args.code, secret).view())
    if args.format == "json":
        sys.stdout.write(json.dumps(view, indent=2, ensure_ascii=False) + "\n")
        return 0
    sys.stdout.write(board_text(view))
    return 0


def board_text(view: dict) -> str:
    """The leaderboard as plain text (the measures the caller may see)."""
    out = io.StringIO()
    state = "open" if view["open"] else "closed"
    deadline = datetime.fromtimestamp(view["deadline"], UTC).strftime("%Y-%m-%d %H:%M UTC")
    out.write(f"{view['title']} ({view['code']}): {state}, deadline {deadline}, {len(view['topics'])} topics\n")
    measures = view["shown_measures"]
    out.write(f"{'place':<6}{'name':<24}{'run':<28}" + "".join(f"{m:>26}" for m in measures) + "\n")
    for entry in view["board"]:
        name = ("* " if entry["mine"] else "") + _plain(entry["name"])
        cells = "".join(f"{entry['means'][m]:.4f} [{entry['intervals'][m][0]:.3f},{entry['intervals'][m][1]:.3f}] "
                        f"{entry['versus'].get(m, ' ')}".rjust(26) for m in measures)
        out.write(f"{entry['place']:<6}{name[:23]:<24}{_plain(entry['run'])[:27]:<28}{cells}\n")
    out.write("▲/▼: significantly better/worse than the baseline (" + view["test"] + "-test, Holm); =: no significant "
              "difference. * : you.\n")
    if not view["lecturer"]:
        out.write(f"submissions left: {view['submissions_left']} of {view['max_submissions']}\n")
    return out.getvalue()


def run_export(args: argparse.Namespace) -> int:
    desk = _store(args).desk(args.code, _secret(args, "key"))
    text = desk.export_csv()
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    if args.pool:
        args.pool.mkdir(parents=True, exist_ok=True)
        for name, run in desk.pooled_runs().items():
            lines = []
            for topic in run.query_ids:
                for rank, doc in enumerate(run.ranking(topic), start=1):
                    lines.append(f"{topic} Q0 {doc} {rank} {-rank} pooled")
            safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:60]
            (args.pool / f"{safe}.run").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


def run_release(args: argparse.Namespace) -> int:
    released = _store(args).desk(args.code, _secret(args, "key")).release(args.what)
    print("released: " + ", ".join(sorted(released)))
    return 0


def _quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


def _plain(text: str) -> str:
    """Text without control characters (a hostile name cannot move the terminal's cursor)."""
    return "".join(c if c.isprintable() else "?" for c in str(text))


def _http(server: str, path: str, secret: str, body: bytes | None = None) -> dict:
    """One request to the app's task routes; its JSON, or CliError with the server's one-line refusal."""
    from urllib.error import HTTPError, URLError
    from urllib.request import Request, urlopen

    from irlab.cli.common import CliError

    if not server.startswith(("http://", "https://")):
        raise CliError(f"--server must start with http:// or https://, got {server!r}")
    request = Request(server.rstrip("/") + path, data=body, method="POST" if body is not None else "GET",
                      headers={"Authorization": f"Bearer {secret}", "Content-Type": "application/octet-stream"})
    try:
        with urlopen(request, timeout=600) as answer:
            return json.loads(answer.read())
    except HTTPError as error:
        text = error.read(65536).decode("utf-8", "replace")
        try:
            message = str(json.loads(text).get("error", ""))
        except (ValueError, AttributeError):  # a proxy's plain-text refusal (deploy/nginx_conf.py): its first line
            message = text.strip().splitlines()[0][:300] if text.strip() else ""
        raise CliError(_plain(message) or f"the server answered {error.code}") from None
    except URLError as error:
        raise CliError(f"could not reach {server}: {error.reason}") from None
