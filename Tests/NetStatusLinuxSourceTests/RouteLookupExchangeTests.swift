#if os(Linux)
  import Testing

  @testable import NetStatusNetlink

  @testable import NetStatusLinuxSource

  /// The route lookup exchange as a pure state machine: batching, sequence numbers, matching answers, the second
  /// attempt and the failure after it, driven by hand.
  @Suite("route lookup exchange")
  struct RouteLookupExchangeTests {
    let answer = RouteLookupResult.answered(
      RouteLookupAnswer(type: 1, table: 254, priority: 0, interfaceIndex: 2, gateway: nil, preferredSource: nil))

    /// `count` distinct requests.
    func requests(_ count: Int) -> [RouteLookupRequest] {
      (0..<count).map { number in
        var request = RouteLookupRequest.primary(ipv4: number % 2 == 0)
        request.interfaceIndex = Int32(number / 2)
        return request
      }
    }

    @Test func oneBatchAnsweredInFullEndsTheExchange() {
      let asked = requests(3)
      var exchange = RouteLookupExchange(asked, sequence: 10)
      var answers = RouteLookupAnswers()
      guard let batch = exchange.nextBatch(answers: &answers) else {
        Issue.record("three requests make one batch")
        return
      }
      #expect(Array(exchange.requests(in: batch)) == asked)
      #expect(batch.firstSequence == 11)
      #expect(exchange.sequence == 13, "consecutive numbers, one per request")
      for sequence in UInt32(11)...13 {
        #expect(exchange.awaitsAnswers)
        #expect(exchange.record(answer, sequence: sequence, into: &answers))
      }
      #expect(!exchange.awaitsAnswers)
      #expect(exchange.nextBatch(answers: &answers) == nil)
      #expect(answers.count == 3)
      #expect(exchange.asked == 3)
    }

    @Test func answersAreMatchedBySequenceNumberInAnyOrder() {
      let asked = requests(3)
      var exchange = RouteLookupExchange(asked, sequence: 0)
      var answers = RouteLookupAnswers()
      _ = exchange.nextBatch(answers: &answers)
      let failure = RouteLookupResult.failed(errno: 101)
      #expect(exchange.record(failure, sequence: 3, into: &answers))
      #expect(exchange.record(answer, sequence: 1, into: &answers))
      #expect(answers[asked[2]] == failure)
      #expect(answers[asked[0]] == answer)
      #expect(answers[asked[1]] == nil)
      #expect(!exchange.record(answer, sequence: 3, into: &answers), "a repeated answer is not a new one")
      #expect(exchange.awaitsAnswers)
    }

    @Test func answersOfEarlierBatchesAreDropped() {
      var exchange = RouteLookupExchange(requests(2), sequence: 100)
      var answers = RouteLookupAnswers()
      _ = exchange.nextBatch(answers: &answers)
      #expect(!exchange.isAwaited(sequence: 100), "an older number: a late answer to a batch given up on")
      #expect(!exchange.record(answer, sequence: 100, into: &answers))
      #expect(!exchange.record(answer, sequence: 103, into: &answers), "past the batch")
      #expect(!exchange.record(answer, sequence: 0, into: &answers), "a notification's number")
      #expect(answers.count == 0)
    }

    @Test func manyRequestsGoInBatchesOfTheBatchSize() {
      let count = RouteLookupExchange.batchSize * 2 + 5
      var exchange = RouteLookupExchange(requests(count), sequence: 0)
      var answers = RouteLookupAnswers()
      var sizes: [Int] = []
      var firsts: [UInt32] = []
      while let batch = exchange.nextBatch(answers: &answers) {
        sizes.append(batch.positions.count)
        firsts.append(batch.firstSequence)
        for offset in 0..<batch.positions.count {
          exchange.record(answer, sequence: batch.firstSequence + UInt32(offset), into: &answers)
        }
      }
      #expect(sizes == [RouteLookupExchange.batchSize, RouteLookupExchange.batchSize, 5])
      #expect(firsts == [1, 65, 129])
      #expect(answers.count == count)
      #expect(exchange.asked == count)
    }

    @Test func unansweredRequestsAreAskedOnceMoreThenFailWithEIO() {
      let asked = requests(4)
      var exchange = RouteLookupExchange(asked, sequence: 0)
      var answers = RouteLookupAnswers()
      _ = exchange.nextBatch(answers: &answers)
      exchange.record(answer, sequence: 1, into: &answers)
      exchange.record(answer, sequence: 3, into: &answers)
      guard let second = exchange.nextBatch(answers: &answers) else {
        Issue.record("the unanswered are asked again")
        return
      }
      #expect(Array(exchange.requests(in: second)) == [asked[1], asked[3]])
      #expect(second.firstSequence == 5, "new numbers: a late answer to the first attempt is not taken for this one")
      #expect(!exchange.record(answer, sequence: 2, into: &answers))
      exchange.record(answer, sequence: 6, into: &answers)
      #expect(exchange.nextBatch(answers: &answers) == nil, "two attempts, then no more")
      #expect(answers[asked[1]] == .failed(errno: RouteLookupExchange.unansweredErrno))
      #expect(answers[asked[3]] == answer)
      #expect(exchange.asked == 6)
      #expect(exchange.sequence == 6)
    }

    @Test func eachBatchIsAWaitOfItsOwn() {
      var exchange = RouteLookupExchange(requests(2), sequence: 0)
      var answers = RouteLookupAnswers()
      _ = exchange.nextBatch(answers: &answers)
      let first = exchange.awaitedSequence
      #expect(exchange.awaitsAnswers)
      // The deadline passed: the batch ends unanswered, and the second attempt asks again under new numbers.
      _ = exchange.nextBatch(answers: &answers)
      #expect(exchange.awaitedSequence != first, "a new batch: its own deadline")
      #expect(exchange.awaitsAnswers)
    }

    @Test func sequenceNumbersWrapBeforeABatchCouldOverflow() {
      var exchange = RouteLookupExchange(requests(2), sequence: UInt32.max - 10)
      var answers = RouteLookupAnswers()
      let batch = exchange.nextBatch(answers: &answers)
      #expect(batch?.firstSequence == 1)
      #expect(exchange.sequence == 2)
    }

    @Test func noRequestsNoBatch() {
      var exchange = RouteLookupExchange([], sequence: 7)
      var answers = RouteLookupAnswers()
      #expect(exchange.nextBatch(answers: &answers) == nil)
      #expect(exchange.sequence == 7)
      #expect(exchange.asked == 0)
    }
  }
#endif
