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

    /// Applies an ObjectManager event (a listing's object, property or end, `InterfacesAdded`,
    /// `InterfacesRemoved`) to ModemManager's mirror.
    func handleModemManager(_ event: SDBusConnection.Event, _ mirror: inout ModemManagerMirror) {
      switch event {
      case .object(let token, let path, let interfaces):
        list(mirror.object(token: token, path: path, interfaces: interfaces), into: &mirror)
      case .listedProperty(let token, let path, let interface, let property, let value):
        list(
          mirror.property(token: token, path: path, interface: interface, name: property, value: value), into: &mirror)
      case .objectRemoved(let path, let interfaces): mirror.removed(path: path, interfaces: interfaces)
      case .listed(let token, let failure): mirror.listed(token, failure)
      default: break
      }
    }
  }
#endif
