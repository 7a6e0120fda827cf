#!/usr/bin/python3
"""Callers of pokedexd's launches, for desktop-search-test.sh:
  burst N              N LaunchSearch calls as fast as one connection sends them
  tokens               SetActivationToken from connection A, Run from B; then both from A
"""
import os
import sys
import time

import dbus
import dbus.bus

SERVICE = "io.github.pokedexd.Pokedex1"


def connection():
    return dbus.bus.BusConnection(os.environ["DBUS_SESSION_BUS_ADDRESS"])


def main():
    if sys.argv[1] == "burst":
        o = connection().get_object(SERVICE, "/io/github/pokedexd/SearchProvider")
        t = time.monotonic()
        for i in range(int(sys.argv[2])):
            o.LaunchSearch(["pika%d" % i], dbus.UInt32(0), dbus_interface="org.gnome.Shell.SearchProvider2")
        print("%s calls in %.2f s" % (sys.argv[2], time.monotonic() - t))
    elif sys.argv[1] == "tokens":
        def runner(bus):
            return dbus.Interface(bus.get_object(SERVICE, "/io/github/pokedexd/KRunner"), "org.kde.krunner1")
        a, b = runner(connection()), runner(connection())
        a.SetActivationToken("token-from-a")
        b.Run("25", "")  # another caller: not a's token
        time.sleep(1.1)  # past the launch rate limit
        a.SetActivationToken("token-from-a-2")
        a.Run("25", "")  # the same caller: its token
    else:
        sys.exit(__doc__)


main()
