/// The callers of one shared download, by caller number.
///
/// Nearly every download has one caller, so a lone caller is kept inline and a dictionary is made only when a
/// second one joins: a download per request then allocates nothing for its table. Not thread-safe; it lives in the
/// download's locked state.
struct DownloadCallerTable {
    private var only: DownloadCaller?
    private var many: [Int: DownloadCaller] = [:]

    init() {}

    var isEmpty: Bool { only == nil && many.isEmpty }

    var count: Int { only == nil ? many.count : 1 }

    /// The caller numbered `id`, if it is in the table.
    subscript(id: Int) -> DownloadCaller? {
        if let only { return only.id == id ? only : nil }
        return many[id]
    }

    /// Adds `caller`, or replaces the caller with its number; returns the one replaced.
    mutating func insert(_ caller: DownloadCaller) -> DownloadCaller? {
        if let only {
            if only.id == caller.id {
                self.only = caller
                return only
            }
            many = [only.id: only, caller.id: caller]
            self.only = nil
            return nil
        }
        if many.isEmpty {
            only = caller
            return nil
        }
        return many.updateValue(caller, forKey: caller.id)
    }

    /// Removes and returns the caller numbered `id`, if it is in the table.
    mutating func remove(_ id: Int) -> DownloadCaller? {
        if let only {
            guard only.id == id else { return nil }
            self.only = nil
            return only
        }
        return many.removeValue(forKey: id)
    }

    /// Removes every caller and returns them, in no particular order.
    mutating func removeAll() -> [DownloadCaller] {
        defer {
            only = nil
            many = [:]
        }
        return all
    }

    /// The lone caller, when there is exactly one.
    var soleCaller: DownloadCaller? {
        if let only { return only }
        return many.count == 1 ? many.first?.value : nil
    }

    /// Every caller, in no particular order.
    var all: [DownloadCaller] {
        if let only { return [only] }
        return Array(many.values)
    }

    /// The callers that satisfy `isIncluded`, in no particular order.
    func filter(_ isIncluded: (DownloadCaller) -> Bool) -> [DownloadCaller] {
        if let only { return isIncluded(only) ? [only] : [] }
        return many.values.filter(isIncluded)
    }
}
