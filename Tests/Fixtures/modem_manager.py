#!/usr/bin/env python3
"""A ModemManager stand-in for NetStatus's D-Bus tests (dbus-python and GLib, which python3-dbusmock brings).

It owns org.freedesktop.ModemManager1 on the bus at --address and serves, at /org/freedesktop/ModemManager1,
org.freedesktop.DBus.ObjectManager.GetManagedObjects with one modem (/org/freedesktop/ModemManager1/Modem/0,
interface org.freedesktop.ModemManager1.Modem) whose Ports are a tty port (type 3, AT) and --interface (type 2, NET)
and whose SignalQuality is (--quality, true). --garbage gives the modem's properties other types (SignalQuality a
`u`, Ports an `as`); --garbage-listing answers GetManagedObjects with a string; --hang holds its answer until
AnswerHeld().
It prints one line per event on standard output, flushed at once, so that a test can await them:
  ready                     the name is owned
  list                      a GetManagedObjects arrived (answered or not)

The test drives it with methods of org.netstatus.Test on /org/freedesktop/ModemManager1: SetQuality(u) (the modem's
PropertiesChanged follows), RemoveModem() (InterfacesRemoved), AddModem(s interface, u quality) (InterfacesAdded of
a modem at /org/freedesktop/ModemManager1/Modem/1 with that NET port), AnswerHeld() (answers the held
GetManagedObjects). It stops by itself after --lifetime seconds.
"""
import argparse
import sys

import dbus
import dbus.bus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

MANAGER_PATH = "/org/freedesktop/ModemManager1"
MODEM_IFACE = "org.freedesktop.ModemManager1.Modem"
OBJECT_MANAGER_IFACE = "org.freedesktop.DBus.ObjectManager"
TEST_IFACE = "org.netstatus.Test"


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def modem_properties(interface, quality, garbage):
    if garbage:
        return {
            "SignalQuality": dbus.UInt32(quality),
            "Ports": dbus.Array([dbus.String(interface)], signature="s"),
        }
    return {
        "SignalQuality": dbus.Struct((dbus.UInt32(quality), dbus.Boolean(True)), signature="ub"),
        "Ports": dbus.Array(
            [dbus.Struct((dbus.String("ttyUSB2"), dbus.UInt32(3)), signature="su"),
             dbus.Struct((dbus.String(interface), dbus.UInt32(2)), signature="su")],
            signature="(su)"),
        "Manufacturer": dbus.String("NetStatus"),
    }


class Modem(dbus.service.Object):
    def __init__(self, connection, path, properties):
        super().__init__(connection, path)
        self.properties = properties

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.properties[name]

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.properties

    @dbus.service.signal(dbus.PROPERTIES_IFACE, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


class Manager(dbus.service.Object):
    def __init__(self, connection, options):
        super().__init__(connection, MANAGER_PATH)
        self.bus_connection = connection
        self.options = options
        self.held = []
        self.modems = {}
        path = MANAGER_PATH + "/Modem/0"
        self.modems[path] = Modem(connection, path, modem_properties(options.interface, options.quality,
                                                                      options.garbage))

    def objects(self):
        return dbus.Dictionary(
            {dbus.ObjectPath(path): dbus.Dictionary({MODEM_IFACE: dbus.Dictionary(modem.properties, signature="sv")},
                                                    signature="sa{sv}")
             for path, modem in self.modems.items()},
            signature="oa{sa{sv}}")

    # No out_signature: dbus-python takes the reply's type from its value.
    @dbus.service.method(OBJECT_MANAGER_IFACE, in_signature="", async_callbacks=("reply", "error"))
    def GetManagedObjects(self, reply, error):
        say("list")
        # The reply is sent raw, so that --garbage-listing can give it another type.
        answer = (lambda: reply(dbus.String("garbage"))) if self.options.garbage_listing else (
            lambda: reply(self.objects()))
        if self.options.hang:
            self.held.append(answer)
            return
        answer()

    @dbus.service.signal(OBJECT_MANAGER_IFACE, signature="oa{sa{sv}}")
    def InterfacesAdded(self, path, interfaces):
        pass

    @dbus.service.signal(OBJECT_MANAGER_IFACE, signature="oas")
    def InterfacesRemoved(self, path, interfaces):
        pass

    @dbus.service.method(TEST_IFACE, in_signature="u", out_signature="")
    def SetQuality(self, quality):
        modem = self.modems[MANAGER_PATH + "/Modem/0"]
        value = dbus.Struct((dbus.UInt32(quality), dbus.Boolean(True)), signature="ub")
        modem.properties["SignalQuality"] = value
        modem.PropertiesChanged(MODEM_IFACE, dbus.Dictionary({"SignalQuality": value}, signature="sv"),
                                dbus.Array([], signature="s"))

    @dbus.service.method(TEST_IFACE, in_signature="", out_signature="")
    def AnswerHeld(self):
        held, self.held = self.held, []
        for answer in held:
            answer()

    @dbus.service.method(TEST_IFACE, in_signature="", out_signature="")
    def RemoveModem(self):
        path = MANAGER_PATH + "/Modem/0"
        modem = self.modems.pop(path)
        modem.remove_from_connection()
        self.InterfacesRemoved(dbus.ObjectPath(path), dbus.Array([MODEM_IFACE], signature="s"))

    @dbus.service.method(TEST_IFACE, in_signature="su", out_signature="")
    def AddModem(self, interface, quality):
        path = MANAGER_PATH + "/Modem/1"
        properties = modem_properties(interface, quality, False)
        self.modems[path] = Modem(self.bus_connection, path, properties)
        self.InterfacesAdded(dbus.ObjectPath(path), dbus.Dictionary(
            {MODEM_IFACE: dbus.Dictionary(properties, signature="sv")}, signature="sa{sv}"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--interface", default="v0")
    parser.add_argument("--quality", type=int, default=80)
    parser.add_argument("--garbage", action="store_true")
    parser.add_argument("--garbage-listing", action="store_true")
    parser.add_argument("--hang", action="store_true")
    parser.add_argument("--lifetime", type=float, default=120)
    options = parser.parse_args()
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    connection = dbus.bus.BusConnection(options.address)
    Manager(connection, options)
    name = dbus.service.BusName("org.freedesktop.ModemManager1", connection)
    loop = GLib.MainLoop()
    GLib.timeout_add(int(options.lifetime * 1000), loop.quit)
    say("ready")
    loop.run()
    del name


if __name__ == "__main__":
    main()
