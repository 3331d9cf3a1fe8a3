import Pixels
import Plumbing

#if canImport(Glibc)
    import Glibc
#endif

/// What an earlier pxview on the same terminal learnt by asking it, for a
/// run that must not ask: a previewer (`show --place`) writes to the
/// terminal while lf or fzf reads it, so the terminal's answers would become
/// their keystrokes (in lf, `e` from the `XTerm` answer opened vim).
///
/// One small file per terminal in `$XDG_RUNTIME_DIR/pxview` (else the
/// cache folder), named after the terminal: its tty device and that
/// device's creation time (a new terminal on a reused `/dev/pts/N` is
/// another terminal), `TERM`, `KITTY_WINDOW_ID` and `WINDOWID`; inside
/// tmux the probe is kept per outer terminal (`probePath`). Kept
/// `maxAgeSeconds`; written whole through `AtomicWrite` (0600).
package struct TerminalMemory: Sendable {
    /// Long enough for a day's work in one window, short enough that a
    /// changed terminal setup is asked again soon.
    package static let maxAgeSeconds = 24 * 3600

    package let directory: String
    /// The terminal this run writes to, or nil when it has no tty.
    package let key: String?

    package init(directory: String, key: String?) {
        self.directory = directory
        self.key = key
    }

    /// For the terminal on `ttyFD` (the controlling terminal, or stdout's).
    package init(environment: [String: String], ttyFD: Int32) {
        self.init(directory: Self.directory(environment: environment), key: Self.key(environment: environment, ttyFD: ttyFD))
    }

    /// `$XDG_RUNTIME_DIR/pxview` (per user, on tmpfs, gone at logout) when
    /// set, else `$XDG_CACHE_HOME/pxview/terminals`.
    package static func directory(environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/pxview" }
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/pxview/terminals" }
        let home = environment["HOME"] ?? "/tmp"
        return home + "/.cache/pxview/terminals"
    }

    /// The terminal's name for the file: a hash of what tells terminals apart.
    package static func key(environment: [String: String], ttyFD: Int32) -> String? {
        guard let name = deviceName(ttyFD) else { return nil }
        var info = stat()
        guard stat(name, &info) == 0 else { return nil }
        let parts = [
            name, "\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)", environment["TERM"] ?? "",
            environment["KITTY_WINDOW_ID"] ?? "", environment["WINDOWID"] ?? "", environment["TMUX_PANE"] ?? "",
        ]
        return Self.hash(parts.joined(separator: "\u{1F}"))
    }

    /// The terminal's own device: `ttyname`, but for `/dev/tty` (what a
    /// preview opens when its stdout is lf's pipe or /dev/null), which names
    /// every terminal alike, the pseudo-terminal behind it (`TIOCGDEV`), so
    /// the preview finds what pxview learnt on the same terminal (seen: an
    /// lf preview in xterm drew text after an interactive run had learnt sixel).
    static func deviceName(_ fd: Int32) -> String? {
        guard let name = ttyname(fd).map({ String(cString: $0) }) else { return nil }
        guard name == "/dev/tty" else { return name }
        var device: UInt32 = 0
        // TIOCGDEV, _IOR('T', 0x32, unsigned int): not exported by Glibc's module.
        guard ioctl(fd, UInt(0x8004_5432), &device) == 0 else { return nil }
        let major = (device & 0xfff00) >> 8
        let minor = (device & 0xff) | ((device >> 12) & 0xfff00)
        // Unix 98 pseudo-terminals: majors 136-143, 256 minors each.
        guard (136...143).contains(major) else { return nil }
        return "/dev/pts/\((major - 136) * 256 + minor)"
    }

    /// FNV-1a, 64 bits: a file name, not a secret; always 16 hex digits
    /// (one name in 16 once came out a digit short, and a test's glob for
    /// 16 caught the record's lock file instead of the record).
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private func path(_ kind: String) -> String? {
        key.map { "\(directory)/\(kind)-\($0)" }
    }

    // MARK: The probe

    /// Where a probe is kept: inside tmux per outer terminal, named by the
    /// tmux client's terminal device (and its creation time) and what tmux
    /// calls the terminal, so that every pane of it finds what one pane
    /// learnt (a new pane is a new pty: nnn's preview pane, fzf's popup);
    /// elsewhere per terminal (`key`).
    func probePath(tmuxPane: TmuxPaneState?) -> String? { outerPath("terminal", tmuxPane: tmuxPane) }

    /// A file about the terminal outside tmux (`probePath`'s naming), of `kind`.
    private func outerPath(_ kind: String, tmuxPane: TmuxPaneState?) -> String? {
        guard let client = tmuxPane?.clientTTY else { return path(kind) }
        var info = stat()
        guard stat(client, &info) == 0 else { return path(kind) }
        let parts = ["tmux-client", client, "\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)", tmuxPane?.clientTermType ?? ""]
        return "\(directory)/\(kind)-" + Self.hash(parts.joined(separator: "\u{1F}"))
    }

    /// Records what the probe found (nothing for a probe that timed out).
    package func remember(_ report: ProbeReport, now: Int = Int(time(nil))) {
        guard let path = probePath(tmuxPane: report.tmuxPane), let capabilities = report.capabilities,
            report.outcome?.timedOut == false
        else { return }
        var fields: [String: String] = [
            "time": "\(now)", "kitty": capabilities.kittyGraphics ? "1" : "0", "sixel": capabilities.sixel ? "1" : "0",
            "multiplexer": Self.name(of: report.multiplexer), "medium": capabilities.kittyMedium.rawValue,
            "sync": capabilities.synchronizedOutput ? "1" : "0",
        ]
        fields["registers"] = capabilities.colorRegisters.map(String.init)
        fields["sixel-max"] = capabilities.sixelMaxSize.map(Self.size)
        fields["cell"] = capabilities.cellSize.map(Self.size)
        fields["version"] = capabilities.terminalVersion
        fields["background"] = capabilities.backgroundColor.map { "\($0.r),\($0.g),\($0.b)" }
        write(fields, to: path)
    }

    /// What an earlier probe on this terminal (inside tmux: of the outer
    /// terminal `tmuxPane`'s client is on) found, for a window of
    /// `winsize` now; nil when none was kept (or it is too old).
    package func recalled(winsize: WindowSize, tmuxPane: TmuxPaneState? = nil, now: Int = Int(time(nil))) -> ProbeReport? {
        guard let path = probePath(tmuxPane: tmuxPane), let fields = read(path), let time = fields["time"].flatMap(Int.init),
            now - time <= Self.maxAgeSeconds, now >= time
        else { return nil }
        var capabilities = TerminalCapabilities(
            kittyGraphics: fields["kitty"] == "1", sixel: fields["sixel"] == "1",
            colorRegisters: fields["registers"].flatMap(Int.init), sixelMaxSize: fields["sixel-max"].flatMap(Self.size),
            cellSize: fields["cell"].flatMap(Self.size).flatMap { TerminalLimits.cell($0) ? $0 : nil },
            windowPixels: winsize.pixels, windowCells: winsize.cells, synchronizedOutput: fields["sync"] == "1",
            terminalVersion: fields["version"], backgroundColor: fields["background"].flatMap(Self.color))
        // The kernel's pixels beat what was remembered, as in a probe.
        if let pixels = winsize.pixels, !winsize.cells.isEmpty {
            let cell = PixelSize(width: pixels.width / winsize.cells.width, height: pixels.height / winsize.cells.height)
            if TerminalLimits.cell(cell) { capabilities.cellSize = cell }
        }
        capabilities.kittyMedium = fields["medium"].flatMap(KittyMedium.init(rawValue:)) ?? .direct
        let multiplexer = fields["multiplexer"].flatMap(Self.multiplexer(named:)) ?? .none
        return ProbeReport(capabilities: capabilities, multiplexer: multiplexer, skipped: .notAsked)
    }

    // MARK: The last preview

    /// What the last preview on this terminal drew: where (`pxview clear`
    /// without a box blanks it for sixel and text), with what, under which
    /// kitty image id, and when its pxview started (a `clear` started
    /// before it leaves it alone: lf may run its cleaner for the last file
    /// and the previewer for the next at once).
    package struct PreviewRecord: Equatable, Sendable {
        package var box: CellRect
        package var method: String
        package var kittyImageID: UInt32?
        /// `wallClockMs()` when the previewing pxview started.
        package var startedMs: Int
        /// `pxview clear` took it away; its id is kept all the same, for
        /// the next preview to go on from (kitty 0.48.2 showed a picture
        /// under an id deleted before as black).
        package var cleared: Bool
        /// When the last `pxview clear` on this terminal started (0: none),
        /// kept from record to record: a preview that started before it
        /// and has not drawn yet (a slow decode, lf's cleaner run as you
        /// move onto a text file) draws nothing.
        package var lastClearMs: Int

        package init(
            box: CellRect, method: String, kittyImageID: UInt32? = nil, startedMs: Int, cleared: Bool = false,
            lastClearMs: Int = 0
        ) {
            self.box = box
            self.method = method
            self.kittyImageID = kittyImageID
            self.startedMs = startedMs
            self.cleared = cleared
            self.lastClearMs = lastClearMs
        }

        /// A clear started after this preview did.
        package var clearedSinceItStarted: Bool { lastClearMs > startedMs }
    }

    /// Wall-clock milliseconds: comparable between processes.
    package static func wallClockMs() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }

    /// Records `record` as the last preview, keeping the last clear's time.
    package func rememberPreview(_ record: PreviewRecord, now: Int = Int(time(nil))) {
        withPreviewLock {
            var kept = record
            kept.lastClearMs = max(record.lastClearMs, lastPreview(now: now)?.lastClearMs ?? 0)
            writePreview(kept, now: now)
        }
    }

    private func writePreview(_ record: PreviewRecord, now: Int) {
        guard let path = path("preview") else { return }
        var fields = [
            "time": "\(now)", "method": record.method, "box": record.box.placeText, "started": "\(record.startedMs)",
        ]
        fields["kitty"] = record.kittyImageID.map { "\($0)" }
        if record.cleared { fields["cleared"] = "1" }
        if record.lastClearMs > 0 { fields["last-clear"] = "\(record.lastClearMs)" }
        write(fields, to: path)
    }

    /// `body` while holding this terminal's preview lock (`flock` on a file
    /// beside the record): a clear and a preview read and write the record
    /// one at a time.
    private func withPreviewLock<T>(_ body: () -> T) -> T {
        guard let path = path("preview") else { return body() }
        makeDirectory()
        let fd = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return body() }
        defer { close(fd) }
        flock(fd, LOCK_EX)
        defer { flock(fd, LOCK_UN) }
        return body()
    }

    /// The last preview, if one was kept.
    package func lastPreview(now: Int = Int(time(nil))) -> PreviewRecord? {
        guard let path = path("preview"), let fields = read(path), let time = fields["time"].flatMap(Int.init),
            now - time <= Self.maxAgeSeconds, let method = fields["method"], let text = fields["box"],
            let box = CellRect(placeText: text)
        else { return nil }
        return PreviewRecord(
            box: box, method: method, kittyImageID: fields["kitty"].flatMap(UInt32.init),
            startedMs: fields["started"].flatMap(Int.init) ?? 0, cleared: fields["cleared"] == "1",
            lastClearMs: fields["last-clear"].flatMap(Int.init) ?? 0)
    }

    /// The kitty image id the last preview on this terminal used, kept per
    /// outer terminal (one kitty window: every tmux pane of it shares its
    /// ids), so previews in two panes never take the same one.
    package func lastPreviewImageID(tmuxPane: TmuxPaneState?) -> UInt32? {
        guard let path = outerPath("preview-id", tmuxPane: tmuxPane), let fields = read(path) else { return nil }
        return fields["kitty"].flatMap(UInt32.init)
    }

    package func rememberPreviewImageID(_ id: UInt32, tmuxPane: TmuxPaneState?) {
        guard let path = outerPath("preview-id", tmuxPane: tmuxPane) else { return }
        write(["kitty": "\(id)"], to: path)
    }

    /// A clear that started at `startedMs`: the last preview, if it is
    /// the one the clear saw (`seen`), is marked cleared, and the clear's
    /// time is kept for previews still on their way. Returns the record
    /// as it is now.
    @discardableResult
    package func previewCleared(_ seen: PreviewRecord?, startedMs: Int) -> PreviewRecord? {
        withPreviewLock {
            // With none yet, one that says only when this clear started.
            var current =
                lastPreview()
                ?? PreviewRecord(
                    box: CellRect(column: 0, row: 0, columns: 1, rows: 1), method: "none", startedMs: 0, cleared: true)
            if let seen, current == seen { current.cleared = true }
            current.lastClearMs = max(current.lastClearMs, startedMs)
            writePreview(current, now: Int(time(nil)))
            return current
        }
    }

    // MARK: Files

    private func makeDirectory() {
        var folder = ""
        for component in directory.split(separator: "/") {
            folder += "/" + component
            mkdir(folder, 0o700)
        }
    }

    private func write(_ fields: [String: String], to path: String) {
        makeDirectory()
        let text = fields.keys.sorted().map { "\($0)=\(fields[$0] ?? "")\n" }.joined()
        let temporary = path + ".part-\(getpid())"
        try? AtomicWrite.write(
            Array(text.utf8), to: Array(path.utf8), temporary: Array(temporary.utf8), permissions: 0o600,
            exactPermissions: true, synced: false)
    }

    /// A regular file of at most 4 KB, as `write` made it.
    private func read(_ path: String) -> [String: String]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= 4096 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
        guard count > 0 else { return nil }
        var fields: [String: String] = [:]
        for line in String(decoding: buffer.prefix(count), as: UTF8.self).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return fields
    }

    static func size(_ size: PixelSize) -> String { "\(size.width)x\(size.height)" }

    static func size(_ text: String) -> PixelSize? {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            return nil
        }
        return PixelSize(width: width, height: height)
    }

    static func color(_ text: String) -> RGBA? {
        let parts = text.split(separator: ",").compactMap { UInt8($0) }
        return parts.count == 3 ? RGBA(r: parts[0], g: parts[1], b: parts[2]) : nil
    }

    static func name(of multiplexer: Multiplexer) -> String {
        switch multiplexer {
        case .none: return "none"
        case .tmux(let passthrough): return passthrough ? "tmux-on" : "tmux-off"
        case .remoteTmux(let passthrough): return passthrough ? "remote-tmux-on" : "remote-tmux-off"
        }
    }

    static func multiplexer(named name: String) -> Multiplexer? {
        switch name {
        case "none": return Multiplexer.none
        case "tmux-on": return .tmux(passthrough: true)
        case "tmux-off": return .tmux(passthrough: false)
        case "remote-tmux-on": return .remoteTmux(passthrough: true)
        case "remote-tmux-off": return .remoteTmux(passthrough: false)
        default: return nil
        }
    }
}
