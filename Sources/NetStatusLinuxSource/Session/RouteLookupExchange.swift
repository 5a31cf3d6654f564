#if os(Linux)
  import NetStatusNetlink

  /// The protocol of one round of route lookups on a netlink socket: which requests go out together, with which
  /// sequence numbers, which answer belongs to which request, and what is asked once more.
  ///
  /// Pure (kept in this module, beside its caller, so that the optimizer inlines it into the hot path rather than
  /// calling it across modules): it says what to send and records what came back; its caller does the I/O
  /// (`NetlinkSessionCore.lookUp(on:deadlinePassed:)`). One value serves one list of requests.
  ///
  /// The kernel answers each request while `sendto` runs, so a batch's answers are queued when it returns; a batch is
  /// at most ``batchSize`` requests so that its answers (and the notifications queued before them) fit in the
  /// socket's receive buffer together. The requests of a batch have consecutive sequence numbers, which their
  /// answers carry. A request the kernel did not answer (lost to ENOBUFS, or in a datagram that does not decode) is
  /// asked once more, in a second attempt; after that it counts as failed with EIO.
  ///
  /// ```swift
  /// var exchange = RouteLookupExchange(requests, sequence: sequence)
  /// while let batch = exchange.nextBatch(answers: &answers) {
  ///   // send exchange.requests(in: batch), the first with batch.firstSequence, then for each answer:
  ///   exchange.record(result, sequence: message.sequence, into: &answers)
  ///   // until exchange.awaitsAnswers is false, or the batch's deadline passes
  /// }
  /// sequence = exchange.sequence
  /// ```
  ///
  /// The caller never waits inside: when answers are missing and nothing is queued, it keeps the exchange and comes
  /// back when the socket is readable or the batch's deadline passed (``awaitedSequence`` tells one batch's wait from
  /// the next one's).
  struct RouteLookupExchange {
    /// One datagram of requests: plain numbers, so that handing one over retains nothing.
    struct Batch: Equatable {
      /// Where its requests are in the attempt's list (``request(at:)``), in the order they are written.
      var positions: Range<Int>
      /// The first request's sequence number; the others follow it.
      var firstSequence: UInt32
    }

    /// How many lookups are sent at once.
    static let batchSize = 64
    /// How many times a request is sent before it counts as failed.
    static let attempts = 2
    /// The errno of a request asked ``attempts`` times and never answered.
    static let unansweredErrno: Int32 = 5  // EIO, Linux's number wherever this compiles

    /// The last sequence number used: the next exchange (or dump) continues from it.
    private(set) var sequence: UInt32
    /// Requests sent so far, over every attempt: for the source's statistics.
    private(set) var asked = 0

    /// The requests of the current attempt.
    private var pending: [RouteLookupRequest]
    /// Where the next batch starts in ``pending``.
    private var position = 0
    /// The attempt under way, from 0.
    private var attempt = 0
    /// The requests of this attempt left unanswered, to be asked in the next one.
    private var unanswered: [RouteLookupRequest] = []
    /// The batch sent last, and how many of its requests were answered.
    private var batch = Batch(positions: 0..<0, firstSequence: 0)
    private var answered = 0

    /// An exchange for `requests` (none of them answered yet), continuing the socket's sequence numbers from
    /// `sequence`.
    init(_ requests: [RouteLookupRequest], sequence: UInt32) {
      self.pending = requests
      self.sequence = sequence
    }

    /// Ends the batch sent last (its unanswered requests wait for the next attempt) and gives the next one to send,
    /// or `nil` when every request is answered or was asked ``attempts`` times; those never answered are then
    /// recorded as failed in `answers`.
    @inline(__always)
    mutating func nextBatch(answers: inout RouteLookupAnswers) -> Batch? {
      if answered < batch.positions.count {
        for index in batch.positions where answers[pending[index]] == nil { unanswered.append(pending[index]) }
      }
      batch.positions = position..<position
      if position == pending.count {
        guard !unanswered.isEmpty else { return nil }
        attempt += 1
        guard attempt < Self.attempts else {
          for request in unanswered { answers[request] = .failed(errno: Self.unansweredErrno) }
          unanswered = []
          return nil
        }
        pending = unanswered
        unanswered = []
        position = 0
      }
      let end = min(position + Self.batchSize, pending.count)
      if sequence > UInt32.max - UInt32(Self.batchSize) { sequence = 0 }
      batch = Batch(positions: position..<end, firstSequence: sequence + 1)
      sequence += UInt32(end - position)
      asked += end - position
      position = end
      answered = 0
      return batch
    }

    /// The request at `index` of a batch's ``Batch/positions``.
    func request(at index: Int) -> RouteLookupRequest { pending[index] }

    /// The requests of `batch`, in order.
    func requests(in batch: Batch) -> ArraySlice<RouteLookupRequest> { pending[batch.positions] }

    /// Whether some requests of the current batch have no answer yet.
    var awaitsAnswers: Bool { answered < batch.positions.count }

    /// The first sequence number of the batch sent last: a new number is a new batch, with a deadline of its own.
    var awaitedSequence: UInt32 { batch.firstSequence }

    /// Whether `sequence` is one of the current batch's requests: answers to earlier batches (given up on) carry
    /// older numbers, and are dropped.
    @inline(__always)
    func isAwaited(sequence: UInt32) -> Bool {
      sequence >= batch.firstSequence && sequence - batch.firstSequence < UInt32(batch.positions.count)
    }

    /// Records the answer the message numbered `sequence` carries, with a multipath route's `legs`, if it answers a
    /// request of the current batch.
    ///
    /// - Returns: Whether it was a new answer to one.
    @discardableResult @inline(__always)
    mutating func record(
      _ result: RouteLookupResult, legs: [NetlinkNextHop] = [], sequence: UInt32, into answers: inout RouteLookupAnswers
    ) -> Bool {
      guard isAwaited(sequence: sequence) else { return false }
      let request = pending[batch.positions.lowerBound + Int(sequence - batch.firstSequence)]
      if !legs.isEmpty { answers.recordLegs(legs, for: request) }
      guard answers.record(result, for: request) else { return false }
      answered += 1
      return true
    }
  }
#endif
