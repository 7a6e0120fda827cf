"""The service under a steady mix of calls for a long time, its memory sampled (bench/rss-soak).

    rss_soak.py PID --minutes M [--connections 4] [--rate 65] [--every 10]

Each connection (a process of its own) calls about RATE times a second, drawn from the mix
below over every Pokémon; every minute the service's VmRSS and RssAnon and its memory tier's
use (Status) are sampled, and a table row is printed every EVERY minutes. At the end: the RSS
growth over the last hour (or the last half, for a shorter run), and the calls and errors."""
import argparse
import multiprocessing
import random
import time

import dbus

NAME, PATH, IFACE = "io.github.pokedexd.Pokedex1", "/io/github/pokedexd/Pokedex1", "io.github.pokedexd.Pokedex1"
LANGUAGES = ["en", "de", "ja", "fr", "es", "ko", "zh-hant"]


def worker(seed, rate, seconds, counts):
    rng = random.Random(seed)
    bus = dbus.SessionBus()
    obj = bus.get_object(NAME, PATH)
    api = dbus.Interface(obj, IFACE)
    props = dbus.Interface(obj, "org.freedesktop.DBus.Properties")
    peer = dbus.Interface(obj, "org.freedesktop.DBus.Peer")
    mix = [
        (20, lambda: api.ListPage(dbus.UInt32(rng.randrange(0, 1340) // 20 * 20), dbus.UInt32(20))),
        (20, lambda: api.Detail(str(rng.randint(1, 1025)))),
        (20, lambda: api.LocalizedDetail(str(rng.randint(1, 1025)), rng.choice(LANGUAGES))),
        (10, lambda: api.Search(rng.choice(["char", "pika", "eev", "mew", "bulb", "ライ", "glu", "squ"]), dbus.UInt32(10))),
        (10, lambda: api.SpritePath(str(rng.randint(1, 1025)))),
        (6, lambda: api.DisplayNames(dbus.Array([dbus.UInt32(rng.randint(1, 1025)) for _ in range(20)], signature="u"),
                                     rng.choice(LANGUAGES))),
        (4, lambda: api.ToggleFavorite(str(rng.randint(1, 151)))),
        (4, lambda: api.Status()),
        (3, lambda: props.Get(IFACE, "Online")),
        (3, lambda: peer.Ping()),
    ]
    weights = [w for w, _ in mix]
    calls = errors = 0
    start = time.monotonic()
    deadline = start + seconds
    while time.monotonic() < deadline:
        _, call = rng.choices(mix, weights)[0]
        try:
            call()
        except dbus.DBusException:
            errors += 1
        calls += 1
        # Paced: the n-th call is not sent before n / rate seconds.
        ahead = start + calls / rate - time.monotonic()
        if ahead > 0:
            time.sleep(ahead)
    counts.put((calls, errors))


def status(pid):
    fields = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        if key in ("VmRSS", "RssAnon"):
            fields[key] = int(value.split()[0]) / 1024
    return fields


def main():
    p = argparse.ArgumentParser()
    p.add_argument("pid", type=int)
    p.add_argument("--minutes", type=float, required=True)
    p.add_argument("--connections", type=int, default=4)
    p.add_argument("--rate", type=float, default=65)
    p.add_argument("--every", type=int, default=10)
    a = p.parse_args()
    seconds = a.minutes * 60
    counts = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=worker, args=(i, a.rate, seconds, counts)) for i in range(a.connections)]
    for proc in procs:
        proc.start()
    api = dbus.Interface(dbus.SessionBus().get_object(NAME, PATH), IFACE)
    samples = []
    print(f"{'minute':>6} {'VmRSS MiB':>10} {'RssAnon MiB':>12} {'memory tier':>16}", flush=True)
    start = time.monotonic()
    minute = 0
    while minute <= a.minutes:
        s = status(a.pid)
        st = api.Status()
        tier = f"{float(st['memory_bytes']) / 1048576:.1f}/{float(st['memory_cap_bytes']) / 1048576:.0f} MiB" \
            if "memory_bytes" in st else "?"
        samples.append((minute, s["VmRSS"], s["RssAnon"]))
        if minute % a.every == 0:
            print(f"{minute:6d} {s['VmRSS']:10.1f} {s['RssAnon']:12.1f} {tier:>16}", flush=True)
        minute += 1
        time.sleep(max(0.0, start + minute * 60 - time.monotonic()))
    for proc in procs:
        proc.join()
    calls = errors = 0
    while not counts.empty():
        c, e = counts.get()
        calls += c
        errors += e
    span = 60 if a.minutes >= 120 else int(a.minutes // 2)
    last = [x for x in samples if x[0] >= samples[-1][0] - span]
    print(f"calls={calls} errors={errors} rate={calls / seconds:.0f}/s")
    print(f"last {span} min: VmRSS {last[0][1]:.1f} -> {last[-1][1]:.1f} MiB ({last[-1][1] - last[0][1]:+.2f}), "
          f"RssAnon {last[0][2]:.1f} -> {last[-1][2]:.1f} MiB ({last[-1][2] - last[0][2]:+.2f})")


if __name__ == "__main__":
    main()
