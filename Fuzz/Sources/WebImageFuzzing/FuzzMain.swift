import CFuzzerDriver
import Foundation
import Synchronization

/// The program's entry: picks the target its first argument names and hands libFuzzer that target's
/// callback, with the rest of the arguments.
///
/// ```
/// WebImageFuzz --list                                   the targets: name, maximum input length, summary
/// WebImageFuzz decode-png CORPUS -max_total_time=60     libFuzzer's usual arguments after the name
/// WebImageFuzz decode-png crash-1234                    replays one input
/// ```
///
/// The name is also put in the environment (``targetVariable``), where the processes libFuzzer starts itself
/// (`-fork`, `-merge`), which get the arguments without it, find it. The target's own maximum input length
/// (`-max_len`) and flags are passed unless the command line sets them.
public enum FuzzMain {
    /// The environment variable that names the target for child processes.
    public static let targetVariable = "WEBIMAGE_FUZZ_TARGET"

    /// Runs the target named on the command line; does not return.
    public static func run(_ targets: [FuzzTarget]) -> Never {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--list" {
            for target in targets {
                print("\(target.name)\t\(target.maxLength)\t\(target.summary)")
            }
            exit(0)
        }
        let target: FuzzTarget
        if let named = arguments.first.flatMap({ name in targets.first { $0.name == name } }) {
            target = named
            arguments.removeFirst()
            setenv(targetVariable, named.name, 1)
        } else if let inherited = ProcessInfo.processInfo.environment[targetVariable],
                  let named = targets.first(where: { $0.name == inherited }) {
            target = named
        } else {
            let names = targets.map(\.name).joined(separator: ", ")
            FileHandle.standardError.write(Data("usage: WebImageFuzz TARGET [libFuzzer arguments]; TARGET is one of \(names) (--list)\n".utf8))
            exit(2)
        }
        for flag in ["-max_len=\(target.maxLength)"] + target.flags {
            let name = flag.prefix { $0 != "=" } + "="
            if !arguments.contains(where: { $0.hasPrefix(name) }) { arguments.append(flag) }
        }
        current.withLock { $0 = target }

        // libFuzzer keeps its own copy of the arguments; the strings are the process's until it exits.
        let strings = ([CommandLine.arguments[0]] + arguments).map { strdup($0) }
        let argv = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count + 1)
        argv.initialize(from: strings, count: strings.count)
        argv[strings.count] = nil
        var argc = CInt(strings.count)
        var argvPointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        let status = LLVMFuzzerRunDriver(&argc, &argvPointer) { fuzzOneInput($0, $1) }
        exit(status)
    }

    /// The target libFuzzer's callback runs; set once, before the driver starts.
    static let current = Mutex<FuzzTarget?>(nil)
}

/// libFuzzer's callback: one input for the current target. Also exported under libFuzzer's usual name, which
/// its archive's own `main` refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let target = FuzzMain.current.withLock({ $0 }) else { return 0 }
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    target.run(data)
    return 0
}
