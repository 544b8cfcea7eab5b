"""`python -m rocm_bridge classroom migrate | create NAME | export CODE | delete CODE` (the teacher key is read
from $ROCM_BRIDGE_TEACHER_KEY or asked for, never taken as an argument: arguments show in `ps`).

    migrate   create or upgrade the schema once, before starting replicas (they also do it themselves, safely)
    create    a class: prints the join code and the teacher key (shown once)
    export    the class's answers as formula-safe CSV on stdout
    delete    the class and everything of its learners
    check     can this host's settings reach the database (the readiness check of rocm_bridge/classroom/ready.py)?
The database is $ROCM_BRIDGE_DB_URL (PostgreSQL) or the default SQLite file.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys

HELP = "classes from the command line: migrate the schema, create a class, export or delete a class's data"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True)
    sub.add_parser("migrate", help="create or upgrade the database schema (safe to run from several hosts)")
    sub.add_parser("check", help="the readiness check of the database: exit 0 when reachable with this schema")
    create = sub.add_parser("create", help="create a class; prints its join code and teacher key once")
    create.add_argument("name")
    for name, text in (("export", "print the class's answers as CSV"), ("delete", "delete the class's data")):
        p = sub.add_parser(name, help=text)
        p.add_argument("join_code")


def _key() -> str:
    return os.environ.get("ROCM_BRIDGE_TEACHER_KEY") or getpass.getpass("teacher key: ")


def run(args: argparse.Namespace) -> int:
    from rocm_bridge.classroom import classes
    from rocm_bridge.quiz import schema
    from rocm_bridge.quiz.store import Store

    if args.action == "check":
        from rocm_bridge.classroom.ready import check_database

        ok, why = check_database()
        print(why)
        return 0 if ok else 1
    store = Store()
    if args.action == "migrate":
        with store.engine.connect() as conn:
            print(f"schema version {schema.current_version(conn)} ({store.engine.url.get_backend_name()})")
        return 0
    if args.action == "create":
        info, key = classes.create_class(store, args.name, "cli")
        print(f"class:       {info.name}\njoin code:   {info.join_code}\nteacher key: {key}")
        print("(the key is shown only now; it is stored as a salted hash)", file=sys.stderr)
        return 0
    info = classes.teacher_login(store, args.join_code, _key(), "cli")
    if args.action == "export":
        sys.stdout.write(store.export_answers_csv(info.id))
        return 0
    classes.delete_class(store, info.id)
    print(f"deleted class {info.join_code}", file=sys.stderr)
    return 0
