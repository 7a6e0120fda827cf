#!/usr/bin/python3
"""A recording org.freedesktop.Notifications server for pokedexd's tests.

It owns org.freedesktop.Notifications on the session bus, answers Notify like a real server
(new ids from 1; replaces_id kept), and appends every call as one JSON line to --log:
  {"member": "Notify", "app_name", "replaces_id", "app_icon", "summary", "body", "actions",
   "hints": {name: value}, "expire_timeout", "id"}
CloseNotification(id) emits NotificationClosed(id, 3), as a real server does.
Needs python3-dbus and python3-gi (Debian), hence /usr/bin/python3.
Usage: notification_recorder.py --log FILE --ready FILE
"""
import argparse, json, os

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

IFACE = "org.freedesktop.Notifications"


def plain(v):
    if isinstance(v, (dbus.Boolean,)):
        return bool(v)
    if isinstance(v, (dbus.Byte, dbus.Int16, dbus.Int32, dbus.Int64, dbus.UInt16, dbus.UInt32, dbus.UInt64)):
        return int(v)
    if isinstance(v, (dbus.Array, list)):
        return [plain(x) for x in v]
    if isinstance(v, (dbus.Dictionary, dict)):
        return {str(k): plain(x) for k, x in v.items()}
    return str(v)


class Recorder(dbus.service.Object):
    def __init__(self, bus, log):
        super().__init__(bus, "/org/freedesktop/Notifications")
        self.log = log
        self.last_id = 0

    def record(self, entry):
        with open(self.log, "a") as f:
            f.write(json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n")

    @dbus.service.method(IFACE, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout):
        if replaces_id:
            nid = int(replaces_id)
        else:
            self.last_id += 1
            nid = self.last_id
        self.record({"member": "Notify", "app_name": str(app_name), "replaces_id": int(replaces_id),
                     "app_icon": str(app_icon), "summary": str(summary), "body": str(body),
                     "actions": plain(actions), "hints": plain(hints), "expire_timeout": int(expire_timeout),
                     "id": nid})
        return dbus.UInt32(nid)

    @dbus.service.method(IFACE, in_signature="u", out_signature="")
    def CloseNotification(self, nid):
        self.record({"member": "CloseNotification", "id": int(nid)})
        self.NotificationClosed(nid, 3)

    @dbus.service.signal(IFACE, signature="uu")
    def NotificationClosed(self, nid, reason):
        pass

    # Not part of the spec: the tests press a card's button through this, so that
    # ActionInvoked comes from the server's own connection, as a real server sends it.
    @dbus.service.method(IFACE, in_signature="us", out_signature="")
    def InvokeAction(self, nid, key):
        self.record({"member": "InvokeAction", "id": int(nid), "key": str(key)})
        self.ActionInvoked(nid, key)

    @dbus.service.signal(IFACE, signature="us")
    def ActionInvoked(self, nid, key):
        pass

    @dbus.service.method(IFACE, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["body", "sound"]

    @dbus.service.method(IFACE, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("notification-recorder", "pokedexd tests", "1", "1.2")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--ready", required=True)
    args = ap.parse_args()
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    recorder = Recorder(bus, args.log)
    name = dbus.service.BusName(IFACE, bus, do_not_queue=True)
    with open(args.ready + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.replace(args.ready + ".tmp", args.ready)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
