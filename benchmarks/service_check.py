"""What the class's store service reads to check one answer a page sends (issue 51): all the
student's stored answers of the lesson (:meth:`~tutor.storage.store.Store.lesson_attempts`,
what each POST read before) beside the rows the replay needs
(:meth:`~tutor.storage.store.Store.replay_context`: the answer's session, and the other
sessions' answers to the same question), side by side in one run, each followed by the
service's whole check (:func:`tutor.hub.store_service._refusal`: the replay and the caps,
with :meth:`~tutor.storage.store.Store.usage`); and the new read with the check that also
replays the game the answer is about (its match's record, dealt again from its seed).

    python benchmarks/service_check.py [--rows 3000] [--lesson 07-all-power] [--repeat 30]
                                       [--postgres] [--store ADDRESS]

One student plays ``--lesson`` through the tutor (the simulator, game after game, as the
play page records them) until they have ``--rows`` answers in it; all but the last are
stored (a fresh SQLite file; ``--postgres``: a throwaway PostgreSQL cluster, as the tests
start one; ``--store``: that address), and the last is the answer sent. Each path runs
``--repeat`` times, the two taking turns; it prints the median and p95 wall milliseconds
of the read alone and of the read and check, the rows read, and the old path's time over
the new one's.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

from teacher_refresh import timed  # wall p50/p95 and mean CPU milliseconds of a repeated call

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tutor.storage.records import Attempt  # noqa: E402

GAME = "now + the game replayed"
"""The third path: the rows the replay needs, and the check with the record of the game the
answer is about, as a page on a class's store sends it (issue 51 part 2)."""


Game = dict[str, object]


def played(rows: int, lesson: str, folder: Path) -> tuple[list[Attempt], Attempt, Game]:
    """One student's answers in ``lesson``, game after game, until there are ``rows``, and
    of one game more, the last answer about a move (the answer sent) with its match's record
    as the page sent it with that answer (all the moves so far), and the answers before it
    in its game (stored: the replay's context)."""
    from collections.abc import Mapping

    from tutor.commands.learners import learner
    from tutor.commands.simulate import simulate_one
    from tutor.storage.records import move_of
    from tutor.storage.store import Store

    sent: list[tuple[Attempt, Game]] = []

    class Page(Store):  # the records the page hands its store (a class's service keeps them)
        def add_attempt(self, attempt: Attempt, game: Mapping[str, object] | None = None
                        ) -> int:
            if game is not None and move_of(attempt.problem):
                sent.append((attempt, dict(game)))
            return super().add_attempt(attempt, game)

    with Page(folder / "played.sqlite3") as store:
        seed = 0
        while len(store.lesson_attempts("ana", [lesson]) if store.students() else []) < rows:
            simulate_one(lesson, learner("learner:0.5", "en"), seed, "en", store=store,
                         name="ana")
            seed += 1
        before = list(store.lesson_attempts("ana", [lesson])[:rows])
        sent.clear()
        simulate_one(lesson, learner("learner:0.5", "en"), seed, "en", store=store,
                     name="ana")
        last, game = sent[-1]  # the last answer about a move: its record holds the most moves
        now = store.lesson_attempts("ana", [lesson])
        earlier = now[:now.index(last)]  # its session's answers before it are stored too
    return [*before, *(a for a in earlier if a.session == last.session)], last, game


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=3000)
    ap.add_argument("--lesson", default="07-all-power")
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--postgres", action="store_true",
                    help="a throwaway PostgreSQL cluster instead of an SQLite file")
    ap.add_argument("--store", help="the store's address (its student ana is replaced)")
    args = ap.parse_args(argv)

    from tests.pg_cluster import bench_store
    from tutor.classroom.played_games import SentGames
    from tutor.hub.store_service import _refusal
    from tutor.storage.records import move_of
    from tutor.storage.store import Store

    with tempfile.TemporaryDirectory(prefix="service-check-") as tmp, \
            bench_store(args.store, args.postgres, Path(tmp) / "class.sqlite3") as found:
        if found is None:
            return 1
        stored, answer, record = played(args.rows, args.lesson, Path(tmp))
        sent = [answer]
        move = move_of(answer.problem)
        assert move is not None
        # the deal its page recorded when the match began (a class's store records each)
        games = SentGames({(answer.session, move[0]): record}, [(
            answer.lesson, f"{record['variant']}:{record['players']}:{record['seed']}:")])
        with Store(found, lang="en") as store:
            store.merge(stored)
            now = datetime.now(timezone.utc)
            since = (now - timedelta(days=1)).isoformat(timespec="microseconds")
            lessons = {a.lesson for a in sent}
            paths: dict[str, Callable[[], list[Attempt]]] = {
                "before: lesson_attempts": lambda: store.lesson_attempts("ana", lessons),
                "now: replay_context": lambda: store.replay_context("ana", sent),
            }

            def check(read: Callable[[], list[Attempt]], game: bool = False) -> object:
                return _refusal(read(), sent, now, store.usage("ana", since),
                                games if game else None)

            for read in paths.values():
                assert check(read) is None, "the honest answer sent is refused"
            assert check(paths["now: replay_context"], True) is None, "its game is refused"
            results: dict[str, dict[str, list[float]]] = {k: {} for k in [*paths, GAME]}
            for _ in range(args.repeat):  # the paths take turns
                for name, read in paths.items():
                    for part, work in (("read", read),
                                       ("read + check", lambda read=read: check(read))):
                        results[name].setdefault(part, []).append(timed(work, 1)["p50"])
                read = paths["now: replay_context"]
                for part, work in (("read", read),
                                   ("read + check", lambda read=read: check(read, True))):
                    results[GAME].setdefault(part, []).append(timed(work, 1)["p50"])
            usage = timed(lambda: store.usage("ana", since), args.repeat)
            sizes = {name: len(read()) for name, read in paths.items()}
            sizes[GAME] = sizes["now: replay_context"]
        backend = "PostgreSQL" if "://" in str(found) else "SQLite"
        turns = sum(len(r["turns"]) for r in record["rounds"])  # type: ignore[attr-defined]
        print(f"{backend}: one student, {len(stored)} answers stored in {args.lesson} "
              f"({len({a.session for a in stored})} games), one answer sent about a move, "
              f"with its game's record ({len(record['rounds'])} rounds, "  # type: ignore[arg-type]
              f"{turns} turns); {args.repeat} repeats, wall ms")
        print(f"{'path':26} {'rows read':>9} {'read p50':>9} {'p95':>7} "
              f"{'read+check p50':>15} {'p95':>7}")
        medians = {}
        for name, parts in results.items():
            stats = {part: sorted(v) for part, v in parts.items()}
            p50 = {part: v[len(v) // 2] for part, v in stats.items()}
            p95 = {part: v[max(0, round(0.95 * len(v)) - 1)] for part, v in stats.items()}
            medians[name] = p50
            print(f"{name:26} {sizes[name]:9d} {p50['read']:9.2f} {p95['read']:7.2f} "
                  f"{p50['read + check']:15.2f} {p95['read + check']:7.2f}")
        old, new, game = medians.values()
        print(f"usage (the caps' count) alone: p50 {usage['p50']:.2f} ms")
        print(f"before / now: read {old['read'] / new['read']:.1f}x, read + check "
              f"{old['read + check'] / new['read + check']:.1f}x")
        print(f"the game's replay adds {game['read + check'] - new['read + check']:.2f} ms "
              f"to the check (p50)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
