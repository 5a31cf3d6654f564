/// Why a ``ConnectivityProbe`` cannot be made from what it was given.
///
/// ```swift
/// do {
///     let probe = try ConnectivityProbe(url: "https://example.com/")
/// } catch {
///     print(error)  // explains that the probe speaks plain HTTP, and what to use instead
/// }
/// ```
public enum ConnectivityProbeError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The URL's scheme is not `http`. `https` is refused too: the probe speaks plain HTTP.
  case unsupportedScheme(url: String, scheme: String)
  /// The URL is not a usable `http://` URL.
  case invalidURL(url: String, reason: String)
  /// A setting is out of range (a timeout that is not positive, a status outside 100–599, …).
  case invalidSetting(String)

  /// What is wrong, and what to do.
  public var description: String {
    switch self {
    case .unsupportedScheme(let url, let scheme) where scheme == "https":
      return "the probe URL \(url) uses https, but the connectivity probe speaks plain HTTP only: captive portals "
        + "can only intercept plain HTTP, and there is no portable TLS on Linux. Use an http:// URL that "
        + "answers with a known reply, such as http://connectivity-check.ubuntu.com/ (204)"
    case .unsupportedScheme(let url, let scheme):
      return "the probe URL \(url) uses the scheme '\(scheme)'; the connectivity probe needs an http:// URL"
    case .invalidURL(let url, let reason):
      return "the probe URL '\(url)' is not usable: \(reason). Give an http://HOST[:PORT]/PATH URL"
    case .invalidSetting(let reason):
      return "invalid connectivity probe setting: \(reason)"
    }
  }
}
