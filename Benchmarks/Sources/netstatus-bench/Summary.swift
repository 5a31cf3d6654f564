/// Order statistics of a sample of durations, in microseconds.
struct Summary: Codable, Sendable {
  /// How many values.
  var count: Int
  /// The median.
  var p50: Double
  /// The 90th percentile.
  var p90: Double
  /// The 99th percentile.
  var p99: Double
  /// The largest value.
  var max: Double
  /// The smallest value.
  var min: Double
  /// The mean.
  var mean: Double

  /// Summarises nanosecond durations as microseconds (nearest-rank percentiles).
  init(nanoseconds values: [Int64]) {
    self.init(values: values.map { Double($0) / 1_000 })
  }

  /// Summarises values as they are (nearest-rank percentiles; the p50 of an even count is the lower middle).
  init(values: [Double]) {
    precondition(!values.isEmpty, "no values to summarise")
    let sorted = values.sorted()
    func rank(_ percentile: Double) -> Double {
      let index = Int((percentile / 100 * Double(sorted.count)).rounded(.up)) - 1
      return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))]
    }
    count = sorted.count
    p50 = rank(50)
    p90 = rank(90)
    p99 = rank(99)
    max = sorted.last!
    min = sorted.first!
    mean = sorted.reduce(0, +) / Double(sorted.count)
  }

  /// The median: the middle value, or the mean of the two middle values of an even count.
  static func median(_ values: [Double]) -> Double {
    precondition(!values.isEmpty, "no values")
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
