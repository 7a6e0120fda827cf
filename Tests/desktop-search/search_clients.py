#!/usr/bin/python3
"""The desktop's two search clients, as the shells call pokedexd; a module and a CLI.

KRunner (org.kde.krunner1 at /io/github/pokedexd/KRunner) is called as Plasma's DBusRunner
calls it (KDE/krunner src/dbusrunner.cpp): Actions() -> a(sss), Match(s) -> a(sssida{sv}),
Run(ss), Config() -> a{sv}, Teardown(); several Match calls may be in flight at once. Every
reply is checked against its D-Bus type, field by field, and printed as JSON.

GNOME Shell (org.gnome.Shell.SearchProvider2) is called with gdbus by the test itself; this
module parses gdbus's output (GVariant text) and checks GetResultMetas the way
gnome-shell's js/ui/remoteSearch.js reads it.

Needs python3-dbus and python3-gi (Debian), hence /usr/bin/python3 (not a pyenv python3).

  search_clients.py krunner-match QUERY            the matches, as JSON (type-checked)
  search_clients.py krunner-actions                the actions, as JSON
  search_clients.py krunner-run MATCH_ID ACTION_ID
  search_clients.py krunner-config                 the config map, as JSON, with D-Bus types
  search_clients.py krunner-teardown
  search_clients.py krunner-concurrent Q1 Q2 ...   every Match sent before any reply is read
  search_clients.py signatures PATH IFACE          "Method IN -> OUT", one a line
  search_clients.py gvariant [--type T]            gdbus output on stdin -> JSON
  search_clients.py check-metas                    gdbus GetResultMetas output on stdin ->
                                                   checked metas, as JSON
  search_clients.py shown-texts QUERY ID...        every string GetResultMetas(IDS), Match(QUERY)
                                                   and Actions() send, as JSON; exit 1 when one
                                                   holds a control (C0, DEL, C1, bidi) or is empty
Exit status: 0 when the reply is well formed, 1 with the reasons on stderr when not, 2 on a
D-Bus error (its name and message on stderr).
"""
import json
import os
import sys
import time

import dbus

SERVICE = os.environ.get("POKEDEX_SERVICE", "io.github.pokedexd.Pokedex1")
KRUNNER_PATH = "/io/github/pokedexd/KRunner"
KRUNNER_IFACE = "org.kde.krunner1"
SEARCH_PATH = "/io/github/pokedexd/SearchProvider"
SEARCH_IFACE = "org.gnome.Shell.SearchProvider2"
TIMEOUT = float(os.environ.get("POKEDEX_CALL_TIMEOUT", "10"))

# KRunner's match "type" (the 4th field, i): Plasma 5's QueryMatch::Type; Plasma 6 reads the same
# int as QueryMatch::CategoryRelevance (Lowest 0, Low 30, Moderate 50, High 70, Highest 100).
MATCH_TYPES = {0: "NoMatch", 10: "CompletionMatch", 30: "PossibleMatch", 50: "InformationalMatch",
               70: "HelperMatch", 100: "ExactMatch"}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Malformed(Exception):
    """A reply that is not what the shell expects."""


def bus():
    return dbus.SessionBus()


def call(method, signature="", args=(), path=KRUNNER_PATH, iface=KRUNNER_IFACE, connection=None):
    """One blocking call with an explicit signature, as the shells make it (no introspection)."""
    return (connection or bus()).call_blocking(SERVICE, path, iface, method, signature, tuple(args),
                                               timeout=TIMEOUT, byte_arrays=True)


def expect(cond, what):
    if not cond:
        raise Malformed(what)


def is_str(v):
    return isinstance(v, dbus.String)


# ---- KRunner ---------------------------------------------------------------------------------

