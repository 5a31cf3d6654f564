#!/usr/bin/env python3
"""A NetworkManager that stops answering, for NetStatus's D-Bus tests (dbus-python and GLib, which python3-dbusmock
brings).

It owns org.freedesktop.NetworkManager on the bus at --address and serves org.freedesktop.DBus.Properties.Get of
the manager (Connectivity 4, Devices) and of --devices devices (/org/freedesktop/NetworkManager/Devices/N:
Interface, IpInterface "", Metered --metered); the first device's Interface is --interface, the others devN.
With --wifi STRENGTH the first device is a Wi-Fi device (ActiveAccessPoint /org/freedesktop/NetworkManager/
AccessPoint/0, whose Strength is that byte; --wifi-garbage makes it a string instead); the others have no
Device.Wireless (a Get of ActiveAccessPoint fails, as NetworkManager's Ethernet devices answer).
It prints one line per event on standard output, flushed at once, so that a test can await them:
  ready                     the name is owned
  get PATH PROPERTY         a Get arrived (answered or not)

What it does not answer: --hang none (answers everything), devices (never answers a device's or an access point's
Get, the manager's yes), accesspoints (never answers an access point's Get), all (never answers any Get). The test
changes the mode with the method org.netstatus.Test.SetHang(s) on the manager object, answers the Gets held so far
with AnswerHeld() (a late answer: when the test says, not after a time a slow start could outlast), and makes it emit
PropertiesChanged naming a property without its value with org.netstatus.Test.Invalidate(o path, s property).
Unanswered calls are kept until AnswerHeld() or the end of the process. It stops by itself after --lifetime seconds.
"""
import argparse
import sys

import dbus
import dbus.bus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

MANAGER_PATH = "/org/freedesktop/NetworkManager"
MANAGER_IFACE = "org.freedesktop.NetworkManager"
DEVICE_IFACE = "org.freedesktop.NetworkManager.Device"
TEST_IFACE = "org.netstatus.Test"


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Service:
    def __init__(self, options):
        self.hang = options.hang
        self.held = []
        self.devices = {}
        self.access_points = {}
        for number in range(options.devices):
            path = f"/org/freedesktop/NetworkManager/Devices/{number}"
            name = options.interface if number == 0 else f"dev{number}"
            self.devices[path] = {
                "Interface": dbus.String(name),
                "IpInterface": dbus.String(""),
                "Metered": dbus.UInt32(options.metered),
            }
        if options.wifi is not None and self.devices:
            access_point = "/org/freedesktop/NetworkManager/AccessPoint/0"
            first = next(iter(self.devices))
            self.devices[first]["ActiveAccessPoint"] = dbus.ObjectPath(access_point)
            strength = dbus.String("strong") if options.wifi_garbage else dbus.Byte(options.wifi)
            self.access_points[access_point] = {"Strength": strength}

    def answer(self, path, name, reply, error):
        say(f"get {path} {name}")
        is_device = path != MANAGER_PATH
        is_access_point = path in self.access_points
        if self.hang == "all" or (self.hang == "devices" and is_device) or (
                self.hang == "accesspoints" and is_access_point):
            self.held.append(lambda: self.reply(path, name, reply, error))
            return
        self.reply(path, name, reply, error)

    def reply(self, path, name, reply, error):
        if path == MANAGER_PATH:
            values = {
                "Connectivity": dbus.UInt32(4),
                "Devices": dbus.Array([dbus.ObjectPath(p) for p in self.devices], signature="o"),
            }
        else:
            values = self.devices.get(path) or self.access_points.get(path, {})
        if name in values:
            reply(values[name])
        else:
            error(dbus.exceptions.DBusException(
                f"no property {name}", name="org.freedesktop.DBus.Error.UnknownProperty"))
        return False


class Manager(dbus.service.Object):
    def __init__(self, connection, service):
        super().__init__(connection, MANAGER_PATH)
        self.service = service

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v",
                         async_callbacks=("reply", "error"))
    def Get(self, interface, name, reply, error):
        self.service.answer(MANAGER_PATH, name, reply, error)

    @dbus.service.method(TEST_IFACE, in_signature="s", out_signature="")
    def SetHang(self, mode):
        self.service.hang = mode

    @dbus.service.method(TEST_IFACE, in_signature="", out_signature="")
    def AnswerHeld(self):
        held, self.service.held = self.service.held, []
        for answer in held:
            answer()

    @dbus.service.method(TEST_IFACE, in_signature="os", out_signature="")
    def Invalidate(self, path, name):
        target = self if path == MANAGER_PATH else self.device_objects[path]
        interface = MANAGER_IFACE if path == MANAGER_PATH else DEVICE_IFACE
        target.PropertiesChanged(interface, dbus.Dictionary({}, signature="sv"), dbus.Array([name], signature="s"))

    @dbus.service.signal(dbus.PROPERTIES_IFACE, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


class Device(dbus.service.Object):
    def __init__(self, connection, path, service):
        super().__init__(connection, path)
        self.path = path
        self.service = service

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v",
                         async_callbacks=("reply", "error"))
    def Get(self, interface, name, reply, error):
        self.service.answer(self.path, name, reply, error)

    @dbus.service.signal(dbus.PROPERTIES_IFACE, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--devices", type=int, default=1)
    parser.add_argument("--interface", default="v0")
    parser.add_argument("--metered", type=int, default=1)
    parser.add_argument("--hang", choices=["none", "devices", "accesspoints", "all"], default="none")
    parser.add_argument("--wifi", type=int, default=None)
    parser.add_argument("--wifi-garbage", action="store_true")
    parser.add_argument("--lifetime", type=float, default=120)
    options = parser.parse_args()
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    connection = dbus.bus.BusConnection(options.address)
    service = Service(options)
    manager = Manager(connection, service)
    manager.device_objects = {path: Device(connection, path, service) for path in service.devices}
    manager.device_objects.update({path: Device(connection, path, service) for path in service.access_points})
    name = dbus.service.BusName("org.freedesktop.NetworkManager", connection)
    loop = GLib.MainLoop()
    GLib.timeout_add(int(options.lifetime * 1000), loop.quit)
    say("ready")
    loop.run()
    del name


if __name__ == "__main__":
    main()
