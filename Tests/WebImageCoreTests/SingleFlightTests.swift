import Dispatch
import Testing
@testable import WebImageCore

/// The generic single-flight, driven by hand: no I/O, no executor.
@Suite struct SingleFlightTests {
    typealias Flights = SingleFlight<String, Void, Never, Int>
    typealias NumberFlights = SingleFlight<Int, Void, Never, Int>
    /// Flights whose callers share a counter and hear progress as text.
    typealias ReportingFlights = SingleFlight<String, Counter, String, Int>

    final class Counter: Sendable {
        let value = Locked(0)
    }

    /// Records what a flight's callers receive and how many times the work started.
    final class Record: Sendable {
        let received = Locked<[String]>([])
        let starts = Locked<[Flights.Flight]>([])

        func receiver(_ name: String) -> @Sendable (Int) -> Void {
            { [self] value in received.withLock { $0.append("\(name)=\(value)") } }
        }

        /// Drops the handles of the flights started, which keep their single-flight and so, through a flight still
        /// running, the receivers that keep this record.
        func forgetFlights() {
            starts.withLock { $0.removeAll() }
        }

        func start(_ flight: Flights.Flight) {
            starts.withLock { $0.append(flight) }
        }
    }

    @Test func joinersShareOneRunAndReceiveOnceInJoinOrder() throws {
        let flights = Flights()
        let record = Record()
        defer { record.forgetFlights() }
        _ = flights.join("a", receiver: record.receiver("first"), start: record.start)
        _ = flights.join("a", receiver: record.receiver("second"), start: record.start)
        _ = flights.join("b", receiver: record.receiver("other"), start: record.start)
        let starts = record.starts.withLock { $0 }
        #expect(starts.count == 2, "one run per key")
        #expect(flights.count == 2)

        starts[0].finish(7)
        starts[0].finish(8)
        #expect(record.received.withLock { $0 } == ["first=7", "second=7"], "each caller once; a second finish does nothing")
        #expect(!starts[0].isWanted)
        #expect(starts[1].isWanted)
        #expect(flights.count == 1)

        // After the flight ended, the same key starts afresh.
        _ = flights.join("a", receiver: record.receiver("third"), start: record.start)
        #expect(record.starts.withLock { $0.count } == 3)
    }

    @Test func theLastCallerToLeaveCancelsTheWorkOnce() throws {
        let flights = Flights()
        let record = Record()
        defer { record.forgetFlights() }
        let cancels = Locked(0)
        let first = flights.join("a", receiver: record.receiver("first"), start: record.start)
        let second = flights.join("a", receiver: record.receiver("second"), start: record.start)
        let flight = try #require(record.starts.withLock { $0.first })
        flight.onCancel { cancels.withLock { $0 += 1 } }

        flights.leave(first)
        #expect(cancels.withLock { $0 } == 0, "a caller is still waiting")
        #expect(flight.isWanted)
        flights.leave(first)
        #expect(flight.isWanted, "leaving twice does not remove another caller")

        flights.leave(second)
        flights.leave(second)
        #expect(cancels.withLock { $0 } == 1)
        #expect(!flight.isWanted)
        flight.finish(1)
        #expect(record.received.withLock { $0 }.isEmpty, "callers that left receive nothing")

        // A hook set after everyone left runs at once.
        let late = Locked(false)
        flight.onCancel { late.withLock { $0 = true } }
        #expect(late.withLock { $0 })
    }

    @Test func aTicketOfAnEndedFlightDoesNotTouchALaterOne() {
        let flights = Flights()
        let record = Record()
        defer { record.forgetFlights() }
        let old = flights.join("a", receiver: record.receiver("old"), start: record.start)
        record.starts.withLock { $0[0] }.finish(1)
        _ = flights.join("a", receiver: record.receiver("new"), start: record.start)
        let cancelled = Locked(false)
        let current = record.starts.withLock { $0[1] }
        current.onCancel { cancelled.withLock { $0 = true } }

        flights.leave(old)
        #expect(current.isWanted)
        #expect(!cancelled.withLock { $0 })
        // A handle of the ended flight cannot finish the new one.
        record.starts.withLock { $0[0] }.finish(2)
        current.finish(3)
        #expect(record.received.withLock { $0 } == ["old=1", "new=3"])
    }

    @Test func aWorkThatFinishesDuringStartStillReachesItsFirstCaller() {
        let flights = Flights()
        let record = Record()
        defer { record.forgetFlights() }
        _ = flights.join("a", receiver: record.receiver("only")) { flight in flight.finish(5) }
        #expect(record.received.withLock { $0 } == ["only=5"])
        #expect(flights.count == 0)
    }

