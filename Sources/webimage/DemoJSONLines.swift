/// The JSON lines of `webimage demo --json`, besides the ``Report`` of each file written. In order: one
/// ``DemoStartLine``, one ``DemoPassSummary`` per pass, a ``Report`` per file written, one ``DemoDoneLine``.
/// Each has a `demo` field naming its kind, so that a script can tell them apart from the reports.

/// `{"demo":"start",...}`: what the demo is about to do.
struct DemoStartLine: Encodable {
    var demo = "start"
    /// Where the samples are served: `http://127.0.0.1:PORT/samples/`.
    var server: String
    /// The shared cache's temporary directory, removed at the end.
    var cache: String
    /// Where the files are written.
    var out: String
    /// The samples served.
    var samples: [String]
    /// Loads per pass.
    var loads: Int
    /// Distinct URLs among them.
    var urls: Int
}

/// `{"demo":"pass","pass":"network","tiers":{"none":30},"requests":5,...}`: one pass.
struct DemoPassSummary: Encodable {
    var demo = "pass"
    /// `network`, `memory` or `disk`.
    var pass: String
    /// 1, 2 or 3.
    var number: Int
    /// Whether the pass showed what it is meant to (see ``DemoPassResult/problems(for:)``).
    var ok: Bool
    /// Loads made.
    var loads: Int
    /// Distinct URLs among them.
    var urls: Int
    /// Loads that failed.
    var failed: Int
    /// Loads per tier that served them: `none` (the network), `memory`, `disk`.
    var tiers: [String: Int]
    /// The pass's wall time.
    var ms: Double
    /// The median time of one load.
    var medianMs: Double
    /// Requests the server saw during the pass.
    var requests: Int
    /// Body bytes the server sent during the pass.
    var bytes: Int
}

/// `{"demo":"done","ok":true,...}`: the verdict.
struct DemoDoneLine: Encodable {
    var demo = "done"
    /// Whether every claim held; the exit status is 0 exactly when it is true.
    var ok: Bool
    /// The claims that did not hold, as sentences.
    var problems: [String]
    /// The demo's wall time, server start to server stop.
    var ms: Double
    /// Requests the server saw in all.
    var requests: Int
    /// Body bytes the server sent in all.
    var bytes: Int
    /// The files written.
    var outputs: [String]
}
