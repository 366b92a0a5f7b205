import Synchronization

/// Where a benchmark's setup hook leaves what it made, for the benchmark's body and its teardown hook.
final class FixtureSlot<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)

    /// Puts `fixture` in the slot; returns what was there, for the caller to close.
    func replace(with fixture: Value?) -> Value? {
        value.withLock { value in
            defer { value = fixture }
            return value
        }
    }

    /// The fixture; the benchmark fails without one.
    func get() -> Value {
        guard let fixture = value.withLock({ $0 }) else { fatalError("the benchmark's setup did not run") }
        return fixture
    }
}
