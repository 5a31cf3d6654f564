#!/usr/bin/env python3
"""An iwd stand-in for NetStatus's D-Bus tests (dbus-python and GLib, which python3-dbusmock brings).

It owns net.connman.iwd on the bus at --address and serves, at /, org.freedesktop.DBus.ObjectManager.
GetManagedObjects with one station, /net/connman/iwd/0/4: interfaces net.connman.iwd.Device (Name --interface) and
net.connman.iwd.Station (State connected). The station's RegisterSignalLevelAgent(o path, an levels) records the
caller and its agent and, as iwd does, calls the agent's net.connman.iwd.SignalLevelAgent.Changed(o device, y level)
at once, with --level; --refuse answers it with the error net.connman.iwd.Failed instead. --hang never answers
GetManagedObjects, or answers it --delay seconds late.
It prints one line per event on standard output, flushed at once, so that a test can await them:
  ready                           the name is owned
  list                            a GetManagedObjects arrived (answered or not)
  register STATION AGENT LEVELS   a RegisterSignalLevelAgent arrived (LEVELS comma-separated)
  changed LEVEL                   the agent answered a Changed call
  released                        the agent answered a Release call

The test drives it with methods of org.netstatus.Test on /: SetLevel(y) (the agent's Changed follows), Release()
(the agent's Release), RemoveStation() (InterfacesRemoved of the Station interface), AddStation()
(InterfacesAdded of it again: a station that appears). It stops by itself after --lifetime seconds.
"""
import argparse
import sys

import dbus
import dbus.bus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

STATION_PATH = "/net/connman/iwd/0/4"
DEVICE_IFACE = "net.connman.iwd.Device"
STATION_IFACE = "net.connman.iwd.Station"
AGENT_IFACE = "net.connman.iwd.SignalLevelAgent"
OBJECT_MANAGER_IFACE = "org.freedesktop.DBus.ObjectManager"
TEST_IFACE = "org.netstatus.Test"


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Service:
    def __init__(self, connection, options):
        self.connection = connection
        self.options = options
        self.agent = None  # (unique name, object path)
        self.held = []
        self.interfaces = {
            DEVICE_IFACE: dbus.Dictionary({"Name": dbus.String(options.interface), "Powered": dbus.Boolean(True)},
                                          signature="sv"),
            STATION_IFACE: dbus.Dictionary({"State": dbus.String("connected")}, signature="sv"),
        }

    def call_agent(self, method, *arguments):
        if self.agent is None:
            return
        sender, path = self.agent
        signature = "oy" if method == "Changed" else "o"
        label = f"changed {int(arguments[1])}" if method == "Changed" else "released"
        self.connection.call_async(sender, path, AGENT_IFACE, method, signature, arguments,
                                   lambda *_: say(label), lambda error: say(f"agent error {error}"))


class Root(dbus.service.Object):
    def __init__(self, connection, service):
        super().__init__(connection, "/")
        self.service = service

    # No out_signature: dbus-python takes the reply's type from its value.
    @dbus.service.method(OBJECT_MANAGER_IFACE, in_signature="", async_callbacks=("reply", "error"))
    def GetManagedObjects(self, reply, error):
        say("list")
        objects = dbus.Dictionary(
            {dbus.ObjectPath(STATION_PATH): dbus.Dictionary(self.service.interfaces, signature="sa{sv}")},
            signature="oa{sa{sv}}")
        if self.service.options.hang:
            if self.service.options.delay > 0:
                GLib.timeout_add(int(self.service.options.delay * 1000), lambda: reply(objects) and False)
            else:
                self.service.held.append((reply, error))
            return
        reply(objects)

    @dbus.service.signal(OBJECT_MANAGER_IFACE, signature="oa{sa{sv}}")
    def InterfacesAdded(self, path, interfaces):
        pass

    @dbus.service.signal(OBJECT_MANAGER_IFACE, signature="oas")
    def InterfacesRemoved(self, path, interfaces):
        pass

    @dbus.service.method(TEST_IFACE, in_signature="y", out_signature="")
    def SetLevel(self, level):
        self.service.call_agent("Changed", dbus.ObjectPath(STATION_PATH), dbus.Byte(level))

    @dbus.service.method(TEST_IFACE, in_signature="", out_signature="")
    def Release(self):
        self.service.call_agent("Release", dbus.ObjectPath(STATION_PATH))
        self.service.agent = None

    @dbus.service.method(TEST_IFACE, in_signature="", out_signature="")
    def RemoveStation(self):
        self.service.agent = None
        self.InterfacesRemoved(dbus.ObjectPath(STATION_PATH), dbus.Array([STATION_IFACE], signature="s"))

    @dbus.service.method(TEST_IFACE, in_signature="", out_signature="")
    def AddStation(self):
        self.InterfacesAdded(dbus.ObjectPath(STATION_PATH), dbus.Dictionary(
            {STATION_IFACE: self.service.interfaces[STATION_IFACE]}, signature="sa{sv}"))


class Station(dbus.service.Object):
    def __init__(self, connection, service):
        super().__init__(connection, STATION_PATH)
        self.service = service

    @dbus.service.method(STATION_IFACE, in_signature="oan", out_signature="", sender_keyword="sender")
    def RegisterSignalLevelAgent(self, path, levels, sender=None):
        say(f"register {STATION_PATH} {path} {','.join(str(int(level)) for level in levels)}")
        if self.service.options.refuse:
            raise dbus.exceptions.DBusException("refused by the test", name="net.connman.iwd.Failed")
        self.service.agent = (sender, path)
        # As iwd: the agent hears the current level at once (after this reply, from the main loop).
        GLib.idle_add(lambda: self.service.call_agent(
            "Changed", dbus.ObjectPath(STATION_PATH), dbus.Byte(self.service.options.level)) and False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--interface", default="v0")
    parser.add_argument("--level", type=int, default=0)
    parser.add_argument("--refuse", action="store_true")
    parser.add_argument("--hang", action="store_true")
    parser.add_argument("--delay", type=float, default=0)
    parser.add_argument("--lifetime", type=float, default=120)
    options = parser.parse_args()
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    connection = dbus.bus.BusConnection(options.address)
    service = Service(connection, options)
    Root(connection, service)
    Station(connection, service)
    name = dbus.service.BusName("net.connman.iwd", connection)
    loop = GLib.MainLoop()
    GLib.timeout_add(int(options.lifetime * 1000), loop.quit)
    say("ready")
    loop.run()
    del name


if __name__ == "__main__":
    main()
