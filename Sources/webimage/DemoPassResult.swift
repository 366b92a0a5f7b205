import Foundation
import WebImage

/// What one demo pass did: where each load was served from, how long the pass and each load took, and what the
/// server saw meanwhile; with the check of what the pass is meant to show.
struct DemoPassResult: Sendable {
    /// Which pass.
    let pass: DemoPass
    /// Every load's outcome, in the order the loads started.
    let outcomes: [DemoLoadOutcome]
    /// From the first load's start to the last one's completion.
    let wall: Duration
    /// The server's traffic during the pass.
    let traffic: DemoTraffic

    /// How many loads each tier served (`none` is the loader), failures left out.
    var tierCounts: [ImageCacheType: Int] {
        outcomes.reduce(into: [:]) { counts, outcome in
            if let tier = outcome.tier { counts[tier, default: 0] += 1 }
        }
    }

    /// The loads that failed.
    var failures: [DemoLoadOutcome] {
        outcomes.filter { $0.tier == nil }
    }

    /// The median time of one load, from its call to its completion.
    var median: Duration {
        let sorted = outcomes.map(\.duration).sorted()
        guard !sorted.isEmpty else { return .zero }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// What is wrong with the pass, as sentences; empty when it showed what it is meant to show:
    ///
    /// - every load succeeded;
    /// - every load was served by the pass's tier, or by a tier it tolerates (``DemoPass/toleratedTiers``), and
    ///   for every URL at least one load by the pass's tier;
    /// - the server saw, in the network pass, at least one request per URL and at most one per URL and size
    ///   (the copies of one load share one transfer), with every sample's bytes sent once when there was one
    ///   request per URL; and none in the others.
    ///
    /// Loads of one URL at two sizes share a transfer while it runs. A load that reaches the loader after the
    /// other size's transfer has ended but before its image is on disk fetches the URL again, so the network pass
    /// may see a few requests more than there are URLs, never more than one per URL and size.
    func problems(for gallery: DemoGallery) -> [String] {
        var problems: [String] = []
        let name = "the \(pass.rawValue) pass"
        let expected = pass.expectedTier
        if !failures.isEmpty {
            problems.append("\(failures.count) of \(outcomes.count) loads failed in \(name)")
        }
        let unexpected = tierCounts.filter { $0.key != expected && !pass.toleratedTiers.contains($0.key) }
        if !unexpected.isEmpty {
            problems.append(
                "every load of \(name) should come from \(Self.tierName(expected)), but "
                    + Self.describe(unexpected))
        }
        let served = Set(outcomes.filter { $0.tier == expected }.map(\.load.url))
        let missed = gallery.urls.filter { !served.contains($0) }
        if !missed.isEmpty {
            problems.append(
                "no load of \(missed.map(\.lastPathComponent).joined(separator: ", ")) came from "
                    + "\(Self.tierName(expected)) in \(name)")
        }
        let expectedRequests = pass == .network
            ? gallery.urls.count...(gallery.urls.count * DemoGallery.Variant.allCases.count) : 0...0
        if !expectedRequests.contains(traffic.requests) {
            let why = pass == .network
                ? "from one per URL to one per URL and size: copies of one load should share one request"
                : "the cache should answer"
            problems.append(
                "the server saw \(traffic.requests) requests in \(name), not \(expectedRequests.lowerBound)"
                    + (expectedRequests.count > 1 ? " to \(expectedRequests.upperBound)" : "") + " (\(why))")
        }
        if pass == .network, traffic.requests == gallery.urls.count, traffic.bytes != gallery.sampleBytes {
            problems.append("the server sent \(traffic.bytes) bytes in \(name), not the samples' \(gallery.sampleBytes)")
        }
        return problems
    }

    /// The pass in two lines of text, below its title.
    func text(for gallery: DemoGallery) -> [String] {
        let tiers = DemoPass.allCases.map(\.expectedTier).compactMap { tier in
            tierCounts[tier].map { "\($0) from \(Self.tierName(tier))" }
        }
        var lines = [
            "   \(outcomes.count) loads in \(DemoFormat.duration(wall)), median \(DemoFormat.duration(median)) per load: "
                + (tiers.isEmpty ? "none succeeded" : tiers.joined(separator: ", "))
        ]
        if !failures.isEmpty { lines[0] += ", \(failures.count) failed" }
        let tolerated = tierCounts.filter { pass.toleratedTiers.contains($0.key) }
        if !tolerated.isEmpty {
            let place = tolerated.keys.contains(.disk) ? "the cache" : "memory"
            let count = tolerated.values.reduce(0, +)
            lines.append("   (\(count) started after another load of their image had put it in \(place), and found it there)")
        }
        switch pass {
        case .network:
            lines.append(
                "   server: \(traffic.requests) requests for \(outcomes.count) loads of \(gallery.urls.count) URLs, "
                    + "\(DemoFormat.bytes(traffic.bytes)) sent")
            if traffic.requests > gallery.urls.count {
                lines.append(
                    "   (\(traffic.requests - gallery.urls.count) of them: a load at the other size that came after "
                        + "its URL's transfer had ended and before the image was on disk)")
            }
        case .memory, .disk:
            lines.append("   server: \(traffic.requests) requests, \(DemoFormat.bytes(traffic.bytes)) sent")
        }
        return lines
    }

    /// The pass as one JSON object.
    func summary(for gallery: DemoGallery) -> DemoPassSummary {
        DemoPassSummary(
            pass: pass.rawValue,
            number: pass.number,
            ok: problems(for: gallery).isEmpty,
            loads: outcomes.count,
            urls: gallery.urls.count,
            failed: failures.count,
            tiers: Dictionary(uniqueKeysWithValues: tierCounts.map { ($0.key.description, $0.value) }),
            ms: DemoFormat.milliseconds(wall),
            medianMs: DemoFormat.milliseconds(median),
            requests: traffic.requests,
            bytes: traffic.bytes
        )
    }

    /// `the network` for `none`, `memory`, `disk`.
    static func tierName(_ tier: ImageCacheType) -> String {
        tier == .none ? "the network" : tier.description
    }

    /// `3 from memory, 2 from disk`.
    private static func describe(_ counts: [ImageCacheType: Int]) -> String {
        counts.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\($0.value) from \(tierName($0.key))" }
            .joined(separator: ", ")
    }
}
