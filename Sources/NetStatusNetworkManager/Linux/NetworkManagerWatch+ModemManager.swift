#if os(Linux)
  extension NetworkManagerWatch {
    /// The signals of ModemManager followed, on NetworkManager's connection: its name's owner, its ObjectManager's
    /// `InterfacesAdded` and `InterfacesRemoved`, and `PropertiesChanged` of its objects (a modem's
    /// `SignalQuality` as ModemManager reads it again). Without ModemManager on the bus none of them ever comes.
    static let modemManagerMatchRules = [
      "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
        + "member='NameOwnerChanged',arg0='org.freedesktop.ModemManager1'",
      "type='signal',sender='org.freedesktop.ModemManager1',interface='org.freedesktop.DBus.ObjectManager',"
        + "path='/org/freedesktop/ModemManager1'",
      "type='signal',sender='org.freedesktop.ModemManager1',member='PropertiesChanged',"
        + "path_namespace='/org/freedesktop/ModemManager1'",
    ]
  }

  extension NetworkManagerWatch.Runner {
    /// Sends ModemManager's `GetManagedObjects` as `token` decides (`nil`: nothing to send); one that cannot be
    /// sent fails the listing at once.
    func list(_ token: UInt64?, into mirror: inout ModemManagerMirror) {
      guard let token else { return }
      do throws(SDBusConnection.Failure) {
        try connection.getManagedObjects(
          ModemManagerMirror.service, ModemManagerMirror.managerPath, token: token, timeout: callTimeout)
      } catch {
        mirror.listed(
          token, NetworkManagerMirror.ReadFailure(errorName: "", code: error.code, description: error.description))
      }
    }
  }
#endif
