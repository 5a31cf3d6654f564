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

    /// Applies an ObjectManager event (a listing's object, property or end, `InterfacesAdded`, `InterfacesRemoved`)
    /// or a call of iwd's agent to the mirrors: a listing's to the mirror whose token it has, a signal's to both
    /// (each takes only its own objects).
    func handleObjects(_ event: SDBusConnection.Event, _ mirrors: inout Mirrors) {
      switch event {
      case .object(let token, let path, let interfaces):
        if token == 0 || ModemManagerMirror.owns(token) {
          list(
            mirrors.modemManager.object(token: token, path: path, interfaces: interfaces), into: &mirrors.modemManager)
        }
        if token == 0 || IwdMirror.owns(token) {
          perform(mirrors.iwd.object(token: token, path: path, interfaces: interfaces), into: &mirrors.iwd)
        }
      case .listedProperty(let token, let path, let interface, let property, let value):
        if token == 0 || ModemManagerMirror.owns(token) {
          list(
            mirrors.modemManager.property(token: token, path: path, interface: interface, name: property, value: value),
            into: &mirrors.modemManager)
        }
        if token == 0 || IwdMirror.owns(token) {
          mirrors.iwd.property(token: token, path: path, interface: interface, name: property, value: value)
        }
      case .objectRemoved(let path, let interfaces):
        mirrors.modemManager.removed(path: path, interfaces: interfaces)
        mirrors.iwd.removed(path: path, interfaces: interfaces)
      case .listed(let token, let failure):
        if ModemManagerMirror.owns(token) { mirrors.modemManager.listed(token, failure) }
        if IwdMirror.owns(token) { mirrors.iwd.listed(token, failure) }
      case .methodCall(let sender, let path, let interface, let method, let object, let byte):
        guard path == IwdMirror.agentPath, interface == IwdMirror.agentInterface, let object else { return }
        mirrors.iwd.agentCalled(method, by: sender, device: object, level: byte)
      default: break
      }
    }
  }
#endif
