// The loopback HTTP server of the download and manager benchmarks, in a process of its own so that the
// benchmark's CPU figures are the client's alone.
// Usage: LoopbackServer [FILE...]. Serves the test server's standard routes, and each FILE at `/files/<its name>`
// whatever the query string, so that `?n=1`, `?n=2`, ... are distinct URLs of the same bytes. Prints the port on
// the first line of standard output, then answers each line read from standard input: `count` prints the number
// of requests served so far. Stops at the end of standard input.
import Foundation
import WebImageTestSupport

let routes = TestHTTPRoutes.standard()
for path in CommandLine.arguments.dropFirst() {
    let file = URL(fileURLWithPath: path)
    guard let data = try? Data(contentsOf: file) else {
        FileHandle.standardError.write(Data("LoopbackServer: cannot read \(path)\n".utf8))
        exit(1)
    }
    let bytes = [UInt8](data)
    let headers = [("Content-Type", TestHTTPFixtureCatalog.contentType(forName: file.lastPathComponent))]
    routes.register("/files/\(file.lastPathComponent)") { _, responder in
        responder.respond(status: 200, headers: headers, body: bytes)
    }
}

let server: TestHTTPServer
do {
    server = try await TestHTTPServer.start(routes: routes)
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
