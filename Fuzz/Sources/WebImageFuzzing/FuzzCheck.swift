/// Stops the program with `message` when `condition` is false, in debug and release builds alike (a
/// `precondition` drops its message in optimised builds), so that libFuzzer saves the input as a crash and the
/// log says which property failed.
@inline(__always)
public func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition {
        fatalError("fuzz check failed: \(message())", file: file, line: line)
    }
}
