// Our side of the peer comparison (Benchmarks/peers/run.sh): each mode times the library inside this process and
// prints one JSON line, so that start-up never counts. The Python side (Benchmarks/peers/python_peers.py) has the
// same modes and prints the same shape.
//   PeerTiming decode FORMAT FILE SECONDS      our coder and the C library alone, alternating decode for decode
//   PeerTiming thumb SIZE SECONDS FILE...      thumbnails of files of one format (the first file's): one at a
//                                              time, then batches over both cores
//   PeerTiming job URLLIST CACHEDIR SIZE WORKERS   the server job through ImageManager, cold then warm
//   PeerTiming codec SIZE SECONDS FILE...     the codec work of the job's cold and warm passes alone, over both cores
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("PeerTiming: \(message)\n".utf8))
    exit(1)
}

func readFile(_ path: String) -> Data {
    do {
        return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
        fail("cannot read \(path): \(error)")
    }
}

func emit(_ report: [String: Any]) {
    do {
        let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    } catch {
        fail("cannot write the report: \(error)")
    }
}

switch arguments.first {
case "decode" where arguments.count == 4:
    guard let seconds = Double(arguments[3]) else { fail("bad SECONDS \(arguments[3])") }
    emit(DecodeTiming(format: arguments[1], data: readFile(arguments[2])).run(seconds: seconds))
case "thumb" where arguments.count >= 4:
    guard let size = Int(arguments[1]), let seconds = Double(arguments[2]) else { fail("bad SIZE or SECONDS") }
    let files = arguments[3...].map(readFile)
    emit(ThumbnailTiming(size: size, files: files).run(seconds: seconds))
case "job" where arguments.count == 5:
    guard let size = Int(arguments[3]), let workers = Int(arguments[4]), workers > 0 else { fail("bad SIZE or WORKERS") }
    let list = String(decoding: readFile(arguments[1]), as: UTF8.self)
    let urls = list.split(whereSeparator: \.isNewline).compactMap { URL(string: String($0)) }
    let job = JobTiming(urls: urls, cacheDirectory: URL(fileURLWithPath: arguments[2], isDirectory: true), size: size, workers: workers)
    emit(await job.run())
case "codec" where arguments.count >= 4:
    guard let size = Int(arguments[1]), let seconds = Double(arguments[2]) else { fail("bad SIZE or SECONDS") }
    emit(CodecWorkTiming(size: size, files: arguments[3...].map(readFile)).run(seconds: seconds))
default:
    fail("usage: PeerTiming decode FORMAT FILE SECONDS | thumb SIZE SECONDS FILE... | job URLLIST CACHEDIR SIZE WORKERS"
        + " | codec SIZE SECONDS FILE...")
}