    @Test func concurrentCallersEachReceiveOnceOrLeave() async {
        let flights = NumberFlights()
        let starts = Locked<[Int: [NumberFlights.Flight]]>([:])
        let received = Locked<[Int: Int]>([:])
        let left = Locked<Set<Int>>([])
        let callers = 2_000
        DispatchQueue.concurrentPerform(iterations: callers) { caller in
            let key = caller % 10
            let ticket = flights.join(key, receiver: { value in
                received.withLock { $0[caller, default: 0] += 1 }
                #expect(value == key)
            }) { flight in
                starts.withLock { $0[key, default: []].append(flight) }
            }
            if caller % 3 == 0 {
                flights.leave(ticket)
                left.withLock { _ = $0.insert(caller) }
            }
            if caller % 7 == 0 {
                // Some work ends while callers are still joining.
                let running = starts.withLock { $0[key]?.last }
                running?.finish(key)
            }
        }
        // Every flight still running ends now; a finish after a flight's end does nothing.
        for (key, list) in starts.withLock({ $0 }) {
            for flight in list { flight.finish(key) }
        }
        let counts = received.withLock { $0 }
        #expect(counts.values.allSatisfy { $0 == 1 }, "no caller receives twice")
        #expect(flights.count == 0)
        let leavers = left.withLock { $0 }
        for caller in 0..<callers where !leavers.contains(caller) {
            #expect(counts[caller] == 1, "caller \(caller) that never left receives once")
        }
    }

    @Test func joinersShareTheWorkTheFirstCallerMade() {
        let flights = ReportingFlights()
        let makes = Locked(0)
        let make: () -> Counter = {
            makes.withLock { $0 += 1 }
            return Counter()
        }
        let first = flights.join("a", .init(receive: { _ in }), make: make) { flight in flight.work.value.withLock { $0 += 1 } }
        let second = flights.join("a", .init(receive: { _ in }), make: make) { _ in Issue.record("a joiner starts nothing") }
        #expect(first.started && !second.started)
        #expect(first.work === second.work, "one work per flight")
        #expect(makes.withLock { $0 } == 1)
        #expect(second.work.value.withLock { $0 } == 1)
    }

    @Test func updatesReachTheListenersInTheFlightInJoinOrderAndNothingAfterItsEnd() throws {
        let flights = ReportingFlights()
        let heard = Locked<[String]>([])
        let handle = Locked<ReportingFlights.Flight?>(nil)
        func member(_ name: String, listens: Bool) -> ReportingFlights.Member {
            var listen: ReportingFlights.Listener?
            if listens {
                listen = { update in heard.withLock { $0.append("\(name):\(update)") } }
            }
            return ReportingFlights.Member(listen: listen) { value in
                heard.withLock { $0.append("\(name)=\(value)") }
            }
        }
        let a = flights.join("k", member("a", listens: true), make: { Counter() }) { flight in handle.withLock { $0 = flight } }
        _ = flights.join("k", member("b", listens: false), make: { Counter() }) { _ in }
        let c = flights.join("k", member("c", listens: true), make: { Counter() }) { _ in }
        let flight = try #require(handle.withLock { $0 })
        #expect(flight.memberCount == 3)
        flight.update("10%")
        flights.leave(c)
        flight.update("50%")
        flights.leave(a)
        flight.update("90%")
        flight.finish(1)
        flight.update("late")
        #expect(heard.withLock { $0 } == ["a:10%", "c:10%", "a:50%", "b=1"])
        #expect(flight.memberCount == 0)
    }

    @Test func aFlightKeepsOneCallerInlineThenManyAndLosesThemInAnyOrder() throws {
        let flights = Flights()
        let record = Record()
        defer { record.forgetFlights() }
        let tickets = (0..<4).map { index in flights.join("k", receiver: record.receiver("m\(index)"), start: record.start) }
        let flight = try #require(record.starts.withLock { $0.first })
        #expect(flight.memberCount == 4)
        flights.leave(tickets[2])
        flights.leave(tickets[0])
        flights.leave(tickets[0])
        #expect(flight.memberCount == 2, "a caller leaves once")
        flights.leave(tickets[3])
        #expect(flight.memberCount == 1 && flight.isWanted)
        flight.finish(9)
        #expect(record.received.withLock { $0 } == ["m1=9"])
    }
}