def decode_icon_data(v, where):
    """icon-data: (iiibiiay) as org.freedesktop.Notifications' image-data; checked the way
    DBusRunner::decodeImage reads it (0 < width, height < 2048; 8 bits; 3 or 4 channels)."""
    expect(isinstance(v, dbus.Struct) and len(v) == 7, f"{where}: icon-data is not a 7-field struct (iiibiiay): {v!r}")
    w, h, stride, alpha, bps, channels, data = v
    for name, x in (("width", w), ("height", h), ("rowstride", stride), ("bits per sample", bps), ("channels", channels)):
        expect(isinstance(x, dbus.Int32), f"{where}: icon-data {name} is {type(x).__name__}, not i")
    expect(isinstance(alpha, dbus.Boolean), f"{where}: icon-data has-alpha is {type(alpha).__name__}, not b")
    expect(isinstance(data, (dbus.ByteArray, bytes)), f"{where}: icon-data pixels are {type(data).__name__}, not ay")
    expect(0 < w < 2048 and 0 < h < 2048, f"{where}: icon-data is {w}x{h}")
    expect(bps == 8 and channels in (3, 4), f"{where}: icon-data has {bps} bits and {channels} channels")
    expect(bool(alpha) == (channels == 4), f"{where}: icon-data has-alpha {bool(alpha)} with {channels} channels")
    expect(stride >= w * channels, f"{where}: icon-data rowstride {stride} < {w}x{channels}")
    expect(len(data) >= stride * (h - 1) + w * channels, f"{where}: icon-data has {len(data)} bytes for {w}x{h}, stride {stride}")
    return {"width": int(w), "height": int(h), "rowstride": int(stride), "has_alpha": bool(alpha),
            "bits_per_sample": int(bps), "channels": int(channels), "bytes": len(data),
            "opaque_pixels": sum(1 for y in range(h) for x in range(w) if data[y * stride + x * 4 + 3])
            if channels == 4 else int(w * h)}


def decode_match(m, i):
    """One (sssida{sv}) match, checked field by field, as a plain dict."""
    where = f"match {i}"
    expect(isinstance(m, dbus.Struct) and len(m) == 6, f"{where} is not a 6-field struct: {m!r}")
    mid, text, icon, mtype, relevance, props = m
    expect(is_str(mid) and is_str(text) and is_str(icon), f"{where}: id, text, iconName must be s")
    expect(isinstance(mtype, dbus.Int32), f"{where}: type is {type(mtype).__name__}, not i")
    expect(isinstance(relevance, dbus.Double), f"{where}: relevance is {type(relevance).__name__}, not d")
    expect(isinstance(props, dbus.Dictionary) and props.signature == "sv", f"{where}: properties are not a{{sv}}")
    out = {"id": str(mid), "text": str(text), "icon_name": str(icon), "type": int(mtype),
           "type_name": MATCH_TYPES.get(int(mtype), "?"), "relevance": float(relevance), "properties": {}}
    for key, value in props.items():
        if key == "icon-data":
            out["properties"][key] = decode_icon_data(value, where)
        elif key in ("urls", "actions"):
            expect(isinstance(value, dbus.Array) and all(is_str(x) for x in value), f"{where}: {key} is not as")
            out["properties"][key] = [str(x) for x in value]
        elif key in ("subtext", "category"):
            expect(is_str(value), f"{where}: {key} is not s")
            out["properties"][key] = str(value)
        elif key == "multiline":
            expect(isinstance(value, dbus.Boolean), f"{where}: multiline is not b")
            out["properties"][key] = bool(value)
        else:
            out["properties"][key] = f"<{type(value).__name__}>"  # not read by KRunner
    return out


def decode_matches(reply):
    expect(isinstance(reply, dbus.Array) and reply.signature == "(sssida{sv})",
           f"Match did not reply a(sssida{{sv}}): {getattr(reply, 'signature', type(reply).__name__)}")
    return [decode_match(m, i) for i, m in enumerate(reply)]


def krunner_match(query, connection=None):
    return decode_matches(call("Match", "s", [query], connection=connection))


def krunner_actions(connection=None):
    reply = call("Actions", connection=connection)
    expect(isinstance(reply, dbus.Array) and reply.signature == "(sss)", "Actions did not reply a(sss)")
    return [{"id": str(a), "text": str(t), "icon_name": str(n)} for a, t, n in reply]


def krunner_run(match_id, action_id, connection=None):
    reply = call("Run", "ss", [match_id, action_id], connection=connection)
    expect(reply is None, f"Run replied {reply!r}, not nothing")


def krunner_config(connection=None):
    reply = call("Config", connection=connection)
    expect(isinstance(reply, dbus.Dictionary) and reply.signature == "sv", "Config did not reply a{sv}")
    dbus_type = {dbus.Int32: "i", dbus.UInt32: "u", dbus.Int64: "x", dbus.String: "s", dbus.Boolean: "b"}
    return {str(k): {"value": v if not isinstance(v, dbus.Array) else list(v), "type": dbus_type.get(type(v), type(v).__name__)}
            for k, v in reply.items()}


def krunner_teardown(connection=None):
    reply = call("Teardown", connection=connection)
    expect(reply is None, f"Teardown replied {reply!r}, not nothing")


