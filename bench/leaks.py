"""Calls each member CALLS times on the session bus and prints what the service's RssAnon grew.

    leaks.py PID CALLS [MEMBER…] [--bound BYTES]

With --bound, exits 1 when a member keeps more than BYTES a call (bench/leaks prints; the
end-to-end leak suite fails)."""
import argparse
import dbus

parser = argparse.ArgumentParser()
parser.add_argument("pid", type=int)
parser.add_argument("calls", type=int)
parser.add_argument("members", nargs="*")
parser.add_argument("--bound", type=float)
args = parser.parse_args()
pid, calls = args.pid, args.calls
bus = dbus.SessionBus()
obj = bus.get_object("io.github.pokedexd.Pokedex1", "/io/github/pokedexd/Pokedex1")
api = dbus.Interface(obj, "io.github.pokedexd.Pokedex1")
peer = dbus.Interface(obj, "org.freedesktop.DBus.Peer")
props = dbus.Interface(obj, "org.freedesktop.DBus.Properties")


def rss_anon():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) * 1024
    return 0


flip = [False]


def set_favorite():
    flip[0] = not flip[0]
    api.SetFavorite("pikachu", flip[0])


members = [
    ("Ping", lambda: peer.Ping()),
    ("ListPage", lambda: api.ListPage(dbus.UInt32(0), dbus.UInt32(20))),
    ("Detail", lambda: api.Detail("pikachu")),
    ("LocalizedDetail", lambda: api.LocalizedDetail("pikachu", "de")),
    ("Search", lambda: api.Search("char", dbus.UInt32(10))),
    ("SpritePath", lambda: api.SpritePath("pikachu")),
    ("DisplayNames", lambda: api.DisplayNames(dbus.Array([dbus.UInt32(i) for i in range(1, 41)], signature="u"), "de")),
    # Over 64 ids: worked on off the loop every time, its caller followed while it runs.
    ("DisplayNames (100 ids, task)", lambda: api.DisplayNames(dbus.Array([dbus.UInt32(i) for i in range(1, 101)], signature="u"), "de")),
    ("ListFavorites", lambda: api.ListFavorites()),
    ("ToggleFavorite", lambda: api.ToggleFavorite("pikachu")),
    ("SetFavorite (alternating)", set_favorite),
    ("Status", lambda: api.Status()),
    ("Get Online", lambda: props.Get("io.github.pokedexd.Pokedex1", "Online")),
]
only = args.members or None
over = []
print(f"{'member':28} {'calls':>7} {'RssAnon before':>15} {'after':>12} {'bytes/call':>11}")
for name, call in members:
    if only and name.split()[0] not in only:
        continue
    for _ in range(max(1, calls // 10)):
        call()
    before = rss_anon()
    for _ in range(calls):
        call()
    after = rss_anon()
    per_call = (after - before) / calls
    print(f"{name:28} {calls:7d} {before / 1048576:13.1f} MiB {after / 1048576:9.1f} MiB {per_call:11.1f}", flush=True)
    if args.bound is not None and per_call > args.bound:
        over.append(f"{name} keeps {per_call:.1f} bytes a call (bound {args.bound:g})")
for line in over:
    print(f"leak: {line}")
raise SystemExit(1 if over else 0)
