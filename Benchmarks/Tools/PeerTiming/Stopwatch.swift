import Foundation

/// Wall-clock and process CPU time, in milliseconds.
enum Stopwatch {
    /// Runs `body` and returns its wall-clock time.
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// The monotonic clock now.
    static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e6
    }

    /// CPU time used by every thread of this process so far (user plus system).
    static func processCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) * 1e3 + Double(usage.ru_utime.tv_usec) / 1e3
        let system = Double(usage.ru_stime.tv_sec) * 1e3 + Double(usage.ru_stime.tv_usec) / 1e3
        return user + system
    }
}

extension Double {
    /// Rounded to microseconds, for the reports.
    var roundedToMicroseconds: Double { (self * 1000).rounded() / 1000 }
}