def krunner_concurrent(queries):
    """Sends one Match per query, all before the first reply is read (reply_handler, as
    DBusRunner's asyncCall does), then runs the main loop until every reply or error is in."""
    import dbus.mainloop.glib
    from gi.repository import GLib
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    conn = dbus.SessionBus()
    proxy = conn.get_object(SERVICE, KRUNNER_PATH, introspect=False)
    loop = GLib.MainLoop()
    results, order = {}, []
    t0 = time.monotonic()

    def done(i, q, reply=None, error=None):
        order.append(i)
        if error is not None:
            results[i] = {"query": q, "error": f"{error.get_dbus_name()}: {error.get_dbus_message()}"}
        else:
            try:
                results[i] = {"query": q, "ids": [m["id"] for m in decode_matches(reply)],
                              "texts": [m["text"] for m in decode_matches(reply)]}
            except Malformed as e:
                results[i] = {"query": q, "error": str(e)}
        results[i]["ms"] = round((time.monotonic() - t0) * 1000, 2)
        if len(results) == len(queries):
            loop.quit()

    for i, q in enumerate(queries):
        proxy.Match(q, dbus_interface=KRUNNER_IFACE, signature="s", timeout=TIMEOUT, byte_arrays=True,
                    reply_handler=lambda r, i=i, q=q: done(i, q, reply=r),
                    error_handler=lambda e, i=i, q=q: done(i, q, error=e))
    in_flight = len(queries)  # nothing has been dispatched yet: every call is outstanding
    GLib.timeout_add(int(TIMEOUT * 1000) + 1000, loop.quit)
    loop.run()
    return {"sent_before_first_reply": in_flight, "reply_order": order,
            "results": [results.get(i, {"query": q, "error": "no reply"}) for i, q in enumerate(queries)]}


# ---- Both: the interface as introspected ------------------------------------------------------

def signatures(path, iface, connection=None):
    """Each method of IFACE at PATH as "Name IN -> OUT" (D-Bus signatures, concatenated)."""
    from gi.repository import Gio
    xml = call("Introspect", path=path, iface="org.freedesktop.DBus.Introspectable", connection=connection)
    info = Gio.DBusNodeInfo.new_for_xml(str(xml)).lookup_interface(iface)
    expect(info is not None, f"{path} has no interface {iface}")
    return sorted(f"{m.name} {''.join(a.signature for a in m.in_args)} -> {''.join(a.signature for a in m.out_args)}"
                  for m in info.methods)


# ---- GNOME Shell (gdbus output) --------------------------------------------------------------

def parse_gvariant(text, type_string=None):
    from gi.repository import GLib
    v = GLib.Variant.parse(GLib.VariantType.new(type_string) if type_string else None, text.strip(), None, None)
    return v


def icon_summary(icon, where):
    """The 'icon' meta, as Gio.icon_deserialize reads it: GFileIcon serializes to (sv)
    ('file', <'file:///…'>), GThemedIcon to ('themed', <['name', …]>)."""
    from gi.repository import Gio
    problems = []
    t = icon.get_type_string()
    if t != "(sv)":
        return {"type": t}, [f"{where}: icon is {t}, not (sv) (g_icon_serialize of a GFileIcon or GThemedIcon)"]
    tag, inner = icon.get_child_value(0).get_string(), icon.get_child_value(1).get_variant()
    out = {"type": t, "kind": tag, "inner_type": inner.get_type_string()}
    if Gio.Icon.deserialize(icon) is None:
        problems.append(f"{where}: Gio.Icon.deserialize refuses the icon")
    if tag == "file":
        if inner.get_type_string() != "s" or not inner.get_string().startswith("file:///"):
            problems.append(f"{where}: file icon value is {inner.print_(True)}, not a file:// URI string")
        else:
            path = Gio.File.new_for_uri(inner.get_string()).get_path()
            out["path"] = path
            try:
                with open(path, "rb") as f:
                    out["png"] = f.read(8) == PNG_SIGNATURE
            except OSError as e:
                out["png"] = False
                problems.append(f"{where}: icon file {path}: {e.strerror}")
            if not out["png"] and os.path.exists(path):
                problems.append(f"{where}: icon file {path} is not a PNG")
    elif tag == "themed":
        if inner.get_type_string() != "as" or not inner.unpack():
            problems.append(f"{where}: themed icon value is {inner.print_(True)}, not a non-empty as")
        else:
            out["names"] = inner.unpack()
    else:
        problems.append(f"{where}: icon kind {tag!r}, neither 'file' nor 'themed'")
    return out, problems


