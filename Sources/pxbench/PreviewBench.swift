import Foundation

/// A file manager's preview, as lf or fzf runs one: a fresh process per
/// photo drawing into a pane of the manager's terminal. Issue 18's goal is
/// well under 100 ms for a 1920x1280 JPEG into a 50x30-cell pane.
enum PreviewBench {
    static let window = (columns: 120, rows: 40)
    static let cellPixels = (width: 9, height: 18)
    static let pane = "50x30"

    struct Row {
        var tool: String
        var milliseconds: Double
        var cpuMilliseconds: Double
        var bytes: Int
    }

    /// Each tool's median over `runs` runs on `photo`; a tool that fails is
    /// left out with a note.
    static func measure(photo: String, runs: Int, pxview: String, chafa: String?, notes: inout [String]) -> [Row] {
        // An empty runtime folder: no earlier probe of a terminal to recall.
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("pxbench-preview-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var tools: [(String, String, [String], [String: String])] = []
        for name in ["kitty", "sixel"] {
            tools.append(
                (
                    "pxview \(name)", pxview, ["show", "--once", "--place", "\(pane)@60,2", photo],
                    ["PATH": "/usr/bin:/bin", "TERM": "xterm", "PXVIEW_PROTOCOL": name, "XDG_RUNTIME_DIR": runtime]
                ))
            if let chafa {
                tools.append(
                    (
                        "chafa \(name)", chafa, ["-f", name == "sixel" ? "sixels" : "kitty", "-s", pane, photo],
                        ["PATH": "/usr/bin:/bin", "TERM": "xterm"]
                    ))
            }
        }
        var rows: [Row] = []
        for (tool, program, arguments, environment) in tools {
            var measured: [ProcessRun] = []
            // One run first, unmeasured: the photo and the program in the page cache.
            for index in 0...runs {
                guard
                    let run = try? ProcessTimer.runOnPseudoTerminal(
                        program, arguments, environment: environment, cells: window, cellPixels: cellPixels),
                    run.exitCode == 0, !run.output.isEmpty
                else {
                    notes.append("preview: \(tool) failed on \(photo)")
                    measured = []
                    break
                }
                if index > 0 { measured.append(run) }
            }
            guard let last = measured.last else { continue }
            rows.append(
                Row(
                    tool: tool, milliseconds: median(measured.map(\.milliseconds)),
                    cpuMilliseconds: median(measured.map(\.cpuMilliseconds)), bytes: last.output.count))
        }
        return rows
    }
}
