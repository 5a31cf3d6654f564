// Apple platforms only (UIKit); compiled by CI for iOS against the stand-in SDK. See Examples/README.md.
//
// Puts NetStatusViewController on screen without a storyboard: replace the template's SceneDelegate.swift with this
// file and remove the storyboard entries from the target's Info settings (Examples/README.md says which).
import UIKit

final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?

  func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options: UIScene.ConnectionOptions) {
    guard let windowScene = scene as? UIWindowScene else { return }
    let window = UIWindow(windowScene: windowScene)
    window.rootViewController = UINavigationController(rootViewController: NetStatusViewController())
    window.makeKeyAndVisible()
    self.window = window
  }
}
