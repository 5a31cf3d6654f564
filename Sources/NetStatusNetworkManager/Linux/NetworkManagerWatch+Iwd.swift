#if os(Linux)
  import NetStatusNetlink

  extension NetworkManagerWatch {
    /// The signals of iwd followed, on NetworkManager's connection: its name's owner, and its ObjectManager's
    /// `InterfacesAdded` and `InterfacesRemoved` (a station that appears is registered with). The levels come as
    /// calls of the agent NetStatus exports, not as signals. Without iwd on the bus none of them ever comes.
    static let iwdMatchRules = [
      "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
        + "member='NameOwnerChanged',arg0='net.connman.iwd'",
      "type='signal',sender='net.connman.iwd',interface='org.freedesktop.DBus.ObjectManager',path='/'",
    ]
  }

  extension NetworkManagerWatch.Runner {
    /// Exports the signal level agent's object and lists iwd's objects; when the object cannot be exported, iwd is
    /// not followed and its status says why.
    func startIwd(_ mirror: inout IwdMirror) {
      let calls = mirror.start()
      do throws(SDBusConnection.Failure) {
        try connection.export(IwdMirror.agentPath)
      } catch {
        for case .list(let token) in calls {
          mirror.listed(token, .init(errorName: "", code: error.code, description: error.description))
        }
        return
      }
      perform(calls, into: &mirror)
    }

    /// Makes iwd's calls; one that cannot be sent is answered with its failure at once.
    func perform(_ calls: [IwdMirror.Call], into mirror: inout IwdMirror) {
      for call in calls {
        do throws(SDBusConnection.Failure) {
          switch call {
          case .list(let token):
            try connection.getManagedObjects(
              IwdMirror.service, IwdMirror.managerPath, token: token, timeout: callTimeout)
          case .register(let token, let station):
            try connection.call(
              IwdMirror.service, station, IwdMirror.stationInterface, "RegisterSignalLevelAgent",
              object: IwdMirror.agentPath, numbers: LinkQualityRules.iwdSignalLevels, token: token,
              timeout: callTimeout)
          }
        } catch {
          let failure = NetworkManagerMirror.ReadFailure(
            errorName: "", code: error.code, description: error.description)
          switch call {
          case .list(let token): mirror.listed(token, failure)
          case .register(let token, _): mirror.answered(token, from: "", .failure(failure))
          }
        }
      }
    }
  }
#endif
