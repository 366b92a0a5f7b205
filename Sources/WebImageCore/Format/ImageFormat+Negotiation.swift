extension ImageFormat {
    /// The format to send a client whose request carried `accept` (the value of its `Accept` field), for an image
    /// with or without alpha, still or animated: the most preferred format the client accepts and `canEncode`
    /// allows.
    ///
    /// The candidates, most preferred first: for an animation WebP then GIF; for a still image with alpha WebP
    /// then PNG; for one without, WebP then JPEG. WebP comes first because it is the smallest at the same
    /// quality and every current browser accepts it. Among the candidates, the one with the highest quality
    /// value (`q`) in `accept` wins, the earlier on a tie; a candidate's value comes from the most specific media
    /// range that names it (`image/webp` over `image/*` over `*/*`), and a value of 0 refuses it. A missing or
    /// empty `accept` accepts everything. When the client accepts none of the candidates, the last one (GIF, PNG
    /// or JPEG, which every client reads) is returned, as a server must send something.
    ///
    /// AVIF is a candidate only when asked for with `prefersAVIF`: then it comes first for still images, for the
    /// clients that name `image/avif` (a wildcard does not count for it: clients from before AV1 send `image/*` or
    /// `*/*` too, and a missing `accept` gets no AVIF). Its files
    /// are the smallest (a 256 x 192 photo thumbnail: about 4.3 KB against WebP's 5.6 KB and JPEG's 9.3 KB at
    /// their default qualities), but the AV1 encoder costs about twice what WebP's does (about 13 ms against 6 ms
    /// for that thumbnail on one core, at speed 8, the AVIF coder's default), which a server pays once per variant,
    /// on a cold request. Choose it where variants are served many times each, or bytes cost more than
    /// CPU. Animations never get AVIF: encoding a sequence costs that for every frame.
    ///
    /// ```swift
    /// let format = ImageFormat.preferred(forAccept: "image/avif,image/webp,*/*;q=0.8", hasAlpha: false, isAnimated: false)
    /// // .webp
    /// let small = ImageFormat.preferred(
    ///     forAccept: "image/avif,image/webp,*/*;q=0.8", hasAlpha: false, isAnimated: false, prefersAVIF: true
    /// )
    /// // .avif, where the registry can encode it
    /// ```
    ///
    /// - Parameters:
    ///   - prefersAVIF: Whether AVIF heads the candidates for a still image.
    ///   - canEncode: Whether the server can encode a format (a registry's `canEncode(to:)`); candidates it
    ///     refuses are skipped.
    public static func preferred(
        forAccept accept: String?,
        hasAlpha: Bool,
        isAnimated: Bool,
        prefersAVIF: Bool = false,
        canEncode: (ImageFormat) -> Bool = { _ in true }
    ) -> ImageFormat {
        var candidates: [ImageFormat] = isAnimated ? [.webp, .gif] : hasAlpha ? [.webp, .png] : [.webp, .jpeg]
        if prefersAVIF, !isAnimated { candidates.insert(.avif, at: 0) }
        let ranges = MediaRange.parse(accept ?? "")
        var best: (format: ImageFormat, quality: Double)?
        for candidate in candidates where candidate == candidates.last || canEncode(candidate) {
            // AVIF only where the client names it: a wildcard is no promise that it decodes AV1.
            let quality = candidate == .avif
                ? MediaRange.quality(of: "image/avif", in: ranges, named: true)
                : ranges.isEmpty ? 1 : MediaRange.quality(of: candidate.mimeType ?? "", in: ranges)
            guard quality > 0 else { continue }
            if best == nil || quality > best!.quality { best = (candidate, quality) }
        }
        return best?.format ?? candidates[candidates.count - 1]
    }
}

/// One media range of an `Accept` field (RFC 9110, section 12.5.1): `type/subtype`, `type/*` or `*/*`, with its
/// quality value.
private struct MediaRange {
    let type: Substring
    let subtype: Substring
    let quality: Double

    /// The media ranges of an `Accept` value; malformed elements are skipped.
    static func parse(_ accept: String) -> [MediaRange] {
        accept.split(separator: ",").compactMap { element in
            let parameters = element.split(separator: ";")
            guard let range = parameters.first else { return nil }
            let parts = range.trimmingWhitespace().split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
            var quality = 1.0
            for parameter in parameters.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingWhitespace().lowercased() == "q" else { continue }
                // A malformed weight refuses nothing it did not mean to: it counts as 1, as a missing one does.
                if let value = Double(pair[1].trimmingWhitespace()), value.isFinite { quality = min(1, max(0, value)) }
            }
            return MediaRange(type: parts[0], subtype: parts[1], quality: quality)
        }
    }

    /// The quality value the most specific range matching `mimeType` gives it, 0 when none matches; with
    /// `named`, only a range that names `mimeType` itself counts.
    static func quality(of mimeType: String, in ranges: [MediaRange], named: Bool = false) -> Double {
        let parts = mimeType.split(separator: "/")
        guard parts.count == 2 else { return 0 }
        var best: (specificity: Int, quality: Double) = (-1, 0)
        for range in ranges {
            let specificity: Int
            if range.type == "*" && range.subtype == "*" {
                specificity = 0
            } else if range.type.lowercased() == parts[0], range.subtype == "*" {
                specificity = 1
            } else if range.type.lowercased() == parts[0], range.subtype.lowercased() == parts[1] {
                specificity = 2
            } else {
                continue
            }
            if named, specificity < 2 { continue }
            if specificity > best.specificity { best = (specificity, range.quality) }
        }
        return best.quality
    }
}

extension Substring {
    /// The text without the spaces and tabs around it.
    fileprivate func trimmingWhitespace() -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isBlank($0) }), let end = lastIndex(where: { !isBlank($0) }) else { return "" }
        return self[start...end]
    }
}
