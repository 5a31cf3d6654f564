/// The closest valid word to a mistyped one (`--jsno` → `--json`, `wacth` → `watch`), for usage errors. Pure.
enum Suggestion {
  /// The candidate closest to `word` by edit distance (a swap of two neighbours counts once), if it is close
  /// enough to be a typo: at most 2 edits, and fewer than half the word. The first such candidate wins a tie.
  static func closest(to word: String, among candidates: [String]) -> String? {
    var best: (candidate: String, distance: Int)?
    // The word itself is not a suggestion: it was not taken as it is, so it is not what was meant.
    for candidate in candidates where candidate != word {
      let distance = editDistance(Array(word), Array(candidate))
      if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
    }
    guard let best, best.distance <= 2, best.distance * 2 < word.count else { return nil }
    return best.candidate
  }

  /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, table[i - 2][j - 2] + 1) }
        table[i][j] = value
      }
    }
    return table[a.count][b.count]
  }
}