def check_metas(text):
    v = parse_gvariant(text)
    expect(v.get_type_string() == "(aa{sv})", f"GetResultMetas replied {v.get_type_string()}, not (aa{{sv}})")
    metas, problems = [], []
    for i in range(v.get_child_value(0).n_children()):
        d = v.get_child_value(0).get_child_value(i)
        where = f"meta {i}"
        meta = {}
        for j in range(d.n_children()):
            entry = d.get_child_value(j)
            key, value = entry.get_child_value(0).get_string(), entry.get_child_value(1).get_variant()
            if key == "icon":
                meta["icon"], p = icon_summary(value, where)
                problems += p
            elif key in ("id", "name", "description", "clipboardText", "gicon"):
                if value.get_type_string() != "s":
                    problems.append(f"{where}: {key} is {value.get_type_string()}, not s")
                meta[key] = value.unpack()
            elif key == "icon-data":
                meta[key] = value.get_type_string()
                if value.get_type_string() != "(iiibiiay)":
                    problems.append(f"{where}: icon-data is {value.get_type_string()}, not (iiibiiay)")
            else:
                meta[key] = value.print_(True)
        for key in ("id", "name"):  # search.js drops the provider's metas without them
            if not meta.get(key):
                problems.append(f"{where}: no {key}")
        if not any(k in meta for k in ("icon", "gicon", "icon-data")):
            problems.append(f"{where}: no icon")
        metas.append(meta)
    return metas, problems


def is_control(ch):
    o = ord(ch)
    return o < 0x20 or 0x7F <= o <= 0x9F or 0x202A <= o <= 0x202E or 0x2066 <= o <= 0x2069 or o in (0x200E, 0x200F, 0x061C, 0x2028, 0x2029)


def shown_texts(query, ids, connection=None):
    """What a person reads of pokedexd in the shells, and what GNOME puts on the clipboard."""
    texts = []
    metas = call("GetResultMetas", "as", [ids], path=SEARCH_PATH, iface=SEARCH_IFACE, connection=connection)
    for m in metas:
        texts += [("meta " + str(m["id"]) + " " + k, str(m[k])) for k in ("name", "description", "clipboardText") if k in m]
    for i, m in enumerate(krunner_match(query, connection)):
        texts += [(f"match {i} text", m["text"]), (f"match {i} subtext", m["properties"].get("subtext", ""))]
    texts += [(f"action {a['id']}", a["text"]) for a in krunner_actions(connection)]
    bad = [f"{where}: {text!r}" for where, text in texts if not text or any(is_control(c) for c in text)]
    return texts, bad


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd, args = argv[1], argv[2:]
    try:
        if cmd == "krunner-match" and len(args) == 1:
            out = krunner_match(args[0])
        elif cmd == "krunner-actions" and not args:
            out = krunner_actions()
        elif cmd == "krunner-run" and len(args) == 2:
            out = krunner_run(*args)
        elif cmd == "krunner-config" and not args:
            out = krunner_config()
        elif cmd == "krunner-teardown" and not args:
            out = krunner_teardown()
        elif cmd == "krunner-concurrent" and args:
            out = krunner_concurrent(args)
        elif cmd == "signatures" and len(args) == 2:
            print("\n".join(signatures(*args)))
            return 0
        elif cmd == "gvariant":
            t = args[1] if args[:1] == ["--type"] and len(args) == 2 else None
            out = parse_gvariant(sys.stdin.read(), t).unpack()
        elif cmd == "shown-texts" and len(args) >= 2:
            texts, bad = shown_texts(args[0], args[1:])
            print(json.dumps(texts, ensure_ascii=True))
            if bad:
                print("\n".join(bad), file=sys.stderr)
                return 1
            return 0
        elif cmd == "check-metas" and not args:
            out, problems = check_metas(sys.stdin.read())
            print(json.dumps(out, ensure_ascii=False, default=str))
            if problems:
                print("\n".join(problems), file=sys.stderr)
                return 1
            return 0
        else:
            sys.exit(__doc__)
    except dbus.exceptions.DBusException as e:
        print(f"{e.get_dbus_name()}: {e.get_dbus_message()}", file=sys.stderr)
        return 2
    except Malformed as e:
        print(f"malformed reply: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # a GVariant that does not parse, say
        print(f"{type(e).__name__}: {e}", file=sys.stderr)
        return 1
    if out is not None:
        print(json.dumps(out, ensure_ascii=False, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
