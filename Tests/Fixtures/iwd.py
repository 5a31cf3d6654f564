#!/usr/bin/env python3
"""An iwd stand-in for NetStatus's D-Bus tests (dbus-python and GLib, which python3-dbusmock brings).

It owns net.connman.iwd on the bus at --address and serves, at /, org.freedesktop.DBus.ObjectManager.
GetManagedObjects with one station, /net/connman/iwd/0/4: interfaces net.connman.iwd.Device (Name --interface;
with --garbage-name a number instead) and net.connman.iwd.Station (State connected). The station's
RegisterSignalLevelAgent(o path, an levels) records the caller and its agent and, as iwd does, calls the agent's net.connman.iwd.SignalLevelAgent.Changed(o device, y level)
at once, with --level; --refuse answers it with the error net.connman.iwd.Failed instead. --hang holds
GetManagedObjects's answer until AnswerHeld(). --late owns the name with no
station: AddDevice() then announces the device and its station (InterfacesAdded), as iwd does for a device it finds
after it owns its name.
As iwd, it calls the agent (Changed, Release) with NO_REPLY_EXPECTED: an answer to such a call is unrequested, and a
message filter reports it (the private bus lets unrequested replies through so that it can).
It prints one line per event on standard output, flushed at once, so that a test can await them:
  ready                           the name is owned
  list                            a GetManagedObjects arrived (answered or not)
  register STATION AGENT LEVELS   a RegisterSignalLevelAgent arrived (LEVELS comma-separated)
  changed LEVEL                   the agent answered a Changed call that expected an answer
  unrequested reply               the agent answered a call that expected none

The test drives it with methods of org.netstatus.Test on /: SetLevel(y) (the agent's Changed follows), SendGarbage()
(the agent's Changed with a string for its level, then without one), Release()
(the agent's Release), RemoveStation() (InterfacesRemoved of the Station interface), AddStation()
(InterfacesAdded of it again: a station that appears), AddDevice() (InterfacesAdded of the Device, then of its
Station), SetLevelExpectingReply(y) (Changed as a call that expects an answer), AnswerHeld() (answers the held
GetManagedObjects). It stops by itself after --lifetime seconds.
"""
import argparse
import sys

import dbus
import dbus.bus
import dbus.lowlevel
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
        self.present = not options.late
        # The serials of the agent calls sent with NO_REPLY_EXPECTED.
        self.unanswerable = set()
        connection.add_message_filter(self.watch_replies)
        self.interfaces = {
            DEVICE_IFACE: dbus.Dictionary(
                {"Name": dbus.UInt32(7) if options.garbage_name else dbus.String(options.interface),
                 "Powered": dbus.Boolean(True)}, signature="sv"),
            STATION_IFACE: dbus.Dictionary({"State": dbus.String("connected")}, signature="sv"),
        }

    def watch_replies(self, connection, message):
        if isinstance(message, (dbus.lowlevel.MethodReturnMessage, dbus.lowlevel.ErrorMessage)) and \
                message.get_reply_serial() in self.unanswerable:
            say("unrequested reply")
        return dbus.lowlevel.HANDLER_RESULT_NOT_YET_HANDLED

    def call_agent(self, method, *arguments, expect_reply=False):
        if self.agent is None:
            return
        sender, path = self.agent
        signature = "oy" if method == "Changed" else "o"
        if expect_reply:
            self.connection.call_async(sender, path, AGENT_IFACE, method, signature, arguments,
                                       lambda *_: say(f"changed {int(arguments[1])}"),
                                       lambda error: say(f"agent error {error}"))
            return
        message = dbus.lowlevel.MethodCallMessage(sender, path, AGENT_IFACE, method)
        message.append(*arguments, signature=signature)
        message.set_no_reply(True)
        self.connection.send_message(message)
        self.unanswerable.add(message.get_serial())


class Root(dbus.service.Object):
    def __init__(self, connection, service):
        super().__init__(connection, "/")
        self.service = service

    # No out_signature: dbus-python takes the reply's type from its value.
    @dbus.service.method(OBJECT_MANAGER_IFACE, in_signature="", async_callbacks=("reply", "error"))
    def GetManagedObjects(self, reply, error):
        say("list")
        listed = {dbus.ObjectPath(STATION_PATH): dbus.Dictionary(self.service.interfaces, signature="sa{sv}")}
        objects = dbus.Dictionary(listed if self.service.present else {}, signature="oa{sa{sv}}")
        if self.service.options.hang:
            self.service.held.append(lambda: reply(objects))
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

    @dbus.service.method(TEST_IFACE, in_signature="y", out_signature="")
    def SetLevelExpectingReply(self, level):
        self.service.call_agent("Changed", dbus.ObjectPath(STATION_PATH), dbus.Byte(level), expect_reply=True)

    @dbus.service.method(TEST_IFACE, in_signature="", out_signature="")
    def SendGarbage(self):
        """Calls the agent's Changed with a level of another type (a string), then with no level at all."""
        if self.service.agent is None:
            return
        sender, path = self.service.agent
        for arguments, signature in [((dbus.ObjectPath(STATION_PATH), "good"), "os"),
                                     ((dbus.ObjectPath(STATION_PATH),), "o")]:
            message = dbus.lowlevel.MethodCallMessage(sender, path, AGENT_IFACE, "Changed")
            message.append(*arguments, signature=signature)
            message.set_no_reply(True)
            self.service.connection.send_message(message)

    @dbus.service.method(TEST_IFACE, in_signature="", out_signature="")
    def AnswerHeld(self):
        held, self.service.held = self.service.held, []
        for answer in held:
            answer()

    @dbus.service.method(TEST_IFACE, in_signature="", out_signature="")
    def AddDevice(self):
        self.service.present = True
        self.InterfacesAdded(dbus.ObjectPath(STATION_PATH), dbus.Dictionary(
            {DEVICE_IFACE: self.service.interfaces[DEVICE_IFACE]}, signature="sa{sv}"))
        self.AddStation()

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
    parser.add_argument("--late", action="store_true")
    parser.add_argument("--garbage-name", action="store_true")
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
