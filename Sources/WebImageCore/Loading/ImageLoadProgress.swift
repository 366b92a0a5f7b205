/// How far a load has come.
public struct ImageLoadProgress: Sendable {
    /// Bytes received so far.
    public var receivedBytes: Int64
    /// The bytes the response announced, or -1 when it did not say.
    public var expectedBytes: Int64
    /// A partial image, for progressive loads.
    public var partialImage: Image?

    public init(receivedBytes: Int64, expectedBytes: Int64, partialImage: Image? = nil) {
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
        self.partialImage = partialImage
    }

    /// The fraction received, 0...1, or nil when the length is unknown.
    public var fractionCompleted: Double? {
        guard expectedBytes > 0 else { return nil }
        return min(1, Double(receivedBytes) / Double(expectedBytes))
    }
}
