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

from dbus_replies import (SERVICE, KRUNNER_PATH, KRUNNER_IFACE, SEARCH_PATH, SEARCH_IFACE, TIMEOUT, MATCH_TYPES,
                          PNG_SIGNATURE, Malformed, bus, call, expect, is_str, decode_icon_data)
from gnome_metas import parse_gvariant, icon_summary, check_metas, is_control


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
