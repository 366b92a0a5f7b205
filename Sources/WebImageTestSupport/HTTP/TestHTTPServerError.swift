/// Why the loopback test server could not start or stop.
public struct TestHTTPServerError: Error, Sendable, CustomStringConvertible {
    /// What the server was doing: `"bind"`, `"shutdown"`.
    public var operation: String
    /// The underlying error's description.
    public var message: String

    public init(_ operation: String, _ error: any Error) {
        self.init(operation, message: String(describing: error))
    }

    public init(_ operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    public var description: String { "test HTTP server \(operation) failed: \(message)" }
}
