import Testing

@testable import NetStatusCLI

/// `watch --settle SPAN` and `wait --stable SPAN`: what they accept, and what they reject in one line.
@Suite("netstatus --settle and --stable options")
struct SettleOptionsTests {
  @Test func settleAndStableTakeSpansAndZeroMeansAtOnce() throws {
    #expect(try CommandLineOptions.parse(["watch", "--settle", "5s"]).settle == .seconds(5))
    #expect(try CommandLineOptions.parse(["watch", "--settle=0"]).settle == nil)
    #expect(try CommandLineOptions.parse(["watch"]).settle == nil)
    #expect(try CommandLineOptions.parse(["wait", "--stable", "1500ms"]).stable == .milliseconds(1500))
    #expect(try CommandLineOptions.parse(["wait"]).stable == nil)
  }

  @Test(arguments: [
    (["watch", "--settle", "infinity"], "--settle takes a time span such as 500ms"),
    (["watch", "--settle", "soon"], "--settle takes a time span such as 500ms"),
    (["wait", "--stable", "-1"], "--stable takes a time span such as 500ms"),
    (["wait", "--settle", "1s"], "unknown option '--settle' for 'wait'"),
    (["watch", "--stable", "1s"], "unknown option '--stable' for 'watch'"),
    (["watch", "--all-netns", "--settle", "1s"], "--settle watches one namespace: not with --all-netns"),
  ])
  func rejectsBadSpansWithOneLineNamingTheProblem(arguments: [String], message: String) {
    #expect {
      try CommandLineOptions.parse(arguments)
    } throws: { error in
      let text = (error as? CommandLineOptions.UsageError)?.description ?? ""
      return text.contains(message) && !text.contains("\n")
    }
  }
}
