#!/usr/bin/python3
"""Issue 15's latency goal: the desktop's provider calls over the bus, for terms of 1 to 12
characters (prefixes of real Pokémon names, as typed), against org.freedesktop.DBus.Peer.Ping
to the same service run alongside (interleaved, one Ping before every call) as the baseline.

For each term length n and each round, on one name: GNOME's GetInitialResultSet([prefix n]),
GetSubsearchResultSet(results for prefix n-1, [prefix n]) (what the shell sends on the next
keystroke), GetResultMetas(10 ids: that term's first results, then others), and KRunner's
Match(prefix n). Blocking calls from python3-dbus with explicit signatures: the client's own
cost is in the Ping too.

  search_providers.py [--rounds N] [--goal-ms 5]
Prints a table (p50, p99 in ms, p99 / Ping p99, the worst term length's p99) and one
key=value line for scripts. Exit 0 whatever the verdict (it is printed); 1 when the service or an
interface is missing. Needs python3-dbus: /usr/bin/python3.
"""
import argparse
import sys
import time

import dbus

SERVICE = "io.github.pokedexd.Pokedex1"
MAIN_PATH, MAIN_IFACE = "/io/github/pokedexd/Pokedex1", "io.github.pokedexd.Pokedex1"
GNOME_PATH, GNOME_IFACE = "/io/github/pokedexd/SearchProvider", "org.gnome.Shell.SearchProvider2"
KRUNNER_PATH, KRUNNER_IFACE = "/io/github/pokedexd/KRunner", "org.kde.krunner1"
METHODS = ["Ping", "GetInitialResultSet", "GetSubsearchResultSet", "GetResultMetas", "Match"]


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else float("nan")


def all_names(bus):
    """Every name in the service's list, in pages (ListPage(offset, limit) -> (total, a(ussb)))."""
    names, offset = [], 0
    while True:
        total, entries = bus.call_blocking(SERVICE, MAIN_PATH, MAIN_IFACE, "ListPage", "uu", (offset, 100), timeout=120)
        names += [str(e[1]) for e in entries]
        offset += len(entries)
        if not entries or offset >= total:
            return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=200, help="calls of each method per term length")
    ap.add_argument("--goal-ms", type=float, default=5.0)
    a = ap.parse_args()
    bus = dbus.SessionBus()

    def call(path, iface, method, sig="", args=()):
        # byte_arrays: an `ay` (KRunner's icon pixels) arrives as bytes, as Qt's client reads it
        # into a QByteArray, not as a list of one Python object per byte.
        return bus.call_blocking(SERVICE, path, iface, method, sig, args, timeout=30, byte_arrays=True)

    try:
        names = all_names(bus)
        call(GNOME_PATH, GNOME_IFACE, "GetInitialResultSet", "as", (["pika"],))
        call(KRUNNER_PATH, KRUNNER_IFACE, "Match", "s", ("pika",))
    except dbus.exceptions.DBusException as e:
        sys.exit(f"search_providers: {e.get_dbus_name()}: {e.get_dbus_message()}")  # exit 1: the run cannot measure
    # Real names as people type them: letters only, the longest first for the long prefixes.
    names = [n for n in names if n.replace("-", "").isalpha()] or names
    all_ids = [str(i) for i in call(GNOME_PATH, GNOME_IFACE, "GetInitialResultSet", "as", (["a"],))][:50] or ["25"]
    by_length = {n: [x for x in names if len(x) >= n] or sorted(names, key=len)[-20:] for n in range(1, 13)}

    times = {m: {n: [] for n in range(1, 13)} for m in METHODS}

    def timed(method, n, f):
        ping_t0 = time.perf_counter_ns()
        bus.call_blocking(SERVICE, MAIN_PATH, "org.freedesktop.DBus.Peer", "Ping", "", (), timeout=30)
        ping_t1 = time.perf_counter_ns()
        times["Ping"][n].append((ping_t1 - ping_t0) / 1e6)
        t0 = time.perf_counter_ns()
        r = f()
        times[method][n].append((time.perf_counter_ns() - t0) / 1e6)
        return r

    for r in range(a.rounds):
        for n in range(1, 13):
            pool = by_length[n]
            name = pool[(r * 7919 + n) % len(pool)]
            term, shorter = name[:n], name[:max(1, n - 1)]
            previous = [str(x) for x in call(GNOME_PATH, GNOME_IFACE, "GetInitialResultSet", "as", ([shorter],))]
            results = timed("GetInitialResultSet", n,
                            lambda: call(GNOME_PATH, GNOME_IFACE, "GetInitialResultSet", "as", ([term],)))
            timed("GetSubsearchResultSet", n,
                  lambda: call(GNOME_PATH, GNOME_IFACE, "GetSubsearchResultSet", "asas",
                               (previous or dbus.Array([], signature="s"), [term])))
            ids = [str(x) for x in results][:10]
            ids += [i for i in all_ids if i not in ids][:10 - len(ids)]
            timed("GetResultMetas", n, lambda: call(GNOME_PATH, GNOME_IFACE, "GetResultMetas", "as", (ids,)))
            timed("Match", n, lambda: call(KRUNNER_PATH, KRUNNER_IFACE, "Match", "s", (term,)))

    ping_p99 = percentile([x for v in times["Ping"].values() for x in v], 0.99)
    print(f"{len(names)} names; {a.rounds} rounds x 12 term lengths; each call after a Peer.Ping")
    print(f"{'method':<24}{'p50 ms':>9}{'p99 ms':>9}{'× Ping p99':>12}{'worst length p99':>20}  goal p99 ≤ {a.goal_ms:g} ms")
    line, met = [], True
    for m in METHODS:
        flat = [x for v in times[m].values() for x in v]
        p50, p99 = percentile(flat, 0.5), percentile(flat, 0.99)
        worst_n, worst = max(((n, percentile(v, 0.99)) for n, v in times[m].items()), key=lambda t: t[1])
        ok = m == "Ping" or worst <= a.goal_ms
        met &= ok
        print(f"{m:<24}{p50:>9.3f}{p99:>9.3f}{p99 / ping_p99:>12.2f}{f'{worst:.3f} (n={worst_n})':>20}  "
              f"{'' if m == 'Ping' else ('met' if ok else 'NOT met')}")
        key = {"Ping": "ping", "GetInitialResultSet": "initial", "GetSubsearchResultSet": "subsearch",
               "GetResultMetas": "metas", "Match": "match"}[m]
        line += [f"{key}_p50_ms={p50:.3f}", f"{key}_p99_ms={p99:.3f}", f"{key}_worst_length_p99_ms={worst:.3f}",
                 f"{key}_worst_length={worst_n}"]
    print(" ".join(line + [f"goal={'met' if met else 'NOT_met'}"]))


if __name__ == "__main__":
    main()
