// The loopback HTTP server of the download benchmarks, in a process of its own so that the benchmark's CPU
// figures are the client's alone.
// Usage: LoopbackServer. Prints the port on the first line of standard output, then answers each line read from
// standard input: `count` prints the number of requests served so far. Stops at the end of standard input.
import Foundation
import WebImageTestSupport

let server: TestHTTPServer
do {
    server = try await TestHTTPServer.start()
} catch {
    FileHandle.standardError.write(Data("LoopbackServer: \(error)\n".utf8))
    exit(1)
}
/// Writes one line to standard output at once (unbuffered).
func answer(_ line: String) {
    FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}

answer("\(server.port)")
while let line = readLine() {
    switch line {
    case "count": answer("\(server.totalRequestCount)")
    default: answer("unknown command \(line)")
    }
}
try? await server.shutdown()
