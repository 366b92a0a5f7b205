import WebImageCore

/// A transformer for tests: makes a solid image `width` pixels wide (whatever it is given) under its key, and
/// counts its calls. Thread-safe.
public final class MockTransformer: ImageTransforming {
    public let transformerKey: String
    public let width: Int
    private let calls = Locked(0)

    public init(key: String = "mock", width: Int = 5) {
        transformerKey = key
        self.width = width
    }

    /// Calls of `transform` so far.
    public var callCount: Int { calls.withLock { $0 } }

    public func transform(image: Image, key: String) -> Image? {
        calls.withLock { $0 += 1 }
        return solidImage(width: width)
    }
}
