import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files to remove however the process ends: registered before they exist,
/// removed by `exit` and by the handlers (async-signal-safe).
extension ProcessSignals {
    // MARK: Files to remove

    /// A registration for removal at exit; `forget` it once the file is
    /// gone or kept on purpose.
    package struct Removal: Sendable, Equatable {
        let slot: Int
    }

    /// Registers `path` (bytes, as the kernel takes them) to be unlinked
    /// if the process ends by a signal or `exit(_:)`. Nil when it cannot
    /// be registered (every slot taken, a path too long or holding NUL):
    /// then only normal removal and the next run's sweep remove it.
    package static func removeOnExit(_ path: [UInt8]) -> Removal? {
        guard path.count <= pathCapacity, !path.isEmpty, !path.contains(0) else { return nil }
        install()
        for (index, slot) in storage.slots.enumerated() {
            guard slot.state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
            else { continue }
            for (offset, byte) in path.enumerated() { slot.path[offset] = CChar(bitPattern: byte) }
            slot.path[path.count] = 0
            slot.state.store(2, ordering: .releasing)
            return Removal(slot: index)
        }
        return nil
    }

    package static func removeOnExit(_ path: String) -> Removal? { removeOnExit(Array(path.utf8)) }

    package static func forget(_ removal: Removal?) {
        guard let removal, storage.slots.indices.contains(removal.slot) else { return }
        storage.slots[removal.slot].state.store(0, ordering: .releasing)
    }

    /// Forgets the registration of `path`, wherever it was made.
    package static func forget(path: String) {
        slot(holding: path)?.state.store(0, ordering: .releasing)
    }

    /// True while `path` is registered for removal.
    package static func isRegistered(path: String) -> Bool {
        slot(holding: path) != nil
    }

    static func slot(holding path: String) -> RemovalSlot? {
        let bytes = Array(path.utf8).map { CChar(bitPattern: $0) }
        guard bytes.count <= pathCapacity else { return nil }
        for slot in storage.slots where slot.state.load(ordering: .acquiring) == 2 {
            var same = slot.path[bytes.count] == 0
            var index = 0
            while same && index < bytes.count {
                same = slot.path[index] == bytes[index]
                index += 1
            }
            if same { return slot }
        }
        return nil
    }

    /// `body`, with `path` removed should the process end meanwhile.
    package static func removing<T>(_ path: [UInt8], during body: () throws -> T) rethrows -> T {
        let removal = removeOnExit(path)
        defer { forget(removal) }
        return try body()
    }

    /// The number of paths registered now (tests).
    package static var registeredRemovals: Int {
        storage.slots.filter { $0.state.load(ordering: .acquiring) == 2 }.count
    }
}
