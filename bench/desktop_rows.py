#!/usr/bin/python3
"""Issue 35's rows: what GNOME Shell's one GetResultMetas gets, as the shell asks it.

  desktop_rows.py first-ask --ids 6,94,133,25,10034   one GetResultMetas of those ids, right
                                                      after the service took its name; then a
                                                      Peer.Ping for scale
  desktop_rows.py cold --term char                    GetInitialResultSet([term]), then the
                                                      metas of its first five, as GNOME asks
Each prints one key=value line: the milliseconds, and how many rows came whole (their types in
the description, and a file icon). Needs python3-dbus: /usr/bin/python3.
"""
import argparse
import time

import dbus

SERVICE = "io.github.pokedexd.Pokedex1"
GNOME_PATH, GNOME_IFACE = "/io/github/pokedexd/SearchProvider", "org.gnome.Shell.SearchProvider2"
MAIN_PATH = "/io/github/pokedexd/Pokedex1"


def whole(meta):
    icon = meta.get("icon")
    return " · " in str(meta.get("description", "")) and icon is not None and str(icon[0]) == "file"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["first-ask", "cold"])
    ap.add_argument("--ids", default="6,94,133,25,10034")
    ap.add_argument("--term", default="char")
    a = ap.parse_args()
    bus = dbus.SessionBus()

    def call(method, sig, args):
        return bus.call_blocking(SERVICE, GNOME_PATH, GNOME_IFACE, method, sig, args, timeout=30)

    t0 = time.perf_counter_ns()
    if a.what == "cold":
        ids = [str(x) for x in call("GetInitialResultSet", "as", ([a.term],))][:5]
        t1 = time.perf_counter_ns()
    else:
        ids, t1 = a.ids.split(","), t0
    metas = call("GetResultMetas", "as", (ids,))
    t2 = time.perf_counter_ns()
    p0 = time.perf_counter_ns()
    bus.call_blocking(SERVICE, MAIN_PATH, "org.freedesktop.DBus.Peer", "Ping", "", (), timeout=30)
    p1 = time.perf_counter_ns()
    n = sum(1 for m in metas if whole(m))
    print(f"initial_ms={(t1 - t0) / 1e6:.3f} metas_ms={(t2 - t1) / 1e6:.3f} total_ms={(t2 - t0) / 1e6:.3f} "
          f"ping_ms={(p1 - p0) / 1e6:.3f} rows={len(metas)} whole={n} "
          f"descriptions={'|'.join(str(m.get('description', '')) for m in metas)}")


if __name__ == "__main__":
    main()
